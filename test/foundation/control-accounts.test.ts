// Tenants through the control API (sandbox.md 2.3, 4.1): creation with every field, defaults, isolation, read, patch,
// delete, credentials, sub-accounts, institutions, and the errors of each.
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { accountState, credentialWith, expectEnvelope, expectValidation, UUID, expectStatus } from './support';

const FULL_SPEC = {
  name: 'Padaria Dois Irmãos',
  environment: 'production',
  balance: 50,
  fees: { pix: { percent: 1.5, fixed: 0.1, min: 0.3 }, withdrawal: { fixed: 2 }, refund: { fixed: 1 } },
  limits: { withdrawalMax: 500, dailyWithdrawalMax: 1000 },
  institutionChoice: true,
  institutions: [
    { name: 'Banco Um', status: 'up', enabled: true },
    { name: 'Banco Dois', status: 'out_of_capacity', enabled: false },
  ],
  subAccounts: [
    { reference: 'filial-1', name: 'Filial 1', status: 'approved', balance: 10 },
    { reference: 'filial-2', name: 'Filial 2', status: 'suspended', balance: 0 },
  ],
  projects: [{ name: 'Balcão', color: '#123456', description: 'Vendas no balcão', logoUrl: 'https://example.com/p.png' }],
  credentials: [
    { permissions: ['FULL_ACCESS'], subAccountAccess: true },
    { permissions: ['ACCOUNT:READ', 'PROJECT:READ'], subAccountAccess: false },
  ],
  apiKeys: [{ permissions: ['CUSTOMER:READ', 'METRICS:READ'] }],
  webhooks: [
    { url: 'http://127.0.0.1:9/main', subAccount: null, secret: 'whsec_main_secret_1' },
    { url: 'http://127.0.0.1:9/filial', subAccount: 'filial-1' },
  ],
};

