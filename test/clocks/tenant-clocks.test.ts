// A clock per tenant (sandbox.md 4.6): one tenant's jump runs its own charges' expiries and its own deliveries'
// retries, and moves nobody else's work, token or clock.
import { expect, onTestFinished, test } from 'vitest';
import { startHarness, T0 } from '../helpers/harness';
import { at, expectEnvelope, expectValidation } from '../foundation/support';
import { advanceTenant, chargeOf, clockOf, newTenant } from './support';

/** A sandbox whose deliveries all get 500 (through the fetch option: no receiver, no sockets). */
async function failingHooks() {
  const posted: { url: string; at: string }[] = [];
  const h = await startHarness({
    fetch: async (url, init) => {
      posted.push({ url: String(url), at: String((init?.headers as Record<string, string>)['X-Service-Timestamp'] ?? '') });
      return new Response('down', { status: 500 });
    },
  });
  onTestFinished(() => h.sb.close());
  return { h, posted };
}

test.each([
  ['its own clock', {}],
  ['the sandbox clock', null],
])('a tenant advanced by a day expires its charges and retries its deliveries; the other, on %s, keeps its pending charge, its delivery and its token', async (_label, otherClock) => {
  const { h } = await failingHooks();
  const a = await newTenant(h, 'A', { hook: 'http://a.test/hook' });
  const b = await newTenant(h, 'B', { hook: 'http://b.test/hook', clock: otherClock });
  const pendingA = await chargeOf(h, a, 3600);
  const pendingB = await chargeOf(h, b, 3600);
  for (const t of [a, b]) {
    const paid = await chargeOf(h, t, 3600, 'paid');
    expect((await h.control('POST', `/transactions/${paid}/pay`)).status).toBe(200);
  }
  await h.sb.settle(); // each delivery's first attempt (a 500): retries wait for their clock

  const moved = await advanceTenant(h, a, 86_400);
  expect(moved.body, moved.text).toEqual({ now: at(86_400), frozen: true, own: true });

  const expired = await h.api('GET', `/v2/transactions/${pendingA}`, { token: a.token });
  expect(expired.body, expired.text).toMatchObject({ status: 'cancelled', updatedAt: at(3600) });
  const [deliveryA] = (await h.control('GET', `/accounts/${a.id}/deliveries`)).body.items;
  // The default schedule (5, 30, 120, 600, 3600 s), each wait from the attempt before, on A's clock.
  expect(deliveryA.attempts.map((x: { at: string }) => x.at), JSON.stringify(deliveryA)).toEqual([T0, at(5), at(35), at(155), at(755), at(4355)]);
  expect(deliveryA.state).toBe('failed');

  const still = await h.api('GET', `/v2/transactions/${pendingB}`, { token: b.token });
  expect(still.status, still.text).toBe(200); // B's token, issued before A's jump, still works
  expect(still.body, still.text).toMatchObject({ status: 'pending', updatedAt: T0 });
  const [deliveryB] = (await h.control('GET', `/accounts/${b.id}/deliveries`)).body.items;
  expect(deliveryB, JSON.stringify(deliveryB)).toMatchObject({ state: 'pending', nextAttemptAt: at(5), attempts: [{ at: T0, statusCode: 500 }] });
  expect(await clockOf(h, b)).toEqual({ now: T0, frozen: true, own: otherClock !== null });
  expect((await h.control('GET', '/clock')).body).toEqual({ now: T0, frozen: true });
  // A's token works on A's side too: tokens live 300 s of real time, whatever a clock does.
  expect((await h.api('GET', '/v2/account', { token: a.token })).status).toBe(200);
});

test("the sandbox-wide advance moves the tenants on the sandbox clock and none with a clock of its own", async () => {
  const { h } = await failingHooks();
  const own = await newTenant(h, 'own');
  const shared = await newTenant(h, 'shared', { clock: null });
  const ownCharge = await chargeOf(h, own, 600);
  const sharedCharge = await chargeOf(h, shared, 600);
  expect((await h.advance(3600)).status).toBe(200);
  expect((await h.api('GET', `/v2/transactions/${ownCharge}`, { token: own.token })).body.status).toBe('pending');
  expect((await h.api('GET', `/v2/transactions/${sharedCharge}`, { token: shared.token })).body).toMatchObject({ status: 'cancelled', updatedAt: at(600) });
  expect(await clockOf(h, shared)).toEqual({ now: at(3600), frozen: true, own: false });
  expect(await clockOf(h, own)).toEqual({ now: T0, frozen: true, own: true });
});

