// The lists of sandbox.md 4.8 and the console's charge form route: filters, pages and their bounds, order, the 404s,
// and the delivery log's bound of 10,000 (older finished deliveries dropped, pending ones never).
import { afterEach, expect, test } from 'vitest';
import { DEFAULT, failEachWrite, startHarness, type Harness } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { DELIVERY_LOG_LIMIT } from '../../src/webhooks/dispatcher';
import type { Delivery } from '../../src/domain/types';
import type { UnitHooks } from '../../src/store/unit';

const A = DEFAULT.accountId;
const list = (h: Harness, query = '') => h.control('GET', `/accounts/${A}/transactions${query}`);

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** A world with charges of every state on two wallets, made one after another. */
async function world(h: Harness) {
  const charge = async (description: string, subAccount?: string) => (await h.v2('POST', '/pix', { body: { amount: 10, description }, subAccount })).body.id as string;
  const pending = await charge('pending main');
  const paid = await charge('paid main');
  await h.control('POST', `/transactions/${paid}/pay`);
  const cancelled = await charge('cancelled centro', DEFAULT.subAccounts.centro);
  await h.control('POST', `/transactions/${cancelled}/cancel`);
  const centroPending = await charge('pending centro', DEFAULT.subAccounts.centro);
  return { pending, paid, cancelled, centroPending };
}

test('lists every transaction of every wallet, newest created first, each with its wallet', async () => {
  const h = await startHarness();
  const w = await world(h);
  const res = await list(h, '?limit=100');
  expect(res.status, res.text).toBe(200);
  const ids = res.body.items.map((t: any) => t.id);
  // Same sandbox instant for all: creation order decides, the latest first.
  expect(ids.indexOf(w.centroPending)).toBeLessThan(ids.indexOf(w.cancelled));
  expect(ids.indexOf(w.cancelled)).toBeLessThan(ids.indexOf(w.paid));
  expect(ids.indexOf(w.paid)).toBeLessThan(ids.indexOf(w.pending));
  expect(res.body.items.find((t: any) => t.id === w.centroPending)).toMatchObject({ type: 'payment', status: 'pending', subAccount: 'loja-centro', amount: 10, currency: 'BRL', pixCopyPaste: expect.any(String) });
  expect(res.body.items.find((t: any) => t.id === w.paid)).toMatchObject({ status: 'completed', subAccount: null, e2eId: expect.any(String) });
  expect(res.body).toMatchObject({ total: res.body.items.length, page: 1, limit: 100 });
});

test('a transaction created later but stamped earlier (clock set back) is still listed by its stamp', async () => {
  const h = await startHarness();
  const first = (await h.v2('POST', '/pix', { body: { amount: 1, description: 'at T0' } })).body.id;
  await h.control('PUT', '/clock', { now: '2026-03-09T12:00:00Z' });
  const back = (await h.v2('POST', '/pix', { body: { amount: 1, description: 'a day before' } })).body.id;
  const ids = (await list(h, '?type=payment')).body.items.map((t: any) => t.id);
  expect(ids).toEqual([first, back]);
});

test.each([
  ['type=payment&status=pending', (w: any) => [w.centroPending, w.pending]],
  ['type=fee', (w: any) => ['fee']],
  ['status=cancelled', (w: any) => [w.cancelled]],
  ['subAccount=loja-centro', (w: any) => [w.centroPending, w.cancelled]],
  ['subAccount=loja-centro&status=pending', (w: any) => [w.centroPending]],
  ['subAccount=principal&type=payment', (w: any) => [w.paid, w.pending]],
  ['subAccount=loja-norte', () => []],
])('?%s filters the list', async (query, expected) => {
  const h = await startHarness();
  const w = await world(h);
  const res = await list(h, `?${query}`);
  expect(res.status, res.text).toBe(200);
  const want = expected(w);
  if (want[0] === 'fee') expect(res.body.items.map((t: any) => t.type)).toEqual(['fee']);
  else expect(res.body.items.map((t: any) => t.id)).toEqual(want);
  expect(res.body.total).toBe(res.body.items.length);
});