async function createTenant(h: Harness, spec: unknown = FULL_SPEC) {
  const res = await h.control('POST', '/accounts', spec);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function tenantToken(h: Harness, tenant: { credentials: { clientId: string; clientSecret: string }[] }, i = 0) {
  return h.token(tenant.credentials[i]!.clientId, tenant.credentials[i]!.clientSecret);
}

test('POST /_sandbox/accounts with every field answers 201 with the secrets and every part of the tenant', async () => {
  const h = await startHarness();
  const res = await h.control('POST', '/accounts', FULL_SPEC);
  expect(res.status, res.text).toBe(201);
  const t = res.body;
  expect(t.id, res.text).toMatch(UUID);
  expect(t.environment, res.text).toBe('production');
  expect(t.name, res.text).toBe(FULL_SPEC.name);
  expect(t.credentials, res.text).toEqual([
    { id: expect.stringMatching(UUID), clientId: expect.stringMatching(/^mp_live_/), clientSecret: expect.any(String), permissions: ['FULL_ACCESS'], subAccountAccess: true },
    { id: expect.stringMatching(UUID), clientId: expect.stringMatching(/^mp_live_/), clientSecret: expect.any(String), permissions: ['ACCOUNT:READ', 'PROJECT:READ'], subAccountAccess: false },
  ]);
  expect(t.credentials[0].clientSecret.length, res.text).toBeGreaterThanOrEqual(16);
  expect(t.apiKeys, res.text).toEqual([{ id: expect.stringMatching(UUID), key: expect.stringMatching(/^mp_live_/), permissions: ['CUSTOMER:READ', 'METRICS:READ'] }]);
  expect(t.subAccounts, res.text).toEqual([
    { id: expect.stringMatching(UUID), reference: 'filial-1', name: 'Filial 1', status: 'approved', createdAt: expect.any(String) },
    { id: expect.stringMatching(UUID), reference: 'filial-2', name: 'Filial 2', status: 'suspended', createdAt: expect.any(String) },
  ]);
  expect(t.projects, res.text).toEqual([expect.objectContaining({ id: expect.stringMatching(UUID), ...FULL_SPEC.projects[0] })]);
  expect(t.institutions, res.text).toEqual([
    { id: expect.stringMatching(UUID), name: 'Banco Um', status: 'up', enabled: true },
    { id: expect.stringMatching(UUID), name: 'Banco Dois', status: 'out_of_capacity', enabled: false },
  ]);
  expect(t.webhooks, res.text).toEqual([
    expect.objectContaining({ id: expect.stringMatching(UUID), url: 'http://127.0.0.1:9/main', subAccount: null, secret: 'whsec_main_secret_1' }),
    expect.objectContaining({ id: expect.stringMatching(UUID), url: 'http://127.0.0.1:9/filial', subAccount: 'filial-1', secret: expect.any(String) }),
  ]);
  expect(t.webhooks[1].secret.length, res.text).toBeGreaterThanOrEqual(16);
  expect(t.fees, res.text).toEqual(FULL_SPEC.fees);
  expect(t.limits, res.text).toEqual(FULL_SPEC.limits);
  expect(t.institutionChoice, res.text).toBe(true);
});

test('the new tenant credentials work on the v2 API against its own wallets', async () => {
  const h = await startHarness();
  const t = await createTenant(h);
  const token = await tenantToken(h, t);
  const main = await h.api('GET', '/v2/account', { token });
  expect(main.status, main.text).toBe(200);
  expect(main.body.account.id, main.text).toBe(t.id);
  expect(main.body.balance.available, main.text).toEqual({ amount: 5000, amountFormatted: 50 });

  const filial = await h.api('GET', '/v2/account', { token, headers: { 'x-sub-account': 'filial-1' } });
  expect(filial.status, filial.text).toBe(200);
  expect(filial.body.account.id, filial.text).toBe(t.subAccounts[0].id);
  expect(filial.body.balance.available, filial.text).toEqual({ amount: 1000, amountFormatted: 10 });

  expectEnvelope(await h.api('GET', '/v2/account', { token, headers: { 'x-sub-account': 'filial-2' } }), 403, 'SUB_ACCOUNT_SUSPENDED');

  const limited = await tenantToken(h, t, 1);
  await expectStatus(h.api('GET', '/v2/projects', { token: limited }), 200);
  expectEnvelope(await h.api('POST', '/v2/projects', { token: limited, body: { name: 'X', color: '#000000' } }), 403, 'PERMISSION_DENIED');
  expectEnvelope(await h.api('GET', '/v2/account', { token: limited, headers: { 'x-sub-account': 'filial-1' } }), 403, 'SUB_ACCOUNT_FORBIDDEN');
});

test('with no credentials given, a tenant gets one FULL_ACCESS credential with sub-account access, in the sandbox environment', async () => {
  const h = await startHarness();
  const t = await createTenant(h, {});
  expect(t.environment).toBe('sandbox');
  expect(t.credentials, JSON.stringify(t)).toEqual([
    { id: expect.stringMatching(UUID), clientId: expect.stringMatching(/^mp_test_/), clientSecret: expect.any(String), permissions: ['FULL_ACCESS'], subAccountAccess: true },
  ]);
  expect(t.apiKeys.every((k: { key: string }) => k.key.startsWith('mp_test_')), JSON.stringify(t.apiKeys)).toBe(true);
  expect(t.subAccounts).toEqual([]);
  expect(t.projects).toEqual([]);
  const token = await tenantToken(h, t);
  const res = await h.api('GET', '/v2/account', { token });
  expect(res.body.balance.available, res.text).toEqual({ amount: 0, amountFormatted: 0 });
});

test('two tenants are isolated: neither sees the other project, sub-account or balance', async () => {
  const h = await startHarness();
  const t = await createTenant(h);
  const tenantProject = t.projects[0].id;
  const tToken = await tenantToken(h, t);
  const defaultToken = await h.token();

  expectEnvelope(await h.api('GET', `/v2/projects/${DEFAULT.projectId}`, { token: tToken }), 404, 'PROJECT_NOT_FOUND');
  expectEnvelope(await h.api('GET', `/v2/projects/${tenantProject}`, { token: defaultToken }), 404, 'PROJECT_NOT_FOUND');
  const tList = await h.api('GET', '/v2/projects', { token: tToken });
  expect(tList.body.items.map((p: { id: string }) => p.id), tList.text).toEqual([tenantProject]);
  expectEnvelope(await h.api('GET', '/v2/account', { token: tToken, headers: { 'x-sub-account': 'loja-centro' } }), 404, 'SUB_ACCOUNT_NOT_FOUND');
  expectEnvelope(await h.api('GET', '/v2/account', { token: defaultToken, headers: { 'x-sub-account': 'filial-1' } }), 404, 'SUB_ACCOUNT_NOT_FOUND');
  // The same project name is free in each tenant.
  await expectStatus(h.api('POST', '/v2/projects', { token: tToken, body: { name: 'Loja Online', color: '#000000' } }), 201);
  // Adjusting one tenant leaves the other alone.
  await expectStatus(h.control('POST', `/accounts/${t.id}/adjustments`, { amount: 1 }), 201);
  const defaultAccount = await h.api('GET', '/v2/account', { token: defaultToken });
  expect(defaultAccount.body.balance.available.amount, defaultAccount.text).toBe(100000);
});

test('GET /_sandbox/accounts lists every tenant with environment, status, sub-account count and main balance', async () => {
  const h = await startHarness();
  const t = await createTenant(h);
  const res = await h.control('GET', '/accounts');
  expect(res.status, res.text).toBe(200);
  expect(res.body.items, res.text).toEqual([
    { id: DEFAULT.accountId, name: 'Loja Exemplo LTDA', environment: 'sandbox', status: 'approved', subAccounts: 3, balance: 1000 },
    { id: t.id, name: FULL_SPEC.name, environment: 'production', status: 'approved', subAccounts: 2, balance: 50 },
  ]);
});

test('GET /_sandbox/accounts/{id} shows the balance of every wallet', async () => {
  const h = await startHarness();
  const t = await createTenant(h);
  const detail = await accountState(h, t.id);
  expect(detail.balances.map((b: { subAccount: string | null; walletId: string; available: unknown; total: unknown }) => [b.subAccount, b.walletId, b.available, b.total]), JSON.stringify(detail.balances)).toEqual([
    [null, t.id, { amount: 5000, amountFormatted: 50 }, { amount: 5000, amountFormatted: 50 }],
    ['filial-1', t.subAccounts[0].id, { amount: 1000, amountFormatted: 10 }, { amount: 1000, amountFormatted: 10 }],
    ['filial-2', t.subAccounts[1].id, { amount: 0, amountFormatted: 0 }, { amount: 0, amountFormatted: 0 }],
  ]);
  // Webhook secrets are shown only at creation.
  expect(detail.webhooks.every((w: object) => !('secret' in w)), JSON.stringify(detail.webhooks)).toBe(true);
});

test.each([
  ['fees (merged into the current schedule)', { fees: { pix: { percent: 2 }, refund: { fixed: 0.75 } } }, { fees: { pix: { percent: 2, fixed: 0, min: 0.5 }, withdrawal: { fixed: 1 }, refund: { fixed: 0.75 } } }],
  ['limits', { limits: { withdrawalMax: 250.5, dailyWithdrawalMax: 1000 } }, { limits: { withdrawalMax: 250.5, dailyWithdrawalMax: 1000 } }],
  ['limits back to none', { limits: { withdrawalMax: null } }, { limits: { withdrawalMax: null, dailyWithdrawalMax: null } }],
  ['status', { status: 'pending_documents' }, { status: 'pending_documents' }],
  ['institutionChoice', { institutionChoice: false }, { institutionChoice: false }],
  ['automation', { automation: { completeAfterSeconds: 0, autoPayAfterSeconds: 30 } }, { automation: { completeAfterSeconds: 0, autoPayAfterSeconds: 30 } }],
  ['name', { name: 'Loja Renomeada' }, { name: 'Loja Renomeada' }],
])('PATCH /_sandbox/accounts/{id} changes %s', async (_label, patch, expected) => {
  const h = await startHarness();
  const res = await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, patch);
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toMatchObject(expected);
  expect(await accountState(h)).toMatchObject(expected);
});