test('what a tenant makes is stamped on its clock: createdAt, events and the error envelope of its calls', async () => {
  const { h } = await failingHooks();
  const t = await newTenant(h, 'later', { clock: { now: '2030-01-02T03:04:05Z', frozen: true } });
  expect(await clockOf(h, t)).toEqual({ now: '2030-01-02T03:04:05.000Z', frozen: true, own: true });
  const id = await chargeOf(h, t, 300);
  const res = await h.api('GET', `/v2/transactions/${id}`, { token: t.token });
  expect(res.body.createdAt, res.text).toBe('2030-01-02T03:04:05.000Z');
  const refused = await h.api('POST', '/v2/pix', { token: t.token, body: { amount: -1, description: 'x' } });
  expect(refused.status, refused.text).toBe(400);
  expect(refused.body.timestamp, refused.text).toBe('2030-01-02T03:04:05.000Z');
  await advanceTenant(h, t, 301);
  const events = (await h.control('GET', `/accounts/${t.id}/events`)).body.items;
  expect(events.map((e: { event: string; createdAt: string }) => [e.event, e.createdAt])).toContainEqual(['payment_expired', '2030-01-02T03:09:05.000Z']);
});

test('PUT on a tenant clock gives the tenant a clock of its own where the sandbox clock stands, and shows it in the account', async () => {
  const { h } = await failingHooks();
  const t = await newTenant(h, 'shared', { clock: null });
  const id = await chargeOf(h, t, 600);
  expect((await h.control('GET', `/accounts/${t.id}`)).body.clock).toEqual({ now: T0, frozen: true, own: false });
  const set = await h.control('PUT', `/accounts/${t.id}/clock`, { now: at(900) });
  expect(set.body, set.text).toEqual({ now: at(900), frozen: true, own: true });
  expect((await h.api('GET', `/v2/transactions/${id}`, { token: t.token })).body).toMatchObject({ status: 'cancelled', updatedAt: at(600) });
  expect((await h.control('GET', `/accounts/${t.id}`)).body.clock).toEqual({ now: at(900), frozen: true, own: true });
  expect((await h.control('GET', '/clock')).body).toEqual({ now: T0, frozen: true });
  const running = await h.control('PUT', `/accounts/${t.id}/clock`, { frozen: false });
  expect(running.body.frozen, running.text).toBe(false);
});

test.each([
  ['a tenant with a clock of its own', {}, at(60)],
  ['a tenant on the sandbox clock (its first move)', null, T0],
])('a clock moved backwards answers 400 naming now, and nothing moves: %s', async (_label, clock, stands) => {
  const { h } = await failingHooks();
  const t = await newTenant(h, 'back', { clock });
  if (clock) expect((await advanceTenant(h, t, 60)).status).toBe(200);
  const id = await chargeOf(h, t, 600);
  for (const now of [at(-1), '2026-03-01T00:00:00Z', Date.parse(T0) - 86_400_000]) {
    const refused = await h.control('PUT', `/accounts/${t.id}/clock`, { now });
    expectValidation(refused, ['now']);
    expect(refused.body.message).toContain('only moves forward');
  }
  expect(await clockOf(h, t)).toEqual({ now: stands, frozen: true, own: clock !== null });
  expect((await h.api('GET', `/v2/transactions/${id}`, { token: t.token })).body.status).toBe('pending');
});

test('DELETE on a tenant clock puts the tenant back on the sandbox clock, running what fell due for it there; refused 409 while the sandbox clock is behind', async () => {
  const { h } = await failingHooks();
  const t = await newTenant(h, 'returning');
  await advanceTenant(h, t, 60);
  const id = await chargeOf(h, t, 600); // expires at T0+660 s
  const behind = await h.control('DELETE', `/accounts/${t.id}/clock`);
  expectEnvelope(behind, 409, 'CLOCK_BEHIND');
  expect(behind.body.message).toContain('advance the sandbox clock past it');
  expect(await clockOf(h, t)).toEqual({ now: at(60), frozen: true, own: true });

  expect((await h.control('POST', '/clock/advance', { seconds: 3600 })).status).toBe(200); // moves nobody with a clock of its own
  expect((await h.api('GET', `/v2/transactions/${id}`, { token: t.token })).body.status).toBe('pending');
  const back = await h.control('DELETE', `/accounts/${t.id}/clock`);
  expect(back.body, back.text).toEqual({ now: at(3600), frozen: true, own: false });
  expect((await h.api('GET', `/v2/transactions/${id}`, { token: t.token })).body).toMatchObject({ status: 'cancelled', updatedAt: at(660) });
  // From now on the sandbox clock moves it, and DELETE again is no change.
  const later = await chargeOf(h, t, 300);
  await h.control('POST', '/clock/advance', { seconds: 301 });
  expect((await h.api('GET', `/v2/transactions/${later}`, { token: t.token })).body.status).toBe('cancelled');
  expect((await h.control('DELETE', `/accounts/${t.id}/clock`)).body).toEqual({ now: at(3901), frozen: true, own: false });
  expectEnvelope(await h.control('DELETE', '/accounts/99999999-9999-4999-8999-999999999999/clock'), 404, 'ACCOUNT_NOT_FOUND', at(3901));
});

