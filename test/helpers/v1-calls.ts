// Calls of the v1 dialect with an API key (default: the fixtures' FULL_ACCESS key), for the SDK-face tests.
import { expect } from 'vitest';
import { DEFAULT, type ApiResponse, type Harness } from './harness';

export function v1call<T = any>(h: Harness, method: string, path: string, body?: unknown, key: string | null = DEFAULT.apiKey): Promise<ApiResponse<T>> {
  return h.api(method, `/v1${path}`, { ...(body === undefined ? {} : { body }), headers: key === null ? {} : { 'x-api-key': key } });
}

/** POST a v1 path and expect `status` (default 201); returns the body. */
export async function v1ok(h: Harness, path: string, body: unknown, status = 201): Promise<any> {
  const res = await v1call(h, 'POST', path, body);
  expect(res.status, res.text).toBe(status);
  return res.body;
}

/** A payment link of the default project through POST /v1/charges. */
export const newLink = (h: Harness, extra: Record<string, unknown> = {}) =>
  v1ok(h, '/charges', { projectId: DEFAULT.projectId, name: 'Produto Premium', amount: 99.9, paymentMethods: ['pix', 'credit_card', 'boleto'], ...extra });

/** A v1 customer (the CPF must be new to the account). */
export const newCustomer = (h: Harness, document = '52998224725') => v1ok(h, '/customers', { name: 'Ana Souza', document, email: 'ana@example.com' });