test('a status change shows in GET /v2/account', async () => {
  const h = await startHarness();
  await expectStatus(h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { status: 'pending_approval' }), 200);
  const res = await h.v2('GET', '/account');
  expect(res.body.account.status, res.text).toBe('pending_approval');
});

test('DELETE /_sandbox/accounts/{id} removes the tenant; its token then gets 401 and its credentials no longer authenticate', async () => {
  const h = await startHarness();
  const t = await createTenant(h);
  const token = await tenantToken(h, t);
  await expectStatus(h.api('GET', '/v2/account', { token }), 200);

  const del = await h.control('DELETE', `/accounts/${t.id}`);
  expect(del.status, del.text).toBe(200);
  expect(del.body, del.text).toEqual({ id: t.id, deleted: true });

  expectEnvelope(await h.api('GET', '/v2/account', { token }), 401, 'UNAUTHORIZED');
  const auth = await h.api('POST', '/v2/auth', { body: { client_id: t.credentials[0].clientId, client_secret: t.credentials[0].clientSecret } });
  expect(auth.status, auth.text).toBe(401);
  expectEnvelope(await h.control('GET', `/accounts/${t.id}`), 404, 'ACCOUNT_NOT_FOUND');
  const accountsLeft = await h.control('GET', '/accounts');
  expect(accountsLeft.body.items.map((a: { id: string }) => a.id), accountsLeft.text).toEqual([DEFAULT.accountId]);
  // The default tenant is untouched.
  await expectStatus(h.v2('GET', '/account'), 200);
});

