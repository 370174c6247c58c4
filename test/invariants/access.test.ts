// sandbox.md 2.8: a suspended sub-account's wallet cannot be used through X-Sub-Account whatever the route (403
// SUB_ACCOUNT_SUSPENDED), and a token whose `iat` lies after the sandbox clock's now (the clock was set back) is
// still valid until `exp`.
import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { paidCharge } from '../helpers/money';

const withdrawal = { amount: 10, pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Fulano', holderDocument: '52998224725', holderDocumentType: 'cpf' };

/** Every v2 route that takes X-Sub-Account, with a request that would succeed for an approved sub-account. */
const routes: [string, string, (h: Harness) => Promise<{ path: string; body?: unknown }>][] = [
  ['GET', '/account', async () => ({ path: '/account' })],
  ['POST', '/pix', async () => ({ path: '/pix', body: { amount: 10, description: 'x' } })],
  ['GET', '/transactions/{id}', async (h) => ({ path: `/transactions/${await paidCharge(h)}` })],
  ['POST', '/transactions/{id}/refund', async (h) => ({ path: `/transactions/${await paidCharge(h)}/refund`, body: {} })],
  ['POST', '/withdrawals', async () => ({ path: '/withdrawals', body: withdrawal })],
  ['GET', '/projects', async () => ({ path: '/projects' })],
  ['POST', '/projects', async () => ({ path: '/projects', body: { name: 'Novo', color: '#123456' } })],
  ['GET', '/projects/{id}', async () => ({ path: `/projects/${DEFAULT.projectId}` })],
  ['GET', '/balance-blocks', async () => ({ path: '/balance-blocks' })],
];

describe('a suspended sub-account cannot be used through X-Sub-Account', () => {
  test.each(routes)('%s /v2%s answers 403 SUB_ACCOUNT_SUSPENDED and changes nothing', async (method, _route, make) => {
    const h = await startHarness();
    const { path, body } = await make(h);
    const before = JSON.stringify(h.sb.deps.store.state.accounts);
    const res = await h.v2(method, path, { subAccount: DEFAULT.subAccounts.fechada, ...(body === undefined ? {} : { body }) });
    expect(res.status, res.text).toBe(403);
    expect(res.body.details).toMatchObject({ code: 'SUB_ACCOUNT_SUSPENDED' });
    expect(JSON.stringify(h.sb.deps.store.state.accounts)).toBe(before);
  });

  test.each(routes)('%s /v2%s: a sub-account suspended after its token was issued is refused at once', async (method, _route, make) => {
    const h = await startHarness();
    const { path, body } = await make(h);
    const token = await h.token();
    const headers = { 'x-sub-account': DEFAULT.subAccounts.centro };
    expect((await h.control('PATCH', `/accounts/${DEFAULT.accountId}/sub-accounts/${DEFAULT.subAccounts.centro}`, { status: 'suspended' })).status).toBe(200);
    const res = await h.api(method, `/v2${path}`, { token, headers, ...(body === undefined ? {} : { body }) });
    expect(res.status, res.text).toBe(403);
    expect(res.body.details).toMatchObject({ code: 'SUB_ACCOUNT_SUSPENDED' });
  });
});

describe('tokens and a clock set back', () => {
  test('a token stays valid when the clock is set back an hour and forward a day (it lives 300 s of real time)', async () => {
    const h = await startHarness();
    const token = await h.token(); // first verified below, after the clock went back
    const back = await h.control('PUT', '/clock', { now: '2026-03-10T11:00:00.000Z', frozen: true });
    expect(back.status, back.text).toBe(200);
    const res = await h.api('GET', '/v2/account', { token });
    expect(res.status, res.text).toBe(200);
    await h.control('PUT', '/clock', { now: '2026-03-11T12:05:00.000Z', frozen: true });
    const later = await h.api('GET', '/v2/account', { token });
    expect(later.status, later.text).toBe(200);
  });
});
