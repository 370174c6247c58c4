// X-Sub-Account (service-api.md 5.5, 7; sandbox.md 2.1, 2.2): which wallet a call acts on, and every way the header
// can be refused.
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { credentialWith, expectEnvelope } from './support';

const MAIN = DEFAULT.accountId;
const CENTRO = '22222222-2222-4222-8222-222222222201';
const NORTE = '22222222-2222-4222-8222-222222222202';

type Who = 'full with access' | 'full without access';

async function tokenFor(h: Harness, who: Who): Promise<string> {
  if (who === 'full with access') return h.token();
  return (await credentialWith(h, ['FULL_ACCESS'], false)).token;
}

// prettier-ignore
const CASES: { label: string; who: Who; header: string | undefined; status: number; code?: string; walletId?: string }[] = [
  { label: 'omitted',                               who: 'full with access',    header: undefined,                      status: 200, walletId: MAIN },
  { label: '"principal"',                           who: 'full with access',    header: 'principal',                    status: 200, walletId: MAIN },
  { label: 'an approved sub-account',               who: 'full with access',    header: 'loja-centro',                  status: 200, walletId: CENTRO },
  { label: 'another approved sub-account',          who: 'full with access',    header: 'loja-norte',                   status: 200, walletId: NORTE },
  { label: 'omitted, credential without access',    who: 'full without access', header: undefined,                      status: 200, walletId: MAIN },
  { label: '"principal", credential without access', who: 'full without access', header: 'principal',                  status: 200, walletId: MAIN },
  { label: 'a sub-account, credential without access (even FULL_ACCESS)', who: 'full without access', header: 'loja-centro', status: 403, code: 'SUB_ACCOUNT_FORBIDDEN' },
  { label: 'an unknown reference',                  who: 'full with access',    header: 'loja-inexistente',             status: 404, code: 'SUB_ACCOUNT_NOT_FOUND' },
  { label: 'a suspended sub-account',               who: 'full with access',    header: 'loja-fechada',                 status: 403, code: 'SUB_ACCOUNT_SUSPENDED' },
  { label: 'a reference with uppercase and spaces', who: 'full with access',    header: 'Loja Centro',                  status: 400, code: 'VALIDATION_ERROR' },
  { label: 'a one-character reference',             who: 'full with access',    header: 'a',                            status: 400, code: 'VALIDATION_ERROR' },
  { label: 'a 33-character reference',              who: 'full with access',    header: 'a'.repeat(33),                 status: 400, code: 'VALIDATION_ERROR' },
  { label: 'a reference starting with a dash',      who: 'full with access',    header: '-loja',                        status: 400, code: 'VALIDATION_ERROR' },
];

test.each(CASES.map((c) => [c.label, c.status, c] as const))('GET /v2/account with X-Sub-Account %s answers %i', async (_label, _status, { who, header, status, code, walletId }) => {
  const h = await startHarness();
  const token = await tokenFor(h, who);
  const res = await h.api('GET', '/v2/account', { token, headers: header === undefined ? {} : { 'x-sub-account': header } });
  if (code) {
    expectEnvelope(res, status, code);
    if (code === 'VALIDATION_ERROR') expect(res.body.details.fields.map((f: { field: string }) => f.field), res.text).toEqual(['X-Sub-Account']);
    if (code === 'SUB_ACCOUNT_NOT_FOUND') expect(res.text).toContain(header);
  } else {
    expect(res.status, res.text).toBe(status);
    expect(res.body.account.id, res.text).toBe(walletId);
  }
});

test('the header is checked on the project routes too', async () => {
  const h = await startHarness();
  expectEnvelope(await h.v2('GET', '/projects', { subAccount: 'loja-fechada' }), 403, 'SUB_ACCOUNT_SUSPENDED');
  expectEnvelope(await h.v2('POST', '/projects', { subAccount: 'loja-inexistente', body: { name: 'X', color: '#000000' } }), 404, 'SUB_ACCOUNT_NOT_FOUND');
  const principal = await h.v2('GET', `/projects/${DEFAULT.projectId}`, { subAccount: 'principal' });
  expect(principal.status, principal.text).toBe(200);
  const list = await h.v2('GET', '/projects');
  expect(list.body.total, list.text).toBe(1);
});

const SUB_ACCOUNT_ROUTES = [
  ['GET', '/sub-accounts', undefined],
  ['POST', '/sub-accounts', { reference: 'loja-sul', name: 'Loja Sul' }],
] as const;
const HEADER_VALUES = ['principal', 'loja-centro', 'loja-fechada', 'loja-inexistente', 'Not Valid'];

test.each(SUB_ACCOUNT_ROUTES.flatMap(([method, path, body]) => HEADER_VALUES.map((value) => [method, path, value, body] as const)))(
  '%s /v2%s refuses X-Sub-Account %j with 400 SUB_ACCOUNT_HEADER_NOT_ALLOWED',
  async (method, path, value, body) => {
    const h = await startHarness();
    const res = await h.v2(method, path, { subAccount: value, ...(body ? { body } : {}) });
    expectEnvelope(res, 400, 'SUB_ACCOUNT_HEADER_NOT_ALLOWED');
    const list = await h.v2('GET', '/sub-accounts');
    expect(list.body.data, list.text).toHaveLength(3);
  },
);