test('POST /_sandbox/accounts/{id}/credentials adds a credential with its secret, usable at once', async () => {
  const h = await startHarness();
  const res = await h.control('POST', `/accounts/${DEFAULT.accountId}/credentials`, { permissions: ['PROJECT:READ'], subAccountAccess: true });
  expect(res.status, res.text).toBe(201);
  expect(res.body, res.text).toEqual({ id: expect.stringMatching(UUID), clientId: expect.stringMatching(/^mp_test_/), clientSecret: expect.any(String), permissions: ['PROJECT:READ'], subAccountAccess: true });
  const token = await h.token(res.body.clientId, res.body.clientSecret);
  const projects = await h.api('GET', '/v2/projects', { token, headers: { 'x-sub-account': 'loja-centro' } });
  expect(projects.status, projects.text).toBe(200);
  expect((await accountState(h)).credentials.map((c: { id: string }) => c.id)).toContain(res.body.id);
});

test('a credential may be given its own clientId and secret, and a taken clientId answers 409', async () => {
  const h = await startHarness();
  const res = await h.control('POST', `/accounts/${DEFAULT.accountId}/credentials`, { clientId: 'mp_test_my_client', clientSecret: 'my-secret-123', permissions: ['ACCOUNT:READ'] });
  expect(res.status, res.text).toBe(201);
  await expectStatus(h.api('GET', '/v2/account', { token: await h.token('mp_test_my_client', 'my-secret-123') }), 200);
  expectEnvelope(await h.control('POST', `/accounts/${DEFAULT.accountId}/credentials`, { clientId: 'mp_test_my_client' }), 409, 'CLIENT_ID_TAKEN');
});

test('a credential of a production tenant gets the mp_live_ prefix', async () => {
  const h = await startHarness();
  const t = await createTenant(h, { environment: 'production' });
  const res = await h.control('POST', `/accounts/${t.id}/credentials`, { permissions: ['ACCOUNT:READ'] });
  expect(res.body.clientId, res.text).toMatch(/^mp_live_/);
});

