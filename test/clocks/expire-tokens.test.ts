// Tokens and time travel (sandbox.md 4.6): tokens live 300 s of real time, so a suite tests its refresh path by
// expiring a credential's tokens on demand, on both faces.
import { expect, test } from 'vitest';
import { DEFAULT, startHarness } from '../helpers/harness';
import { apiPix, pixToken } from '../helpers/api-pix';
import { credentialWith, expectEnvelope } from '../foundation/support';
import { newTenant } from './support';

const expire = (h: Awaited<ReturnType<typeof startHarness>>, accountId: string, credentialId: string) =>
  h.control('POST', `/accounts/${accountId}/credentials/${credentialId}/expire-tokens`);

test("expire-tokens refuses the credential's v2 and API Pix tokens issued before it, on both faces, and a new token works", async () => {
  const h = await startHarness();
  const v2 = await h.token();
  const pix = await pixToken(h);
  const other = await credentialWith(h, ['FULL_ACCESS']);
  const res = await expire(h, DEFAULT.accountId, DEFAULT.full.id);
  expect(res.status, res.text).toBe(200);
  expect(res.body.id, res.text).toBe(DEFAULT.full.id);

  const refused = await h.api('GET', '/v2/account', { token: v2 });
  expectEnvelope(refused, 401, 'UNAUTHORIZED');
  expect(refused.body.message, refused.text).toMatch(/expired/);
  const refusedPix = await apiPix(h, 'GET', '/cob?inicio=2026-03-01T00:00:00Z&fim=2026-03-31T00:00:00Z', { token: pix });
  expect(refusedPix.status, refusedPix.text).toBe(401);
  expect(refusedPix.text).toMatch(/expired/);

  expect((await h.api('GET', '/v2/account', { token: await h.token() })).status).toBe(200);
  expect((await apiPix(h, 'GET', '/cob?inicio=2026-03-01T00:00:00Z&fim=2026-03-31T00:00:00Z')).status).toBe(200);
  // Another credential of the same account keeps its tokens.
  expect((await h.api('GET', '/v2/account', { token: other.token })).status).toBe(200);
});

test.each([
  ["another tenant's credential", 'other'],
  ['an unknown credential', 'unknown'],
])('expire-tokens naming %s answers 404 and expires nothing', async (_label, which) => {
  const h = await startHarness();
  const t = await newTenant(h, 'other tenant', { clock: null });
  const credentialId = which === 'other' ? DEFAULT.full.id : '99999999-9999-4999-8999-999999999999';
  const token = await h.token();
  const res = await expire(h, t.id, credentialId);
  expectEnvelope(res, 404, 'CREDENTIAL_NOT_FOUND');
  expect((await h.api('GET', '/v2/account', { token })).status).toBe(200);
  expect((await h.api('GET', '/v2/account', { token: t.token })).status).toBe(200);
});

test('expire-tokens of an unknown account answers 404', async () => {
  const h = await startHarness();
  expectEnvelope(await expire(h, '99999999-9999-4999-8999-999999999999', DEFAULT.full.id), 404, 'ACCOUNT_NOT_FOUND');
  expect((await h.api('GET', '/v2/account', { token: await h.token() })).status).toBe(200);
});
