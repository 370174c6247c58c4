import { describe, expect, test } from 'vitest';
import { PERMISSIONS } from '../../src/domain/permissions';
import { DEFAULT, startHarness, T0 } from '../helpers/harness';
import { createCharge, newAccount, paidCharge, v1 } from '../helpers/v1';

const ROUTES = [
  ['/customers', 'CUSTOMER:READ'],
  ['/metrics', 'METRICS:READ'],
] as const;

const expectEnvelope = (body: any, status: number, error: string, code: string, text: string) => {
  expect(body, text).toEqual({ statusCode: status, error, message: expect.any(String), timestamp: T0, traceId: expect.any(String), details: expect.objectContaining({ code }) });
};

describe('v1 API keys', () => {
  const table = ROUTES.flatMap(([path, needed]) => PERMISSIONS.map((p) => [path, p, p === needed || p === 'FULL_ACCESS' ? 200 : 403] as const));

  test.each(table)('GET /v1%s with a key that has only %s answers %s', async (path, permission, status) => {
    const h = await startHarness();
    const { key } = await newAccount(h, { apiKeys: [{ permissions: [permission] }] });
    const res = await v1(h, path, { key });
    expect(res.status, res.text).toBe(status);
    if (status === 403) {
      expectEnvelope(res.body, 403, 'Forbidden', 'PERMISSION_DENIED', res.text);
      expect(res.body.message).toContain(ROUTES.find(([p]) => p === path)![1]);
    }
  });

  test.each(ROUTES)('GET /v1%s with a key that has no permission at all is 403 PERMISSION_DENIED', async (path) => {
    const h = await startHarness();
    const { key } = await newAccount(h, { apiKeys: [{ permissions: [] }] });
    const res = await v1(h, path, { key });
    expectEnvelope(res.body, 403, 'Forbidden', 'PERMISSION_DENIED', res.text);
  });

  test.each(
    ROUTES.flatMap(([path]) => [
      [path, 'no X-API-Key', null, 'Missing API key'],
      [path, 'an unknown sandbox key', 'mp_test_not_a_key_of_anyone', 'Unknown API key'],
      [path, 'an unknown production key', 'mp_live_not_a_key_of_anyone', 'Unknown API key'],
      [path, 'a value without the mp_test_/mp_live_ prefix', 'sandbox_api_key_0001', 'mp_test_'],
      [path, 'the right key with one character changed', `${DEFAULT.apiKey.slice(0, -1)}2`, 'Unknown API key'],
      [path, 'a prefix of the right key', DEFAULT.apiKey.slice(0, -1), 'Unknown API key'],
    ] as const),
  )('GET /v1%s with %s is 401 in the v1 error envelope', async (path, _name, key, says) => {
    const h = await startHarness();
    const res = await v1(h, path, { key });
    expectEnvelope(res.body, 401, 'Unauthorized', 'UNAUTHORIZED', res.text);
    expect(res.body.message).toContain(says);
    expect(res.headers.get('x-trace-id')).toBe(res.body.traceId);
  });

  test('a v2 bearer token does not open v1, and the 401 says to send X-API-Key', async () => {
    const h = await startHarness();
    const res = await h.api('GET', '/v1/customers', { token: await h.token() });
    expect(res.status, res.text).toBe(401);
    expect(res.body.message).toContain('bearer');
    expect(res.body.message).toContain('X-API-Key');
  });

  test('a production account gets mp_live_ keys, and they work on both routes', async () => {
    const h = await startHarness();
    const prod = await newAccount(h, { environment: 'production' });
    expect(prod.key).toMatch(/^mp_live_[A-Za-z0-9_-]+$/);
    await paidCharge(h, 10, { name: 'Cliente Prod', document: '52998224725' }, { token: prod.token });
    const customers = await v1(h, '/customers', { key: prod.key });
    expect(customers.status, customers.text).toBe(200);
    expect(customers.body.items.map((c: any) => c.name)).toEqual(['Cliente Prod']);
    const metrics = await v1(h, '/metrics', { key: prod.key });
    expect(metrics.status, metrics.text).toBe(200);
    expect(metrics.body.totalRevenue).toBe(10);
  });

  test.each([
    ['sandbox', 'mp_live_explicit_key_0001'],
    ['production', 'mp_test_explicit_key_0001'],
    ['sandbox', 'custom_key_without_prefix'],
  ])('a %s account cannot be created with API key %s: 400 naming apiKeys[0].key', async (environment, key) => {
    const h = await startHarness();
    const res = await h.control('POST', '/accounts', { environment, apiKeys: [{ key }] });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields.map((f: any) => f.field)).toEqual(['apiKeys[0].key']);
    expect((await h.control('GET', '/accounts')).body.items).toHaveLength(1);
  });

  test('an explicit key with the right prefix is kept and works', async () => {
    const h = await startHarness();
    await newAccount(h, { environment: 'production', apiKeys: [{ key: 'mp_live_my_ci_key_0001', permissions: ['METRICS:READ'] }] });
    const res = await v1(h, '/metrics', { key: 'mp_live_my_ci_key_0001' });
    expect(res.status, res.text).toBe(200);
  });

  test('the key is read at each request: a deleted account\'s key stops working at once', async () => {
    const h = await startHarness();
    const other = await newAccount(h);
    expect((await v1(h, '/customers', { key: other.key })).status).toBe(200);
    await h.control('DELETE', `/accounts/${other.id}`);
    const res = await v1(h, '/customers', { key: other.key });
    expect(res.status, res.text).toBe(401);
  });
});