test('POST /_sandbox/accounts/{id}/sub-accounts adds a sub-account with an opening balance and any status', async () => {
  const h = await startHarness();
  const res = await h.control('POST', `/accounts/${DEFAULT.accountId}/sub-accounts`, { reference: 'loja-sul', name: 'Loja Sul', balance: 42.1 });
  expect(res.status, res.text).toBe(201);
  expect(res.body, res.text).toMatchObject({ reference: 'loja-sul', name: 'Loja Sul', status: 'approved' });
  const account = await h.v2('GET', '/account', { subAccount: 'loja-sul' });
  expect(account.body.balance.available, account.text).toEqual({ amount: 4210, amountFormatted: 42.1 });

  const pending = await h.control('POST', `/accounts/${DEFAULT.accountId}/sub-accounts`, { reference: 'loja-leste', status: 'suspended' });
  expect(pending.status, pending.text).toBe(201);
  expect(pending.body.name, pending.text).toBe('loja-leste');
  expectEnvelope(await h.v2('GET', '/account', { subAccount: 'loja-leste' }), 403, 'SUB_ACCOUNT_SUSPENDED');
});

test('suspending a sub-account with PATCH makes X-Sub-Account answer 403 SUB_ACCOUNT_SUSPENDED, and approving it again lifts that', async () => {
  const h = await startHarness();
  await expectStatus(h.v2('GET', '/account', { subAccount: 'loja-centro' }), 200);
  const suspend = await h.control('PATCH', `/accounts/${DEFAULT.accountId}/sub-accounts/loja-centro`, { status: 'suspended' });
  expect(suspend.status, suspend.text).toBe(200);
  expect(suspend.body, suspend.text).toMatchObject({ reference: 'loja-centro', status: 'suspended' });
  expectEnvelope(await h.v2('GET', '/account', { subAccount: 'loja-centro' }), 403, 'SUB_ACCOUNT_SUSPENDED');
  const listed = await h.v2('GET', '/sub-accounts');
  expect(listed.body.data.find((s: { reference: string }) => s.reference === 'loja-centro').status, listed.text).toBe('suspended');

  await expectStatus(h.control('PATCH', `/accounts/${DEFAULT.accountId}/sub-accounts/loja-centro`, { status: 'approved' }), 200);
  await expectStatus(h.v2('GET', '/account', { subAccount: 'loja-centro' }), 200);
});

test('PATCH /_sandbox/accounts/{id}/institutions/{institutionId} changes status and enabled', async () => {
  const h = await startHarness();
  const res = await h.control('PATCH', `/accounts/${DEFAULT.accountId}/institutions/${DEFAULT.institutionDown}`, { status: 'up', enabled: false });
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toEqual({ id: DEFAULT.institutionDown, name: 'Banco Sandbox Dois', status: 'up', enabled: false });
  const detail = await accountState(h);
  expect(detail.institutions, JSON.stringify(detail.institutions)).toEqual([
    { id: DEFAULT.institutionUp, name: 'Banco Sandbox Um', status: 'up', enabled: true },
    { id: DEFAULT.institutionDown, name: 'Banco Sandbox Dois', status: 'up', enabled: false },
  ]);
  const capacity = await h.control('PATCH', `/accounts/${DEFAULT.accountId}/institutions/${DEFAULT.institutionUp}`, { status: 'out_of_capacity' });
  expect(capacity.body, capacity.text).toMatchObject({ status: 'out_of_capacity', enabled: true });
});

const UNKNOWN = '99999999-9999-4999-8999-999999999999';
test.each([
  ['GET', `/accounts/${UNKNOWN}`, undefined],
  ['PATCH', `/accounts/${UNKNOWN}`, { status: 'approved' }],
  ['DELETE', `/accounts/${UNKNOWN}`, undefined],
  ['POST', `/accounts/${UNKNOWN}/credentials`, { permissions: ['FULL_ACCESS'] }],
  ['PATCH', `/accounts/${UNKNOWN}/credentials/${DEFAULT.full.id}`, { permissions: ['FULL_ACCESS'] }],
  ['POST', `/accounts/${UNKNOWN}/sub-accounts`, { reference: 'loja-sul' }],
  ['PATCH', `/accounts/${UNKNOWN}/sub-accounts/loja-centro`, { status: 'suspended' }],
  ['PATCH', `/accounts/${UNKNOWN}/institutions/${DEFAULT.institutionUp}`, { enabled: false }],
  ['POST', `/accounts/${UNKNOWN}/adjustments`, { amount: 10 }],
  ['GET', '/accounts/not-a-uuid', undefined],
])('%s /_sandbox%s answers 404 ACCOUNT_NOT_FOUND for an unknown account', async (method, path, body) => {
  const h = await startHarness();
  const res = await h.control(method, path, body);
  expectEnvelope(res, 404, 'ACCOUNT_NOT_FOUND');
});

