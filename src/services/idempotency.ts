// Idempotency-Key (service document 4.2 rule 1, sandbox.md 2.6): scope is account + route; the fingerprint covers
// the wallet and the body (key order does not matter). Only 2xx answers are kept, for 24 h of sandbox clock. The verb
// runs synchronously between the look-up and the save, so concurrent requests with one key create one resource.
import { createHash } from 'node:crypto';
import type { Deps } from '../deps';
import { SandboxError, validationError } from '../domain/errors';
import type { IdempotencyEntry } from '../domain/types';
import type { Caller } from '../domain/auth';
import { nowOf } from './clocks';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface Outcome {
  status: number;
  body: unknown;
}

export interface IdempotentResult {
  status: number;
  /** The JSON text to send (a replay sends the stored bytes). */
  text: string;
  replayed: boolean;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.keys(value as object).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  return value;
}

const scopeKey = (route: string, key: string) => `${route} ${key}`;

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (key.length < 8 || key.length > 255) throw validationError([{ field: 'Idempotency-Key', message: `must be 8 to 255 characters (got ${key.length})` }]);
  return key;
}

export function idempotent(deps: Deps, caller: Caller, route: string, key: string | undefined, body: unknown, run: () => Outcome): IdempotentResult {
  const { account } = caller;
  if (key === undefined) {
    const out = run();
    return { status: out.status, text: JSON.stringify(out.body), replayed: false };
  }
  const now = nowOf(deps, caller.account);
  const fingerprint = createHash('sha256').update(JSON.stringify({ wallet: caller.wallet.id, body: canonical(body) })).digest('hex');
  const k = scopeKey(route, key);
  const existing = account.idempotency[k];
  if (existing && now - existing.createdAt < IDEMPOTENCY_TTL_MS) {
    if (existing.fingerprint !== fingerprint)
      throw new SandboxError('IDEMPOTENCY_KEY_REUSED', `Idempotency-Key '${key}' was already used with a different request in the last 24 h; send a new key for a new request, or repeat the original request exactly.`, { idempotencyKey: key });
    return { status: existing.status, text: existing.body, replayed: true };
  }
  const out = run();
  const text = JSON.stringify(out.body);
  if (out.status >= 200 && out.status < 300) {
    const entry: IdempotencyEntry = { key, fingerprint, status: out.status, body: text, createdAt: now };
    account.idempotency[k] = entry;
  }
  return { status: out.status, text, replayed: false };
}
