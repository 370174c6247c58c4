// Hono environment shared by every router, and the router factory that makes validation failures our envelope.
import { OpenAPIHono, z, type RouteConfig } from '@hono/zod-openapi';
import type { Caller } from '../domain/auth';
import { zodValidationError } from './errors';

/** Set by the v2 guard (bearer token) or the v1 guard (API key); the type is the domain's. */
export type { Caller };

export type Env = {
  Variables: {
    traceId: string;
    caller: Caller;
  };
};

export function createRouter() {
  const router = new OpenAPIHono<Env>({
    defaultHook: (result) => {
      if (!result.success) throw zodValidationError(result.error, result.target, (result as { data?: unknown }).data);
    },
  });
  const openapi = router.openapi.bind(router);
  router.openapi = ((route: RouteConfig, ...rest: unknown[]) => {
    const { body, ...parts } = route.request ?? {};
    for (const schema of [...Object.values(parts).flat(), ...Object.values(body?.content ?? {}).map((media) => (media as { schema?: unknown } | undefined)?.schema)]) parseInLine(schema);
    return (openapi as (...args: unknown[]) => unknown)(route, ...rest);
  }) as typeof router.openapi;
  return router;
}

const inLine = new WeakSet<object>();
/**
 * The validators of a route's request (zod-openapi's, through @hono/zod-validator) call safeParseAsync, and zod parses
 * an async call without its compiled fast path for objects: several times the synchronous parse of a create's body
 * and headers. None of the request schemas refines or transforms asynchronously, so their safeParseAsync runs
 * safeParse; one that did would make safeParse throw $ZodAsyncError, and is then parsed asynchronously as before.
 */
function parseInLine(schema: unknown): void {
  if (!(schema instanceof z.ZodType) || inLine.has(schema)) return;
  inLine.add(schema);
  const parseAsync = schema.safeParseAsync.bind(schema);
  Object.defineProperty(schema, 'safeParseAsync', {
    value: async (data: unknown, params?: Parameters<typeof schema.safeParse>[1]) => {
      try {
        return schema.safeParse(data, params);
      } catch (err) {
        if (err instanceof z.core.$ZodAsyncError) return parseAsync(data, params);
        throw err;
      }
    },
  });
}

export type Router = ReturnType<typeof createRouter>;
