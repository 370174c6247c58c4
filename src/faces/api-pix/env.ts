// The Hono environment of the standard face: who is calling (the domain's Caller) and the family its 400s belong to.
import { Hono } from 'hono';
import type { Caller } from '../../domain/auth';
import type { Family } from './problems';

export type ApiPixEnv = {
  Variables: {
    traceId: string;
    caller: Caller;
    family: Family;
    /** Set by the guard: an unknown body field is a 400 (--strict or a strict tenant), not a warning (sandbox.md 14). */
    strictFields: boolean;
  };
};

export const createApiPixRouter = () => new Hono<ApiPixEnv>();
export type ApiPixRouter = ReturnType<typeof createApiPixRouter>;
