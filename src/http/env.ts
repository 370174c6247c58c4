// Hono environment shared by every router, and the router factory that makes validation failures our envelope.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Account, Credential, SubAccount, Wallet } from '../domain/types';
import { zodValidationError } from './errors';

/** Who is calling and on which wallet: set by the v2 guard (bearer token) or the v1 guard (API key). */
export interface Caller {
  account: Account;
  credential?: Credential;
  wallet: Wallet;
  subAccount: SubAccount | null;
}

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