describe('X-Sub-Account on v1 (API keys are account-level)', () => {
  test.each(ROUTES)('GET /v1%s with X-Sub-Account: principal answers for the whole account', async (path) => {
    const h = await startHarness();
    const res = await v1(h, path, { headers: { 'x-sub-account': 'principal' } });
    expect(res.status, res.text).toBe(200);
  });

  test.each(
    ROUTES.flatMap(([path]) => [
      [path, DEFAULT.subAccounts.centro],
      [path, DEFAULT.subAccounts.fechada],
      [path, 'no-such-sub-account'],
      [path, 'Not A Reference!'],
    ]),
  )('GET /v1%s with X-Sub-Account: %s is 403 SUB_ACCOUNT_FORBIDDEN', async (path, reference) => {
    const h = await startHarness();
    const res = await v1(h, path, { headers: { 'x-sub-account': reference } });
    expectEnvelope(res.body, 403, 'Forbidden', 'SUB_ACCOUNT_FORBIDDEN', res.text);
    expect(res.body.message).toContain('whole account');
  });

  test('a key without the permission gets PERMISSION_DENIED before the header is looked at', async () => {
    const h = await startHarness();
    const { key } = await newAccount(h, { apiKeys: [{ permissions: ['METRICS:READ'] }] });
    const res = await v1(h, '/customers', { key, headers: { 'x-sub-account': 'loja-centro' } });
    expect(res.body.details.code, res.text).toBe('PERMISSION_DENIED');
  });
});

describe('tenant isolation', () => {
  test('each key sees only its own account: customers (even with the same document) and revenue', async () => {
    const h = await startHarness();
    const other = await newAccount(h);
    await paidCharge(h, 100, { name: 'Ana Default', document: '52998224725', email: 'ana@default.test' });
    await paidCharge(h, 7, { name: 'Ana Other', document: '52998224725', email: 'ana@other.test' }, { token: other.token });
    await createCharge(h, 3, { name: 'Bia Other', email: 'bia@other.test' }, { token: other.token });

    const mine = await v1(h, '/customers');
    expect(mine.body.items.map((c: any) => c.name), mine.text).toEqual(['Ana Default']);
    const theirs = await v1(h, '/customers', { key: other.key });
    expect(theirs.body.items.map((c: any) => c.name), theirs.text).toEqual(['Bia Other', 'Ana Other']);
    expect(theirs.body.items[1].id).not.toBe(mine.body.items[0].id);
    expect((await v1(h, '/customers?search=default', { key: other.key })).body.total).toBe(0);

    expect((await v1(h, '/metrics')).body).toMatchObject({ totalRevenue: 100, currentMrr: 100 });
    expect((await v1(h, '/metrics', { key: other.key })).body).toMatchObject({ totalRevenue: 7, currentMrr: 7 });
  });
});

describe('OpenAPI', () => {
  test('both v1 routes are documented with the X-API-Key security scheme', async () => {
    const h = await startHarness();
    const doc = (await h.api('GET', '/openapi.json')).body;
    expect(doc.components.securitySchemes.apiKeyAuth).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    for (const [path] of ROUTES) {
      expect(doc.paths[`/v1${path}`]?.get?.security, path).toEqual([{ apiKeyAuth: [] }]);
    }
    expect(doc.paths['/v1/customers'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'search']));
    expect(doc.paths['/v1/metrics'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['from', 'to']));
  });
});
