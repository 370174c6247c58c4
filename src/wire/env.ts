// Hono environment shared by every router, and the router factory that makes validation failures our envelope.
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import type { Caller } from '../domain/auth';
import type { Principal } from '../domain/workshop';
import { zodFields } from './errors';
import { requestValidator, type UnknownFieldPolicy, type ValidationFailure } from './validate';
import { unknownFieldMessage, type UnknownField } from './unknown-fields';
import { validationError } from '../domain/errors';

/** Set by the v2 guard (bearer token) or the v1 guard (API key); the type is the domain's. */
export type { Caller };

export type Env = {
  Variables: {
    traceId: string;
    caller: Caller;
    /** Who calls the control API (control/principal.ts): the presenter, or one workshop attendee. */
    principal: Principal;
    /** The account a control request is logged under, set by control/principal.ts before the route runs; null: none. */
    controlAccount: string | null;
  };
};

/**
 * Whether a face refuses a body's unknown fields (sandbox.md 14): the service's faces take them with a warning unless
 * --strict or the calling tenant's `strict` says otherwise; the control API, the sandbox's own, always refuses them.
 */
export type UnknownFieldMode = (c: Context<Env>) => 'warn' | 'refuse';

/** The service's faces: refuse under --strict or for a strict tenant (known once the face's guard has run). */
export const serviceFieldMode =
  (settings: { strict?: boolean }): UnknownFieldMode =>
  (c) =>
    settings.strict || (c.get('caller') as Caller | undefined)?.account.strict ? 'refuse' : 'warn';

export function createRouter(unknownFieldMode: UnknownFieldMode = () => 'warn') {
  const unknownFieldErrors = (fields: UnknownField[] = []) => fields.map((f) => ({ field: f.field, message: unknownFieldMessage(f) }));
  const fail: ValidationFailure = (error, target, input, unknown) => {
    throw validationError([...zodFields(error, target, input), ...unknownFieldErrors(unknown)]);
  };
  const policy: UnknownFieldPolicy = {
    mode: unknownFieldMode as UnknownFieldPolicy['mode'],
    refuse(fields) {
      throw validationError(unknownFieldErrors(fields));
    },
  };
  const router = new OpenAPIHono<Env>({ defaultHook: (result) => (result.success ? undefined : fail(result.error, result.target as 'json', (result as { data?: unknown }).data)) });
  // Each route's request is checked by one middleware (validate.ts) instead of zod-openapi's validator per part; the
  // route is registered for the OpenAPI document as zod-openapi's openapi() registers it. A route with what that
  // middleware does not check (none today: cookies, a body other than JSON) or with its own hook keeps zod-openapi's.
  const openapi = router.openapi.bind(router);
  router.openapi = ((route: RouteConfig & { middleware?: MiddlewareHandler | MiddlewareHandler[]; hide?: boolean }, handler: Handler, hook?: unknown) => {
    const { middleware, hide, ...config } = route;
    const validate = hook ? null : requestValidator(config.request, fail, policy);
    if (validate === null) return openapi(route as never, handler as never, hook as never);
    if (!hide) router.openAPIRegistry.registerPath(config);
    const path = config.path.replaceAll(/\/{(.+?)}/g, '/:$1');
    router.on([config.method], [path], ...[middleware ?? []].flat(), ...(validate ? [validate] : []), handler);
    return router;
  }) as typeof router.openapi;
  return router;
}

export type Router = ReturnType<typeof createRouter>;