test('pages: 20 by default, page 2 carries on where page 1 stopped, a page past the end is empty', async () => {
  const h = await startHarness();
  for (let i = 0; i < 23; i++) await h.v2('POST', '/pix', { body: { amount: 1 + i, description: `c${i}` } });
  const all = (await list(h, '?type=payment&limit=100')).body;
  expect(all.total).toBe(23);
  const one = (await list(h, '?type=payment')).body;
  expect(one).toMatchObject({ total: 23, page: 1, limit: 20 });
  expect(one.items).toHaveLength(20);
  const two = (await list(h, '?type=payment&page=2')).body;
  expect([...one.items, ...two.items].map((t: any) => t.id)).toEqual(all.items.map((t: any) => t.id));
  expect((await list(h, '?type=payment&page=9')).body).toMatchObject({ items: [], total: 23, page: 9 });
});

test.each([
  ['limit=0', 'limit', 400],
  ['limit=101', 'limit', 400],
  ['limit=abc', 'limit', 400],
  ['limit=2.5', 'limit', 400],
  ['page=0', 'page', 400],
  ['page=-1', 'page', 400],
  ['type=gift', 'type', 400],
  ['status=paid', 'status', 400],
  ['limit=1', null, 200],
  ['limit=100', null, 200],
  ['page=1&limit=20', null, 200],
])('?%s: the bounds of the paging and filters (field %s, %i)', async (query, field, status) => {
  const h = await startHarness();
  const res = await list(h, `?${query}`);
  expect(res.status, res.text).toBe(status);
  if (field) {
    expect(res.body.details.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields.map((f: any) => f.field)).toEqual([field]);
  }
});

test('an unknown account is a 404 on each list, and an unknown sub-account names the ones there are', async () => {
  const h = await startHarness();
  for (const what of ['transactions', 'events', 'deliveries']) {
    const res = await h.control('GET', `/accounts/nope/${what}`);
    expect(res.status, `${what}: ${res.text}`).toBe(404);
    expect(res.body.message).toContain('GET /_sandbox/accounts');
  }
  const res = await list(h, '?subAccount=loja-sul');
  expect(res.status).toBe(404);
  expect(res.body.message).toContain('principal, loja-centro, loja-norte, loja-fechada');
});

test('events and deliveries answer {items, total, page, limit}, oldest first unless order=newest', async () => {
  receiver = await startReceiver();
  const h = await startHarness({ webhookUrl: receiver.url });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = (await h.v2('POST', '/pix', { body: { amount: 10, description: `e${i}` } })).body.id;
    await h.control('POST', `/transactions/${id}/pay`);
    ids.push(id);
  }
  await h.sb.settle();
  const events = await h.control('GET', `/accounts/${A}/events?limit=2`);
  expect(events.body).toMatchObject({ total: 3, page: 1, limit: 2 });
  expect(events.body.items.map((e: any) => e.eventId)).toEqual(ids.slice(0, 2));
  const newest = await h.control('GET', `/accounts/${A}/events?order=newest&limit=1&page=2`);
  expect(newest.body.items.map((e: any) => e.eventId)).toEqual([ids[1]]);

  const deliveries = await h.control('GET', `/accounts/${A}/deliveries?order=newest&limit=2`);
  expect(deliveries.body).toMatchObject({ total: 3, page: 1, limit: 2 });
  expect(deliveries.body.items.map((d: any) => d.eventId)).toEqual([ids[2], ids[1]]);
  expect((await h.control('GET', `/accounts/${A}/deliveries?limit=101`)).status).toBe(400);
  expect((await h.control('GET', `/accounts/${A}/events?order=latest`)).status).toBe(400);
});

test('each attempt shows the request it made (headers, exact body) and the first 2 KB of the answer', async () => {
  receiver = await startReceiver();
  const h = await startHarness({ webhookUrl: receiver.url });
  const id = (await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } })).body.id;
  await h.control('POST', `/transactions/${id}/pay`);
  const got = await receiver.next();
  await h.sb.settle();
  const [d] = (await h.control('GET', `/accounts/${A}/deliveries`)).body.items;
  const [attempt] = d.attempts;
  expect(attempt.request.body).toBe(got.raw.toString('utf8'));
  expect(attempt.request.headers).toMatchObject({ 'X-Service-Webhook-ID': d.id, 'X-Service-Event': 'payment_completed', 'X-Service-Signature': got.headers['x-service-signature'] });
  expect(attempt.responseBody).toBe('ok');
  expect((await h.control('GET', `/deliveries/${d.id}`)).body.attempts[0].request.body).toBe(got.raw.toString('utf8'));
});

