// Permission matrix (service-api.md 4.6-4.8, 4.10, 5.3; sandbox.md 2.1, 2.2, 2.3): every v2 route of the foundation
// against every permission a credential can hold, each credential made with exactly that one permission.
import { expect, test } from 'vitest';
import { PERMISSIONS } from '../../src/domain/permissions';
import { DEFAULT, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { credentialWith, expectEnvelope, expectStatus } from './support';

type Route = 'GET /account' | 'GET /projects' | 'GET /projects/{id}' | 'POST /projects' | 'GET /sub-accounts' | 'POST /sub-accounts';

const CALL: Record<Route, (h: Harness, token: string) => Promise<ApiResponse>> = {
  'GET /account': (h, token) => h.api('GET', '/v2/account', { token }),
  'GET /projects': (h, token) => h.api('GET', '/v2/projects', { token }),
  'GET /projects/{id}': (h, token) => h.api('GET', `/v2/projects/${DEFAULT.projectId}`, { token }),
  'POST /projects': (h, token) => h.api('POST', '/v2/projects', { token, body: { name: 'Matrix project', color: '#00AA55' } }),
  'GET /sub-accounts': (h, token) => h.api('GET', '/v2/sub-accounts', { token }),
  'POST /sub-accounts': (h, token) => h.api('POST', '/v2/sub-accounts', { token, body: { reference: 'loja-matriz', name: 'Loja Matriz' } }),
};

const SUCCESS: Record<Route, number> = {
  'GET /account': 200,
  'GET /projects': 200,
  'GET /projects/{id}': 200,
  'POST /projects': 201,
  'GET /sub-accounts': 200,
  'POST /sub-accounts': 201,
};

const ROUTES = Object.keys(CALL) as Route[];
const Y = true;
const n = false;

// prettier-ignore
const MATRIX: Record<string, [boolean, boolean, boolean, boolean, boolean, boolean]> = {
  //                    GET /account  GET /projects  GET /projects/{id}  POST /projects  GET /sub-accounts  POST /sub-accounts
  'PIX:WRITE':          [n,           n,             n,                  n,              n,                 n],
  'PROJECT:READ':       [n,           Y,             Y,                  n,              n,                 n],
  'PROJECT:WRITE':      [n,           Y,             Y,                  Y,              n,                 n],
  'REFUND:WRITE':       [n,           n,             n,                  n,              n,                 n],
  'TRANSACTION:READ':   [n,           n,             n,                  n,              n,                 n],
  'ACCOUNT:READ':       [Y,           n,             n,                  n,              n,                 n],
  'BALANCE_BLOCK:READ': [n,           n,             n,                  n,              n,                 n],
  'SUBACCOUNT:READ':    [n,           n,             n,                  n,              Y,                 n],
  'SUBACCOUNT:WRITE':   [n,           n,             n,                  n,              n,                 Y],
  'WITHDRAWAL:WRITE':   [n,           n,             n,                  n,              n,                 n],
  'CUSTOMER:READ':      [n,           n,             n,                  n,              n,                 n],
  'CUSTOMER:WRITE':     [n,           n,             n,                  n,              n,                 n],
  'CHARGE:READ':        [n,           n,             n,                  n,              n,                 n],
  'CHARGE:WRITE':       [n,           n,             n,                  n,              n,                 n],
  'METRICS:READ':       [n,           n,             n,                  n,              n,                 n],
  'FULL_ACCESS':        [Y,           Y,             Y,                  Y,              Y,                 Y],
};

const CASES = Object.entries(MATRIX).flatMap(([permission, row]) =>
  ROUTES.map((route, i) => ({
    route,
    permission,
    allowed: row[i]!,
    outcome: row[i] ? `answers ${SUCCESS[route]}` : 'answers 403 PERMISSION_DENIED',
  })),
);

test('the matrix has one row for every permission in src/domain/permissions.ts', () => {
  expect(Object.keys(MATRIX).sort()).toEqual([...PERMISSIONS].sort());
});

test.each(CASES.map((c) => [c.route, c.outcome, c.permission, c] as const))('%s %s for a credential with only %s', async (_r, _o, _p, { route, permission, allowed }) => {
  const h = await startHarness();
  const { token } = await credentialWith(h, [permission]);
  const res = await CALL[route](h, token);
  if (allowed) expect(res.status, res.text).toBe(SUCCESS[route]);
  else {
    expectEnvelope(res, 403, 'PERMISSION_DENIED');
    expect(res.body.message, res.text).toMatch(/FULL_ACCESS/);
  }
});

test.each(ROUTES)('%s is refused with 403 PERMISSION_DENIED for a credential with no permission at all', async (route) => {
  const h = await startHarness();
  const { token } = await credentialWith(h, []);
  expectEnvelope(await CALL[route](h, token), 403, 'PERMISSION_DENIED');
});

test('a refused call changes nothing: POST /projects without PROJECT:WRITE creates no project', async () => {
  const h = await startHarness();
  const { token } = await credentialWith(h, ['PROJECT:READ']);
  expectEnvelope(await CALL['POST /projects'](h, token), 403, 'PERMISSION_DENIED');
  const list = await h.v2('GET', '/projects');
  expect(list.body.total, list.text).toBe(1);
});

test('changing a credential permissions applies to a token already issued', async () => {
  const h = await startHarness();
  const cred = await credentialWith(h, ['ACCOUNT:READ']);
  await expectStatus(CALL['GET /account'](h, cred.token), 200);
  expectEnvelope(await CALL['GET /projects'](h, cred.token), 403, 'PERMISSION_DENIED');

  const patch = await h.control('PATCH', `/accounts/${DEFAULT.accountId}/credentials/${cred.id}`, { permissions: ['PROJECT:READ'] });
  expect(patch.status, patch.text).toBe(200);
  expect(patch.body.permissions, patch.text).toEqual(['PROJECT:READ']);

  const projects = await CALL['GET /projects'](h, cred.token);
  expect(projects.status, projects.text).toBe(200);
  expectEnvelope(await CALL['GET /account'](h, cred.token), 403, 'PERMISSION_DENIED');
});

test('turning sub-account access on applies to a token already issued', async () => {
  const h = await startHarness();
  const cred = await credentialWith(h, ['FULL_ACCESS'], false);
  const headers = { 'x-sub-account': DEFAULT.subAccounts.centro };
  expectEnvelope(await h.api('GET', '/v2/account', { token: cred.token, headers }), 403, 'SUB_ACCOUNT_FORBIDDEN');

  const patch = await h.control('PATCH', `/accounts/${DEFAULT.accountId}/credentials/${cred.id}`, { subAccountAccess: true });
  expect(patch.status, patch.text).toBe(200);
  const res = await h.api('GET', '/v2/account', { token: cred.token, headers });
  expect(res.status, res.text).toBe(200);
  expect(res.body.account.id, res.text).toBe('22222222-2222-4222-8222-222222222201');
});

test('the fixtures PIX:WRITE credential cannot read the account', async () => {
  const h = await startHarness();
  const token = await h.token(DEFAULT.pixOnly.clientId, DEFAULT.pixOnly.clientSecret);
  expectEnvelope(await h.api('GET', '/v2/account', { token }), 403, 'PERMISSION_DENIED');
});
