// /v2/sub-accounts (service-api.md 2.11, 4.10; sandbox.md 2.1, 2.2, 3): the fixtures' three, creation, references.
import { expect, test } from 'vitest';
import { startHarness, T0 } from '../helpers/harness';
import { accountState, at, expectEnvelope, expectValidation, UUID, expectStatus } from './support';

test('GET /v2/sub-accounts lists the three sub-accounts of the fixtures', async () => {
  const h = await startHarness();
  const res = await h.v2('GET', '/sub-accounts');
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toEqual({
    data: [
      { id: '22222222-2222-4222-8222-222222222201', reference: 'loja-centro', name: 'Loja Centro', status: 'approved', createdAt: T0 },
      { id: '22222222-2222-4222-8222-222222222202', reference: 'loja-norte', name: 'Loja Norte', status: 'approved', createdAt: T0 },
      { id: '22222222-2222-4222-8222-222222222203', reference: 'loja-fechada', name: 'Loja Fechada', status: 'suspended', createdAt: T0 },
    ],
  });
});

test('POST /v2/sub-accounts creates an approved sub-account with an empty wallet, usable with X-Sub-Account', async () => {
  const h = await startHarness();
  await expectStatus(h.advance(30), 200);
  const res = await h.v2('POST', '/sub-accounts', { body: { reference: 'loja-sul', name: 'Loja Sul' } });
  expect(res.status, res.text).toBe(201);
  expect(res.body, res.text).toEqual({ id: expect.stringMatching(UUID), reference: 'loja-sul', name: 'Loja Sul', status: 'approved', createdAt: at(30) });

  const list = await h.v2('GET', '/sub-accounts');
  expect(list.body.data.map((s: { reference: string }) => s.reference), list.text).toEqual(['loja-centro', 'loja-norte', 'loja-fechada', 'loja-sul']);

  const account = await h.v2('GET', '/account', { subAccount: 'loja-sul' });
  expect(account.status, account.text).toBe(200);
  expect(account.body.account, account.text).toEqual({ id: res.body.id, status: 'approved' });
  for (const bucket of ['available', 'promotional', 'held', 'total'])
    expect(account.body.balance[bucket], account.text).toEqual({ amount: 0, amountFormatted: 0 });

  const state = await accountState(h);
  expect(state.balances.find((b: { subAccount: string }) => b.subAccount === 'loja-sul'), JSON.stringify(state.balances)).toMatchObject({
    walletId: res.body.id,
    available: { amount: 0, amountFormatted: 0 },
  });
  // The main wallet is untouched.
  const mainAccount = await h.v2('GET', '/account');
  expect(mainAccount.body.balance.available.amount, mainAccount.text).toBe(100000);
});

test('a new sub-account can hold its own projects at once', async () => {
  const h = await startHarness();
  await expectStatus(h.v2('POST', '/sub-accounts', { body: { reference: 'loja-oeste', name: 'Loja Oeste' } }), 201);
  const res = await h.v2('POST', '/projects', { subAccount: 'loja-oeste', body: { name: 'Oeste', color: '#AA0000' } });
  expect(res.status, res.text).toBe(201);
  const oesteProjects = await h.v2('GET', '/projects', { subAccount: 'loja-oeste' });
  expect(oesteProjects.body.total, oesteProjects.text).toBe(1);
});

test.each(['ab', '0-9', 'a_b-c', `a${'b'.repeat(31)}`, '9lojas'])('reference %j is accepted', async (reference) => {
  const h = await startHarness();
  const res = await h.v2('POST', '/sub-accounts', { body: { reference, name: 'Ok' } });
  expect(res.status, res.text).toBe(201);
  expect(res.body.reference, res.text).toBe(reference);
});

test.each(['principal', 'a', `a${'b'.repeat(32)}`, 'Loja', 'loja sul', 'loja.sul', '-loja', '_loja', 'lojá', ''])(
  'reference %j answers 400 SUB_ACCOUNT_INVALID_REFERENCE',
  async (reference) => {
    const h = await startHarness();
    const res = await h.v2('POST', '/sub-accounts', { body: { reference, name: 'Inválida' } });
    expectEnvelope(res, 400, 'SUB_ACCOUNT_INVALID_REFERENCE');
    const subAccounts = await h.v2('GET', '/sub-accounts');
    expect(subAccounts.body.data, subAccounts.text).toHaveLength(3);
  },
);

test.each(['loja-centro', 'loja-fechada'])('reference %j, already used, answers 409 SUB_ACCOUNT_REFERENCE_TAKEN', async (reference) => {
  const h = await startHarness();
  const res = await h.v2('POST', '/sub-accounts', { body: { reference, name: 'Outra' } });
  expectEnvelope(res, 409, 'SUB_ACCOUNT_REFERENCE_TAKEN');
  expect(res.body.details, res.text).toMatchObject({ resource: 'sub-account', field: 'reference', value: reference });
});

test('a reference created through the v2 API is taken for the next request too', async () => {
  const h = await startHarness();
  await expectStatus(h.v2('POST', '/sub-accounts', { body: { reference: 'loja-leste', name: 'Leste' } }), 201);
  expectEnvelope(await h.v2('POST', '/sub-accounts', { body: { reference: 'loja-leste', name: 'Leste 2' } }), 409, 'SUB_ACCOUNT_REFERENCE_TAKEN');
});

test.each([
  ['name missing', { reference: 'loja-sul' }, ['name']],
  ['name blank', { reference: 'loja-sul', name: '  ' }, ['name']],
  ['reference missing', { name: 'Loja Sul' }, ['reference']],
  ['reference not a string', { reference: 7, name: 'Loja Sul' }, ['reference']],
  ['both missing', {}, ['reference', 'name']],
])('POST /v2/sub-accounts answers 400 VALIDATION_ERROR when %s', async (_label, body, fields) => {
  const h = await startHarness();
  expectValidation(await h.v2('POST', '/sub-accounts', { body }), fields);
});

test('the sub-accounts of one tenant are not listed for another', async () => {
  const h = await startHarness();
  const tenant = await h.control('POST', '/accounts', { subAccounts: [{ reference: 'filial', name: 'Filial' }] });
  expect(tenant.status, tenant.text).toBe(201);
  const cred = tenant.body.credentials[0];
  const token = await h.token(cred.clientId, cred.clientSecret);
  const res = await h.api('GET', '/v2/sub-accounts', { token });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.map((s: { reference: string }) => s.reference), res.text).toEqual(['filial']);
  const defaultSubAccounts = await h.v2('GET', '/sub-accounts');
  expect(defaultSubAccounts.body.data.map((s: { reference: string }) => s.reference), defaultSubAccounts.text).not.toContain('filial');
});
