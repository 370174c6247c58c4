// Helpers shared by the foundation tests: the error envelope check, credentials with chosen permissions, and
// instants on the harness's frozen clock. Everything goes through the HTTP surface of the harness.
import { expect } from 'vitest';
import { DEFAULT, T0, type ApiResponse, type Harness } from '../helpers/harness';

/** Error names of service-api.md section 7 (and the two body-limit statuses), written out, not imported. */
export const ERROR_NAME: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** T0 plus some seconds, as the ISO string the sandbox prints. */
export const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

/**
 * The v2/control error envelope (service-api.md 7, sandbox.md 2.2): exactly statusCode, error, message, timestamp,
 * traceId, details, with the business code in details.code and the timestamp read from the sandbox clock.
 */
export function expectEnvelope(res: ApiResponse, status: number, code: string, timestamp = T0) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type') ?? '', res.text).toMatch(/^application\/json/);
  expect(Object.keys(res.body ?? {}).sort(), res.text).toEqual(['details', 'error', 'message', 'statusCode', 'timestamp', 'traceId']);
  expect(res.body.statusCode, res.text).toBe(status);
  expect(res.body.error, res.text).toBe(ERROR_NAME[status]);
  expect(typeof res.body.message === 'string' && res.body.message.length > 0, res.text).toBe(true);
  expect(res.body.timestamp, res.text).toBe(timestamp);
  expect(res.body.traceId, res.text).toMatch(UUID);
  expect(res.body.details.code, res.text).toBe(code);
}

/** 400 VALIDATION_ERROR whose details.fields name exactly `fields` (in any order). */
export function expectValidation(res: ApiResponse, fields: string[], timestamp = T0) {
  expectEnvelope(res, 400, 'VALIDATION_ERROR', timestamp);
  const named = (res.body.details.fields as { field: string; message: string }[]).map((f) => f.field);
  expect([...new Set(named)].sort(), res.text).toEqual([...fields].sort());
  for (const f of res.body.details.fields) expect(f.message, res.text).toEqual(expect.any(String));
}

/** The small body of POST /v2/auth errors: `error` and `message` only. */
export function expectAuthError(res: ApiResponse, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body ?? {}).sort(), res.text).toEqual(['error', 'message']);
  expect(res.body.error, res.text).toBe(ERROR_NAME[status]);
  expect(res.body.message, res.text).toEqual(expect.any(String));
}

export interface MadeCredential {
  id: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

/** Adds a credential to an account (default: the fixtures' one) through the control API and authenticates with it. */
export async function credentialWith(
  h: Harness,
  permissions: string[],
  subAccountAccess = false,
  accountId: string = DEFAULT.accountId,
): Promise<MadeCredential> {
  const res = await h.control('POST', `/accounts/${accountId}/credentials`, { permissions, subAccountAccess });
  expect(res.status, res.text).toBe(201);
  expect(res.body.permissions, res.text).toEqual(permissions);
  expect(res.body.subAccountAccess, res.text).toBe(subAccountAccess);
  const token = await h.token(res.body.clientId, res.body.clientSecret);
  return { id: res.body.id, clientId: res.body.clientId, clientSecret: res.body.clientSecret, token };
}

/** The control API's view of an account (every wallet's balance, credentials, projects...). */
export async function accountState(h: Harness, accountId: string = DEFAULT.accountId) {
  const res = await h.control('GET', `/accounts/${accountId}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Balance of one wallet as GET /v2/account shows it (main account when `subAccount` is omitted). */
export async function balanceOf(h: Harness, subAccount?: string) {
  const res = await h.v2('GET', '/account', subAccount ? { subAccount } : {});
  expect(res.status, res.text).toBe(200);
  return res.body.balance;
}

/** Awaits a call, asserts its status with the response text in the message, and returns the response. */
export async function expectStatus<T = any>(pending: Promise<ApiResponse<T>>, status: number): Promise<ApiResponse<T>> {
  const res = await pending;
  expect(res.status, res.text).toBe(status);
  return res;
}
