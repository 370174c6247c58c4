// Permissions of the v1 routes (sandbox.md 12): the v2 twin's, plus CUSTOMER:WRITE, CHARGE:WRITE, CHARGE:READ and
// PROJECT:READ; FULL_ACCESS covers all. Each cell is a key with exactly one permission calling one route.
import { expect, test } from 'vitest';
import { PERMISSIONS } from '../../src/domain/permissions';
import { DEFAULT, startHarness } from '../helpers/harness';

const ROUTES: Record<string, { method: string; path: string; body?: unknown; needs: string[] }> = {
  'POST /v1/pix': { method: 'POST', path: '/v1/pix', body: { amount: 10, description: 'x' }, needs: ['PIX:WRITE'] },
  'POST /v1/pix/qrcode-static': { method: 'POST', path: '/v1/pix/qrcode-static', body: { amount: 10, description: 'x' }, needs: ['PIX:WRITE'] },
  'POST /v1/customers': { method: 'POST', path: '/v1/customers', body: { name: 'Ana', document: '52998224725' }, needs: ['CUSTOMER:WRITE'] },
  'GET /v1/customers': { method: 'GET', path: '/v1/customers', needs: ['CUSTOMER:READ'] },
  'POST /v1/projects': { method: 'POST', path: '/v1/projects', body: { name: 'P' }, needs: ['PROJECT:WRITE'] },
  'GET /v1/projects': { method: 'GET', path: '/v1/projects', needs: ['PROJECT:READ', 'PROJECT:WRITE'] },
  'POST /v1/charges': { method: 'POST', path: '/v1/charges', body: { projectId: DEFAULT.projectId, name: 'L', amount: 5, paymentMethods: ['pix'] }, needs: ['CHARGE:WRITE'] },
  'GET /v1/charges': { method: 'GET', path: '/v1/charges', needs: ['CHARGE:READ'] },
  'GET /v1/charges/{id}': { method: 'GET', path: '/v1/charges/unknown', needs: ['CHARGE:READ'] },
  'GET /v1/transactions/{id}': { method: 'GET', path: '/v1/transactions/unknown', needs: ['TRANSACTION:READ'] },
  'POST /v1/transactions/{id}/refund': { method: 'POST', path: '/v1/transactions/unknown/refund', body: {}, needs: ['REFUND:WRITE'] },
  'GET /v1/account': { method: 'GET', path: '/v1/account', needs: ['ACCOUNT:READ'] },
  'GET /v1/balance-blocks': { method: 'GET', path: '/v1/balance-blocks', needs: ['BALANCE_BLOCK:READ'] },
  'POST /v1/withdrawals': { method: 'POST', path: '/v1/withdrawals', body: { amount: 5, pixKey: 'a@example.com', pixKeyType: 'email', holderName: 'A', holderDocument: '52998224725', holderDocumentType: 'cpf' }, needs: ['WITHDRAWAL:WRITE'] },
  'GET /v1/metrics': { method: 'GET', path: '/v1/metrics', needs: ['METRICS:READ'] },
};

const CASES = Object.entries(ROUTES).flatMap(([route, r]) => PERMISSIONS.map((permission) => ({ route, permission, allowed: permission === 'FULL_ACCESS' || r.needs.includes(permission) })));

test.each(CASES)('$route with only $permission: allowed $allowed', async ({ route, permission, allowed }) => {
  const h = await startHarness();
  const made = await h.control('POST', '/accounts', { balance: 100, projects: [{ id: '3c90c3cc-0d44-4b50-8888-8dd25736052a', name: 'P0' }], apiKeys: [{ permissions: [permission] }] });
  expect(made.status, made.text).toBe(201);
  expect(made.body.apiKeys[0].permissions, 'an API key lists its permissions').toEqual([permission]);
  const r = ROUTES[route]!;
  const body = r.body && typeof r.body === 'object' && 'projectId' in r.body ? { ...r.body, projectId: '3c90c3cc-0d44-4b50-8888-8dd25736052a' } : r.body;
  const res = await h.api(r.method, r.path, { ...(body === undefined ? {} : { body }), headers: { 'x-api-key': made.body.apiKeys[0].key } });
  if (allowed) expect(res.status, res.text).not.toBe(403);
  else {
    expect(res.status, res.text).toBe(403);
    expect(res.body.details).toMatchObject({ code: 'PERMISSION_DENIED', required: r.needs });
  }
});

test.each(Object.keys(ROUTES))('%s without a key is 401; with X-Sub-Account other than principal, 403', async (route) => {
  const h = await startHarness();
  const r = ROUTES[route]!;
  const bare = await h.api(r.method, r.path, r.body === undefined ? {} : { body: r.body });
  expect(bare.status, bare.text).toBe(401);
  const sub = await h.api(r.method, r.path, { ...(r.body === undefined ? {} : { body: r.body }), headers: { 'x-api-key': DEFAULT.apiKey, 'x-sub-account': 'loja-centro' } });
  expect(sub.status, sub.text).toBe(403);
  expect(sub.body.details.code).toBe('SUB_ACCOUNT_FORBIDDEN');
});
