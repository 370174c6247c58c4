// sandbox.md 2.8: ids are unique across all accounts, wallets, credentials and keys. A spec that reuses one, against
// the state or inside itself, is a 409 naming the field, and creates nothing.
import { describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness } from '../helpers/harness';

const NEW_ID = '99999999-9999-4999-8999-999999999901';
const OTHER_ID = '99999999-9999-4999-8999-999999999902';

describe('ids are unique across the sandbox', () => {
  test('a sub-account whose id is the account id is refused; the 100.00 it would bring stays out, nothing collides', async () => {
    const h = await startHarness();
    const res = await h.control('POST', '/accounts', { id: NEW_ID, balance: 50, subAccounts: [{ id: NEW_ID, reference: 'filial', balance: 100 }] });
    expect(res.status, res.text).toBe(409);
    expect(res.body.details).toMatchObject({ code: 'ID_TAKEN', field: 'subAccounts[0].id', value: NEW_ID });
    expect((await h.control('GET', `/accounts/${NEW_ID}`)).status).toBe(404);
  });

  type Case = [string, (ids: { centro: string }) => Record<string, unknown>, number, string, string];
  const cases: Case[] = [
    ['a sub-account id equal to another sub-account id in the spec', () => ({ subAccounts: [{ id: OTHER_ID, reference: 'filial-a' }, { id: OTHER_ID, reference: 'filial-b' }] }), 409, 'ID_TAKEN', 'subAccounts[1].id'],
    ['an account id equal to an existing wallet (a sub-account of another account)', ({ centro }) => ({ id: centro }), 409, 'ID_TAKEN', 'id'],
    ['a sub-account id equal to an existing account id', () => ({ subAccounts: [{ id: DEFAULT.accountId, reference: 'filial-a' }] }), 409, 'ID_TAKEN', 'subAccounts[0].id'],
    ['a credential id equal to an existing credential id', () => ({ credentials: [{ id: DEFAULT.full.id }] }), 409, 'ID_TAKEN', 'credentials[0].id'],
    ['a credential id equal to the new account id', () => ({ id: NEW_ID, credentials: [{ id: NEW_ID }] }), 409, 'ID_TAKEN', 'credentials[0].id'],
    ['a clientId equal to an existing clientId', () => ({ credentials: [{ clientId: DEFAULT.full.clientId }] }), 409, 'CLIENT_ID_TAKEN', 'credentials[0].clientId'],
    ['two credentials with one clientId', () => ({ credentials: [{ clientId: 'mp_test_twice_1234' }, { clientId: 'mp_test_twice_1234' }] }), 409, 'CLIENT_ID_TAKEN', 'credentials[1].clientId'],
    ['an API key equal to an existing key', () => ({ apiKeys: [{ key: DEFAULT.apiKey }] }), 409, 'API_KEY_TAKEN', 'apiKeys[0].key'],
    ['an API key id equal to a webhook id of the spec', () => ({ apiKeys: [{ id: OTHER_ID }], webhooks: [{ id: OTHER_ID, url: null }] }), 409, 'ID_TAKEN', 'webhooks[0].id'],
    ['a webhook endpoint id equal to an existing one', () => ({ webhooks: [{ id: DEFAULT.webhookId, url: null }] }), 409, 'ID_TAKEN', 'webhooks[0].id'],
    ['a project id equal to an existing project', () => ({ projects: [{ id: DEFAULT.projectId, name: 'P' }] }), 409, 'ID_TAKEN', 'projects[0].id'],
    ['an institution id equal to an existing institution', () => ({ institutions: [{ id: DEFAULT.institutionUp, name: 'Banco' }] }), 409, 'ID_TAKEN', 'institutions[0].id'],
  ];

  test.each(cases)('POST /_sandbox/accounts with %s is 409 naming the field and creates nothing', async (_label, spec, status, code, field) => {
    const h = await startHarness();
    const centro = h.sb.deps.store.account(DEFAULT.accountId).subAccounts.find((s) => s.reference === 'loja-centro')!.id;
    const before = JSON.stringify(h.sb.deps.store.state.accounts);
    const res = await h.control('POST', '/accounts', spec({ centro }));
    expect(res.status, res.text).toBe(status);
    expect(res.body.details, res.text).toMatchObject({ code, field });
    expect(res.body.message).toContain('omit');
    expect(JSON.stringify(h.sb.deps.store.state.accounts)).toBe(before);
  });

  test.each([
    ['a sub-account with the id of the account', () => ({ path: `/accounts/${DEFAULT.accountId}/sub-accounts`, body: { id: DEFAULT.accountId, reference: 'filial', balance: 100 } }), 'id'],
    ['a credential with the id of a sub-account', (centro: string) => ({ path: `/accounts/${DEFAULT.accountId}/credentials`, body: { id: centro } }), 'id'],
  ])('adding %s to an existing account is 409 and changes nothing', async (_label, make, field) => {
    const h = await startHarness();
    const centro = h.sb.deps.store.account(DEFAULT.accountId).subAccounts.find((s) => s.reference === 'loja-centro')!.id;
    const before = JSON.stringify(h.sb.deps.store.state.accounts);
    const { path, body } = make(centro);
    const res = await h.control('POST', path, body);
    expect(res.status, res.text).toBe(409);
    expect(res.body.details).toMatchObject({ code: 'ID_TAKEN', field });
    expect(JSON.stringify(h.sb.deps.store.state.accounts)).toBe(before);
    expectLedgerBalanced(h.sb);
  });
});
