// The clock stays within 1970-01-01T00:00:00.000Z .. 9999-12-31T23:59:59.999Z: a move beyond is refused with 400 at
// the clock routes, naming the range, instead of failing later when a response prints the time.
import { expect, test } from 'vitest';
import { startHarness, T0 } from '../helpers/harness';

const RANGE = '1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z';

test.each([
  ['an epoch one millisecond past year 9999', { now: Date.parse('9999-12-31T23:59:59.999Z') + 1 }],
  ['a date-time of 9999-12-31 whose offset puts it in year 10000', { now: '9999-12-31T23:59:59-01:00' }],
  ['a negative epoch', { now: -1 }],
  ['a date-time before 1970', { now: '1969-12-31T23:59:59Z' }],
])('PUT /_sandbox/clock with %s answers 400 naming now and the allowed range', async (_label, body) => {
  const h = await startHarness();
  const res = await h.control('PUT', '/clock', body);
  expect(res.status, res.text).toBe(400);
  expect(res.body.details.fields, res.text).toEqual([{ field: 'now', message: expect.stringContaining(RANGE) }]);
  expect((await h.control('GET', '/clock')).body).toEqual({ now: T0, frozen: true });
});

test.each([
  ['past year 9999', 366 * 86400, '9999-12-31T23:00:00.000Z'],
  ['by a fraction of a second past year 9999', 3600.5, '9999-12-31T23:00:00.000Z'],
])('POST /_sandbox/clock/advance %s answers 400 naming seconds, the range and how far it can go', async (_label, seconds, from) => {
  const h = await startHarness();
  await h.control('PUT', '/clock', { now: from });
  const res = await h.advance(seconds);
  expect(res.status, res.text).toBe(400);
  expect(res.body.details.fields, res.text).toEqual([{ field: 'seconds', message: expect.stringContaining(RANGE) }]);
  expect(res.body.message).toContain('advance at most 3599 seconds');
  expect((await h.control('GET', '/clock')).body).toEqual({ now: from, frozen: true });
});

test.each([['NaN written as text', { seconds: 'NaN' }], ['a negative number', { seconds: -1 }], ['null', { seconds: null }]])(
  'POST /_sandbox/clock/advance with %s answers 400 naming seconds',
  async (_label, body) => {
    const h = await startHarness();
    const res = await h.control('POST', '/clock/advance', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toEqual(['seconds']);
  },
);
