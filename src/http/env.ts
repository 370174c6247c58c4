// Hono environment shared by every router, and the router factory that makes validation failures our envelope.
import { OpenAPIHono } from '@hono/zod-openapi';
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
  return new OpenAPIHono<Env>({
    defaultHook: (result) => {
      if (!result.success) throw zodValidationError(result.error, result.target, (result as { data?: unknown }).data);
    },
  });
}

export type Router = ReturnType<typeof createRouter>;