/** A delivery of an old log, written straight into the state. */
const old = (i: number, state: Delivery['state']): Delivery => ({ id: `old-${i}`, eventRecordId: 'gone', event: 'payment_completed', eventId: `e${i}`, subAccount: null, endpointId: DEFAULT.webhookId, url: null, state, createdAt: 0, nextAttemptAt: null, attempts: [] });

test(`the delivery log keeps the last ${DELIVERY_LOG_LIMIT} deliveries of an account, dropping the oldest finished ones, never pending ones`, async () => {
  receiver = await startReceiver();
  const h = await startHarness({ webhookUrl: receiver.url });
  const account = h.sb.deps.store.account(A);
  // An old log, written straight into the state: one pending delivery first, then finished ones up to the limit.
  account.deliveries['old-0'] = old(0, 'pending');
  for (let i = 1; i < DELIVERY_LOG_LIMIT; i++) account.deliveries[`old-${i}`] = old(i, i % 2 ? 'succeeded' : 'failed');
  expect(Object.keys(account.deliveries)).toHaveLength(DELIVERY_LOG_LIMIT);

  for (let i = 0; i < 2; i++) {
    const id = (await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } })).body.id;
    await h.control('POST', `/transactions/${id}/pay`);
  }
  await h.sb.settle();
  const res = await h.control('GET', `/accounts/${A}/deliveries?limit=3`);
  expect(res.body.total).toBe(DELIVERY_LOG_LIMIT);
  expect(res.body.items.map((d: any) => d.id)).toEqual(['old-0', 'old-3', 'old-4']); // old-1 and old-2 made room
  const newest = await h.control('GET', `/accounts/${A}/deliveries?order=newest&limit=2`);
  expect(newest.body.items.map((d: any) => d.state)).toEqual(['succeeded', 'succeeded']);
});

test('a delivery undone with its request does not count against the log: nothing is dropped to make room for it', async () => {
  receiver = await startReceiver();
  const hooks: UnitHooks = { failWrite: null };
  const h = await startHarness({ webhookUrl: receiver.url, testHooks: hooks });
  const account = h.sb.deps.store.account(A);
  for (let i = 1; i < DELIVERY_LOG_LIMIT; i++) account.deliveries[`old-${i}`] = old(i, 'succeeded'); // one place left
  const id = (await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } })).body.id;
  // The pay fails at each of its writes in turn (its delivery queued, then undone, in the later ones), then succeeds.
  const undone = await failEachWrite(hooks, () => h.control('POST', `/transactions/${id}/pay`));
  expect(undone).toBeGreaterThan(5);
  await h.sb.settle();
  const res = await h.control('GET', `/accounts/${A}/deliveries?limit=1`);
  expect(res.body.total).toBe(DELIVERY_LOG_LIMIT);
  expect(res.body.items.map((d: any) => d.id)).toEqual(['old-1']);
});

test('POST /_sandbox/accounts/{id}/charges creates a charge for a sub-account and names its checkout page', async () => {
  const h = await startHarness();
  const res = await h.control('POST', `/accounts/${A}/charges`, { amount: 12.5, description: 'console', subAccount: 'loja-norte', customer: { name: 'Ana' } });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({ status: 'pending', amount: 12.5, subAccount: 'loja-norte', checkoutUrl: `/pix/qr/${res.body.id}`, pixCopyPaste: expect.any(String) });
  const seen = await h.v2('GET', `/transactions/${res.body.id}`, { subAccount: 'loja-norte' });
  expect(seen.status, seen.text).toBe(200);
  expect((await h.control('POST', `/accounts/${A}/charges`, { amount: 5, description: 'main' })).body.subAccount).toBeNull();
});

test.each([
  [{ amount: 5, description: 'x', subAccount: 'loja-fechada' }, 403, 'SUB_ACCOUNT_SUSPENDED'],
  [{ amount: 5, description: 'x', subAccount: 'loja-sul' }, 404, 'SUB_ACCOUNT_NOT_FOUND'],
  [{ amount: 0.5, description: 'x' }, 400, 'VALIDATION_ERROR'],
  [{ description: 'x' }, 400, 'VALIDATION_ERROR'],
])('POST /_sandbox/accounts/{id}/charges %j answers %i %s and creates nothing', async (body, status, code) => {
  const h = await startHarness();
  const before = (await list(h)).body.total;
  const res = await h.control('POST', `/accounts/${A}/charges`, body);
  expect(res.status, res.text).toBe(status);
  expect(res.body.details.code).toBe(code);
  expect((await list(h)).body.total).toBe(before);
});
