// Records addressed by id alone (control actions on transactions and withdrawals, balance blocks, webhook endpoints,
// deliveries) are found through the holders index (src/services/holders.ts), which is a hint checked against the
// state: these tests make the hint stale (a reset, a unit undone, a forgotten id) and check every answer stays right.
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { HINTS, holderOf, noteHolder } from '../../src/services/holders';

async function secondTenant(h: Harness) {
  const res = await h.control('POST', '/accounts', { name: 'Second tenant' });
  expect(res.status, res.text).toBe(201);
  const cred = res.body.credentials[0];
  const token = (await h.api('POST', '/v2/auth', { body: { client_id: cred.clientId, client_secret: cred.clientSecret } })).body.access_token as string;
  return { id: res.body.id as string, token };
}

test('a charge of another tenant is paid by id; after a reset the same id is 404, not the old tenant', async () => {
  const h = await startHarness();
  const t = await secondTenant(h);
  const charge = await h.api('POST', '/v2/pix', { token: t.token, body: { amount: 5, description: 'second' } });
  expect(charge.status, charge.text).toBe(201);
  expect((await h.control('POST', `/transactions/${charge.body.id}/pay`)).status).toBe(200);
  expect(holderOf(h.sb.deps.store, 'transaction', charge.body.id)?.id).toBe(t.id);
  await h.control('POST', '/reset');
  const again = await h.control('POST', `/transactions/${charge.body.id}/pay`);
  expect(again.status).toBe(404);
  expect(again.body.details.code).toBe('TRANSACTION_NOT_FOUND');
});

test('a hint that points at the wrong account (a unit undone, a forgotten id) is checked, and the id found by a walk', async () => {
  const h = await startHarness();
  const t = await secondTenant(h);
  const charge = await h.api('POST', '/v2/pix', { token: t.token, body: { amount: 5, description: 'second' } });
  const store = h.sb.deps.store;
  noteHolder(store, 'transaction', charge.body.id, DEFAULT.accountId); // stale: the default account does not hold it
  expect(holderOf(store, 'transaction', charge.body.id)?.id).toBe(t.id);
  noteHolder(store, 'transaction', 'not-a-transaction', DEFAULT.accountId);
  expect(holderOf(store, 'transaction', 'not-a-transaction')).toBeUndefined();
  // Forgotten: more ids noted since than the index keeps.
  for (let i = 0; i < HINTS; i++) noteHolder(store, 'transaction', `other-${i}`, DEFAULT.accountId);
  expect((await h.control('POST', `/transactions/${charge.body.id}/pay`)).status).toBe(200);
});

test('an endpoint, a delivery and a balance block of another tenant are found by id alone', async () => {
  const h = await startHarness();
  const t = await secondTenant(h);
  const endpoint = await h.control('POST', `/accounts/${t.id}/webhooks`, { url: 'http://127.0.0.1:9/hook' });
  expect(endpoint.status, endpoint.text).toBe(201);
  const patched = await h.control('PATCH', `/webhooks/${endpoint.body.id}`, { url: null });
  expect(patched.body.url).toBeNull();
  await h.control('PATCH', `/webhooks/${endpoint.body.id}`, { url: 'http://127.0.0.1:9/hook' });
  const charge = await h.api('POST', '/v2/pix', { token: t.token, body: { amount: 5, description: 'second' } });
  await h.control('POST', `/transactions/${charge.body.id}/pay`);
  const log = await h.control('GET', `/accounts/${t.id}/deliveries`);
  const deliveryId = log.body.items[0].id as string;
  expect((await h.control('GET', `/deliveries/${deliveryId}`)).body.id).toBe(deliveryId);
  const block = await h.control('POST', `/transactions/${charge.body.id}/block`, { amount: 1 });
  expect(block.status, block.text).toBe(200);
  const blockId = (block.body.block?.id ?? block.body.id) as string;
  const rejected = await h.control('POST', `/balance-blocks/${blockId}/reject`, {});
  expect(rejected.status, rejected.text).toBe(200);
  expect((await h.control('DELETE', `/webhooks/${endpoint.body.id}`)).status).toBe(200);
  expect((await h.control('PATCH', `/webhooks/${endpoint.body.id}`, { url: null })).status).toBe(404);
});