test('a tenant clock survives a restart with a data file', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'tenant-clock-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const dataFile = join(dir, 'state.json');
  const first = await startHarness({ dataFile });
  const t = await newTenant(first, 'kept');
  const id = await chargeOf(first, t, 600);
  await advanceTenant(first, t, 300);
  await first.sb.close();
  const second = await startHarness({ dataFile });
  onTestFinished(() => second.sb.close());
  expect(await clockOf(second, t)).toEqual({ now: at(300), frozen: true, own: true });
  await advanceTenant(second, t, 300);
  const res = await second.api('GET', `/v2/transactions/${id}`, { token: t.token }); // the token survives the restart too
  expect(res.body, res.text).toMatchObject({ status: 'cancelled', updatedAt: at(600) });
  expect((await second.control('GET', '/clock')).body.now).toBe(T0);
});

test.each([
  ['now a word', 'PUT', '/clock', { now: 'yesterday' }, ['now']],
  ['now past year 9999', 'PUT', '/clock', { now: Date.parse('9999-12-31T23:59:59.999Z') + 1 }, ['now']],
  ['frozen as text', 'PUT', '/clock', { frozen: 'yes' }, ['frozen']],
  ['no seconds', 'POST', '/clock/advance', {}, ['seconds']],
  ['negative seconds (backwards)', 'POST', '/clock/advance', { seconds: -60 }, ['seconds']],
  ['seconds as text', 'POST', '/clock/advance', { seconds: 'ten' }, ['seconds']],
  ['more than a year', 'POST', '/clock/advance', { seconds: 366 * 86400 + 1 }, ['seconds']],
])('a tenant clock given %s answers 400 naming the field, and nothing moves', async (_label, method, path, body, fields) => {
  const { h } = await failingHooks();
  const t = await newTenant(h, 'bad', { clock: null });
  const id = await chargeOf(h, t, 300);
  expectValidation(await h.control(method, `/accounts/${t.id}${path}`, body), fields);
  expect(await clockOf(h, t)).toEqual({ now: T0, frozen: true, own: false });
  expect((await h.api('GET', `/v2/transactions/${id}`, { token: t.token })).body.status).toBe('pending');
});

test('advancing a tenant clock past year 9999 is a 400 naming seconds that says how far it can go', async () => {
  const { h } = await failingHooks();
  const t = await newTenant(h, 'far', { clock: { now: Date.parse('9999-12-31T23:59:59.999Z') - 10_000 } });
  const refused = await advanceTenant(h, t, 11);
  expectValidation(refused, ['seconds']);
  expect(refused.body.message).toContain('advance at most 10 seconds');
  expect((await clockOf(h, t)).now).toBe('9999-12-31T23:59:49.999Z');
});

test.each([
  ['GET', '/clock', undefined],
  ['PUT', '/clock', { now: T0 }],
  ['POST', '/clock/advance', { seconds: 60 }],
])('%s %s of an unknown account answers 404 and moves no clock', async (method, path, body) => {
  const { h } = await failingHooks();
  const res = await h.control(method, `/accounts/99999999-9999-4999-8999-999999999999${path}`, body);
  expectEnvelope(res, 404, 'ACCOUNT_NOT_FOUND');
  expect((await h.control('GET', '/clock')).body).toEqual({ now: T0, frozen: true });
});

test("clock on POST /_sandbox/accounts with now not a date answers 400 naming clock.now, and makes no account", async () => {
  const { h } = await failingHooks();
  const before = (await h.control('GET', '/accounts')).body.items.length;
  expectValidation(await h.control('POST', '/accounts', { name: 'x', clock: { now: 'soon' } }), ['clock.now']);
  expect((await h.control('GET', '/accounts')).body.items.length).toBe(before);
});

test("the console shows the clock of the account shown: its own, with actions on its routes, or the sandbox clock's", async () => {
  const { h } = await failingHooks();
  const t = await newTenant(h, 'Attendee', { clock: { now: '2030-01-02T03:04:05Z', frozen: true } });
  const own = await (await h.sb.app.request(`/?account=${t.id}`)).text();
  expect(own).toContain('Clock of Attendee');
  expect(own).toContain('datetime="2030-01-02T03:04:05.000Z"');
  expect(own).toContain(`data-action="/_sandbox/accounts/${t.id}/clock/advance"`);
  expect(own).not.toContain('data-action="/_sandbox/clock/advance"');
  const shared = await (await h.sb.app.request('/')).text();
  expect(shared).toContain('Sandbox clock');
  expect(shared).toContain('data-action="/_sandbox/clock/advance"');
});

test("the checkout page counts down on the clock of the charge's account and follows that clock's moves only", async () => {
  const { h } = await failingHooks();
  const t = await newTenant(h, 'Shop', { clock: { now: '2030-01-02T03:04:05Z', frozen: true } });
  const id = await chargeOf(h, t, 600);
  const page = await h.api('GET', `/pix/qr/${id}`, { headers: { accept: 'text/html' } });
  expect(page.status, page.text).toBe(200);
  expect(page.text).toContain(`data-now="${Date.parse('2030-01-02T03:04:05Z')}"`);
  expect(page.text).toContain('data-own-clock="true"');
});
