// Hono environment shared by every router, and the router factory that makes validation failures our envelope.
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Handler, MiddlewareHandler } from 'hono';
import type { Caller } from '../domain/auth';
import { zodValidationError } from './errors';
import { requestValidator, type ValidationFailure } from './validate';

/** Set by the v2 guard (bearer token) or the v1 guard (API key); the type is the domain's. */
export type { Caller };

export type Env = {
  Variables: {
    traceId: string;
    caller: Caller;
  };
};

export function createRouter() {
  const fail: ValidationFailure = (error, target, input) => {
    throw zodValidationError(error, target, input);
  };
  const router = new OpenAPIHono<Env>({ defaultHook: (result) => (result.success ? undefined : fail(result.error, result.target as 'json', (result as { data?: unknown }).data)) });
  // Each route's request is checked by one middleware (validate.ts) instead of zod-openapi's validator per part; the
  // route is registered for the OpenAPI document as zod-openapi's openapi() registers it. A route with what that
  // middleware does not check (none today: cookies, a body other than JSON) or with its own hook keeps zod-openapi's.
  const openapi = router.openapi.bind(router);
  router.openapi = ((route: RouteConfig & { middleware?: MiddlewareHandler | MiddlewareHandler[]; hide?: boolean }, handler: Handler, hook?: unknown) => {
    const { middleware, hide, ...config } = route;
    const validate = hook ? null : requestValidator(config.request, fail);
    if (validate === null) return openapi(route as never, handler as never, hook as never);
    if (!hide) router.openAPIRegistry.registerPath(config);
    const path = config.path.replaceAll(/\/{(.+?)}/g, '/:$1');
    router.on([config.method], [path], ...[middleware ?? []].flat(), ...(validate ? [validate] : []), handler);
    return router;
  }) as typeof router.openapi;
  return router;
}

export type Router = ReturnType<typeof createRouter>;
