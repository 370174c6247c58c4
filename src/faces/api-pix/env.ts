// The Hono environment of the standard face: who is calling (the domain's Caller) and the family its 400s belong to.
import { Hono } from 'hono';
import type { Caller } from '../../domain/auth';
import type { Family } from './problems';

export type ApiPixEnv = {
  Variables: {
    traceId: string;
    caller: Caller;
    family: Family;
  };
};

export const createApiPixRouter = () => new Hono<ApiPixEnv>();
export type ApiPixRouter = ReturnType<typeof createApiPixRouter>;
