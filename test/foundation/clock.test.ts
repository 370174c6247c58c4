// The sandbox clock (sandbox.md 4.6): read, set, freeze, advance; every time the API prints comes from it.
import { expect, test } from 'vitest';
import { startHarness, T0 } from '../helpers/harness';
import { at, expectValidation } from './support';

test('GET /_sandbox/clock answers the frozen start instant of the harness', async () => {
  const h = await startHarness();
  const res = await h.control('GET', '/clock');
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toEqual({ now: T0, frozen: true });
});

test('a frozen clock does not move between calls', async () => {
  const h = await startHarness();
  const first = await h.control('GET', '/clock');
  await h.v2('GET', '/account');
  const second = await h.control('GET', '/clock');
  expect(second.body, `${first.text} then ${second.text}`).toEqual(first.body);
  expect(second.body.now).toBe(T0);
});

test('POST /_sandbox/clock/advance moves the clock by whole and fractional seconds and keeps it frozen', async () => {
  const h = await startHarness();
  const res = await h.advance(90);
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toEqual({ now: at(90), frozen: true });
  const frac = await h.advance(1.5);
  expect(frac.body, frac.text).toEqual({ now: at(91.5), frozen: true });
  const clockNow = await h.control('GET', '/clock');
  expect(clockNow.body.now, clockNow.text).toBe(at(91.5));
});

test('PUT /_sandbox/clock sets an ISO instant', async () => {
  const h = await startHarness();
  const res = await h.control('PUT', '/clock', { now: '2027-01-15T08:30:00Z', frozen: true });
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toEqual({ now: '2027-01-15T08:30:00.000Z', frozen: true });
  const clockAgain = await h.control('GET', '/clock');
  expect(clockAgain.body, clockAgain.text).toEqual(res.body);
});

test('PUT /_sandbox/clock accepts an ISO instant with an offset, and epoch milliseconds', async () => {
  const h = await startHarness();
  const offset = await h.control('PUT', '/clock', { now: '2027-01-15T08:30:00-03:00' });
  expect(offset.body, offset.text).toEqual({ now: '2027-01-15T11:30:00.000Z', frozen: true });
  const ms = await h.control('PUT', '/clock', { now: Date.parse('2025-06-01T00:00:00Z') });
  expect(ms.body, ms.text).toEqual({ now: '2025-06-01T00:00:00.000Z', frozen: true });
});

test('PUT /_sandbox/clock can unfreeze the clock from the current instant and freeze it again', async () => {
  const h = await startHarness();
  const unfrozen = await h.control('PUT', '/clock', { frozen: false });
  expect(unfrozen.status, unfrozen.text).toBe(200);
  expect(unfrozen.body.frozen, unfrozen.text).toBe(false);
  // Running in real time from T0: it has moved by at most the few milliseconds of this test.
  const ran = Date.parse(unfrozen.body.now) - Date.parse(T0);
  expect(ran >= 0 && ran < 5000, unfrozen.text).toBe(true);
  const later = await h.control('GET', '/clock');
  expect(Date.parse(later.body.now) >= Date.parse(unfrozen.body.now), later.text).toBe(true);

  const frozen = await h.control('PUT', '/clock', { now: '2026-04-01T00:00:00Z', frozen: true });
  expect(frozen.body, frozen.text).toEqual({ now: '2026-04-01T00:00:00.000Z', frozen: true });
});

test('PUT /_sandbox/clock with now null goes back to real time and unfreezes, unless frozen is true', async () => {
  const h = await startHarness(); // frozen at T0, years away from the real date
  const real = await h.control('PUT', '/clock', { now: null });
  expect(real.status, real.text).toBe(200);
  expect(real.body.frozen, real.text).toBe(false);
  expect(Math.abs(Date.parse(real.body.now) - Date.now()) < 5000, real.text).toBe(true);

  const frozenAtReal = await h.control('PUT', '/clock', { now: null, frozen: true });
  expect(frozenAtReal.body.frozen, frozenAtReal.text).toBe(true);
  expect(Math.abs(Date.parse(frozenAtReal.body.now) - Date.now()) < 5000, frozenAtReal.text).toBe(true);
});

test('the clock stamps what the API creates', async () => {
  const h = await startHarness();
  await h.control('PUT', '/clock', { now: '2026-12-24T18:00:00Z' });
  const res = await h.v2('POST', '/projects', { body: { name: 'Natal', color: '#CC0000' } });
  expect(res.status, res.text).toBe(201);
  expect(res.body.createdAt, res.text).toBe('2026-12-24T18:00:00.000Z');
  const health = await h.control('GET', '/health');
  expect(health.body.now, health.text).toBe('2026-12-24T18:00:00.000Z');
});

test.each([
  ['no seconds', {}],
  ['zero seconds', { seconds: 0 }],
  ['negative seconds', { seconds: -5 }],
  ['seconds as text', { seconds: 'ten' }],
  ['more than a year', { seconds: 366 * 86400 + 1 }],
])('POST /_sandbox/clock/advance with %s answers 400 naming seconds and leaves the clock alone', async (_label, body) => {
  const h = await startHarness();
  expectValidation(await h.control('POST', '/clock/advance', body), ['seconds']);
  const clockAfter = await h.control('GET', '/clock');
  expect(clockAfter.body, clockAfter.text).toEqual({ now: T0, frozen: true });
});

test.each([
  ['a word', { now: 'yesterday' }, ['now']],
  ['a date without a time', { now: '2026-03-10' }, ['now']],
  ['a fractional epoch', { now: 1.5 }, ['now']],
  ['an epoch past what a date can hold', { now: 8.7e15 }, ['now']],
  ['an epoch past year 9999', { now: Date.parse('9999-12-31T23:59:59.999Z') + 1 }, ['now']],
  ['frozen as text', { frozen: 'yes' }, ['frozen']],
])('PUT /_sandbox/clock with %s answers 400 and leaves the clock alone', async (_label, body, fields) => {
  const h = await startHarness();
  expectValidation(await h.control('PUT', '/clock', body), fields);
  const clock = await h.control('GET', '/clock');
  expect(clock.status, clock.text).toBe(200);
  expect(clock.body, clock.text).toEqual({ now: T0, frozen: true });
});

test('the last instant of year 9999 is accepted; advancing past it is a 400 that says how far the clock can go', async () => {
  const h = await startHarness();
  const res = await h.control('PUT', '/clock', { now: Date.parse('9999-12-31T23:59:59.999Z') - 10_000 });
  expect(res.body, res.text).toEqual({ now: '9999-12-31T23:59:49.999Z', frozen: true });
  const refused = await h.advance(11);
  expectValidation(refused, ['seconds'], '9999-12-31T23:59:49.999Z');
  expect(refused.body.message).toContain('advance at most 10 seconds');
  expect((await h.advance(10)).body).toEqual({ now: '9999-12-31T23:59:59.999Z', frozen: true });
  const health = await h.control('GET', '/health');
  expect(health.status, health.text).toBe(200);
});
