// Helpers for the v1 tests: calls with an API key, charges paid at chosen instants, accounts with given API keys.
import { expect } from 'vitest';
import { DEFAULT, type ApiResponse, type Harness } from './harness';

export interface CustomerInput {
  name?: string;
  document?: string;
  email?: string;
  phone?: string;
}

/** GET a v1 path with an API key (default: the fixtures' FULL_ACCESS key); `key: null` sends none. */
export function v1<T = any>(h: Harness, path: string, opts: { key?: string | null; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
  const key = opts.key === undefined ? DEFAULT.apiKey : opts.key;
  return h.api('GET', `/v1${path}`, { headers: { ...(key === null ? {} : { 'x-api-key': key }), ...opts.headers } });
}

/** Moves the sandbox clock forward to an absolute instant. */
export async function advanceTo(h: Harness, instant: string) {
  const seconds = (Date.parse(instant) - h.sb.deps.clock.nowMs()) / 1000;
  expect(seconds, `the clock is already past ${instant}`).toBeGreaterThan(0);
  const res = await h.advance(seconds);
  expect(res.body.now).toBe(new Date(instant).toISOString());
}

/** Creates a charge through POST /v2/pix (optionally as a sub-account); returns its id. */
export async function createCharge(h: Harness, amount: number, customer?: CustomerInput, opts: { subAccount?: string; split?: { subAccount: string; amount: number }[]; token?: string } = {}): Promise<string> {
  const body = { amount, description: 'v1 test', ...(customer ? { customer } : {}), ...(opts.split ? { split: opts.split } : {}) };
  const res = opts.token
    ? await h.api('POST', '/v2/pix', { body, token: opts.token })
    : await h.v2('POST', '/pix', { body, ...(opts.subAccount ? { subAccount: opts.subAccount } : {}) });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** Creates a charge and pays it now (control action pay). */
export async function paidCharge(h: Harness, amount: number, customer?: CustomerInput, opts: Parameters<typeof createCharge>[3] = {}): Promise<string> {
  const id = await createCharge(h, amount, customer, opts);
  const paid = await h.control('POST', `/transactions/${id}/pay`);
  expect(paid.status, paid.text).toBe(200);
  return id;
}

/** A new account through the control API; returns its id, first API key and a FULL_ACCESS token. */
export async function newAccount(h: Harness, spec: Record<string, unknown> = {}) {
  const res = await h.control('POST', '/accounts', spec);
  expect(res.status, res.text).toBe(201);
  const cred = res.body.credentials[0];
  const token = await h.token(cred.clientId, cred.clientSecret);
  return { id: res.body.id as string, key: res.body.apiKeys[0].key as string, keys: res.body.apiKeys as { key: string; permissions: string[] }[], token };
}