test.each([
  ['PATCH', `/accounts/${DEFAULT.accountId}/credentials/55555555-5555-4555-8555-000000000000`, { permissions: [] }, 'CREDENTIAL_NOT_FOUND'],
  ['PATCH', `/accounts/${DEFAULT.accountId}/sub-accounts/loja-nenhuma`, { status: 'suspended' }, 'SUB_ACCOUNT_NOT_FOUND'],
  ['PATCH', `/accounts/${DEFAULT.accountId}/institutions/44444444-4444-4444-8444-000000000000`, { enabled: false }, 'INSTITUTION_NOT_FOUND'],
  ['POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 10, subAccount: 'loja-nenhuma' }, 'SUB_ACCOUNT_NOT_FOUND'],
])('%s /_sandbox%s answers 404 %s for an unknown part of a known account', async (method, path, body, code) => {
  const h = await startHarness();
  expectEnvelope(await h.control(method, path, body), 404, code);
});

test('a credential can be patched by its clientId too', async () => {
  const h = await startHarness();
  const res = await h.control('PATCH', `/accounts/${DEFAULT.accountId}/credentials/${DEFAULT.pixOnly.clientId}`, { permissions: ['PIX:WRITE', 'ACCOUNT:READ'] });
  expect(res.status, res.text).toBe(200);
  const token = await h.token(DEFAULT.pixOnly.clientId, DEFAULT.pixOnly.clientSecret);
  await expectStatus(h.api('GET', '/v2/account', { token }), 200);
});

// prettier-ignore
test.each([
  ['POST', '/accounts', { environment: 'staging' }, ['environment']],
  ['POST', '/accounts', { balance: 1.234 }, ['balance']],
  ['POST', '/accounts', { balance: 'mil' }, ['balance']],
  ['POST', '/accounts', { name: '' }, ['name']],
  ['POST', '/accounts', { id: 'not-a-uuid' }, ['id']],
  ['POST', '/accounts', { status: 'closed' }, ['status']],
  ['POST', '/accounts', { credentials: [{ permissions: ['EVERYTHING'] }] }, ['credentials[0].permissions[0]']],
  ['POST', '/accounts', { credentials: [{ subAccountAccess: 'yes' }] }, ['credentials[0].subAccountAccess']],
  ['POST', '/accounts', { institutions: [{ status: 'up' }] }, ['institutions[0].name']],
  ['POST', '/accounts', { institutions: [{ name: 'B', status: 'sideways' }] }, ['institutions[0].status']],
  ['POST', '/accounts', { webhooks: [{ url: 'not a url' }] }, ['webhooks[0].url']],
  ['POST', '/accounts', { webhooks: [{ url: 'http://127.0.0.1:9/x', secret: 'short' }] }, ['webhooks[0].secret']],
  ['POST', '/accounts', { projects: [{ name: 'P', color: 'red' }] }, ['projects[0].color']],
  ['POST', '/accounts', { fees: { pix: { percent: -1 } } }, ['fees.pix.percent']],
  ['POST', '/accounts', { limits: { withdrawalMax: -5 } }, ['limits.withdrawalMax']],
  ['POST', '/accounts', { environment: 'staging', balance: 1.234, name: '' }, ['environment', 'balance', 'name']],
  ['PATCH', `/accounts/${DEFAULT.accountId}`, { status: 'closed' }, ['status']],
  ['PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { pix: { percent: 101 } } }, ['fees.pix.percent']],
  ['PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: -1 } }, ['automation.completeAfterSeconds']],
  ['PATCH', `/accounts/${DEFAULT.accountId}`, { institutionChoice: 'yes' }, ['institutionChoice']],
  ['POST', `/accounts/${DEFAULT.accountId}/credentials`, { permissions: ['EVERYTHING'] }, ['permissions[0]']],
  ['PATCH', `/accounts/${DEFAULT.accountId}/credentials/${DEFAULT.full.id}`, { subAccountAccess: 'on' }, ['subAccountAccess']],
  ['POST', `/accounts/${DEFAULT.accountId}/sub-accounts`, {}, ['reference']],
  ['POST', `/accounts/${DEFAULT.accountId}/sub-accounts`, { reference: 'loja-sul', balance: 1.001 }, ['balance']],
  ['PATCH', `/accounts/${DEFAULT.accountId}/sub-accounts/loja-centro`, { status: 'closed' }, ['status']],
  ['PATCH', `/accounts/${DEFAULT.accountId}/institutions/${DEFAULT.institutionUp}`, { status: 'sideways' }, ['status']],
  ['PATCH', `/accounts/${DEFAULT.accountId}/institutions/${DEFAULT.institutionUp}`, { enabled: 'no' }, ['enabled']],
  ['POST', `/accounts/${DEFAULT.accountId}/adjustments`, {}, ['amount']],
  ['POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 0 }, ['amount']],
  ['POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 1.001 }, ['amount']],
])('%s /_sandbox%s with %j answers 400 naming %j', async (method, path, body, fields) => {
  const h = await startHarness();
  expectValidation(await h.control(method, path, body), fields);
});

test.each([
  ['an invalid sub-account reference', { subAccounts: [{ reference: 'Filial Um' }] }, 400, 'SUB_ACCOUNT_INVALID_REFERENCE'],
  ['a reserved sub-account reference', { subAccounts: [{ reference: 'principal' }] }, 400, 'SUB_ACCOUNT_INVALID_REFERENCE'],
  ['a repeated sub-account reference', { subAccounts: [{ reference: 'filial' }, { reference: 'filial' }] }, 409, 'SUB_ACCOUNT_REFERENCE_TAKEN'],
  ['a repeated project name', { projects: [{ name: 'P' }, { name: 'P' }] }, 409, 'PROJECT_NAME_TAKEN'],
  ['a taken clientId', { credentials: [{ clientId: DEFAULT.full.clientId }] }, 409, 'CLIENT_ID_TAKEN'],
  ['a taken account id', { id: DEFAULT.accountId }, 409, 'ACCOUNT_ID_TAKEN'],
  ['a webhook for an unknown sub-account', { webhooks: [{ url: null, subAccount: 'ghost' }] }, 400, 'VALIDATION_ERROR'],
])('POST /_sandbox/accounts with %s is refused and creates nothing', async (_label, spec, status, code) => {
  const h = await startHarness();
  expectEnvelope(await h.control('POST', '/accounts', spec), status, code);
  const accountsAfter = await h.control('GET', '/accounts');
  expect(accountsAfter.body.items, accountsAfter.text).toHaveLength(1);
});

test('a clientId used in another tenant answers 409 CLIENT_ID_TAKEN and adds nothing', async () => {
  const h = await startHarness();
  const t = await createTenant(h, {});
  expectEnvelope(await h.control('POST', `/accounts/${t.id}/credentials`, { clientId: DEFAULT.pixOnly.clientId }), 409, 'CLIENT_ID_TAKEN');
  expect((await accountState(h, t.id)).credentials).toHaveLength(1);
  // A generated one is fine, and authenticates into that tenant.
  const made = await credentialWith(h, ['ACCOUNT:READ'], false, t.id);
  const res = await h.api('GET', '/v2/account', { token: made.token });
  expect(res.body.account.id, res.text).toBe(t.id);
});
