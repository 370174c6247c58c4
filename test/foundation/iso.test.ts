// lib/iso.ts writes instants by arithmetic: the same text as Date#toISOString over the sandbox clock's whole range.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isoTime } from '../../src/lib/iso';
import { CLOCK_MAX_MS, CLOCK_MIN_MS } from '../../src/lib/clock';

describe('isoTime', () => {
  test('is toISOString for any instant of the clock range', () => {
    fc.assert(fc.property(fc.integer({ min: CLOCK_MIN_MS, max: CLOCK_MAX_MS }), (ms) => isoTime(ms) === new Date(ms).toISOString()), { numRuns: 20_000 });
  });

  test('is toISOString at the first and last millisecond of every day from 1970 to 2400', () => {
    const wrong: number[] = [];
    for (let start = 0; start < Date.parse('2400-01-01T00:00:00.000Z'); start += 86_400_000)
      for (const ms of [start, start + 86_399_999]) if (isoTime(ms) !== new Date(ms).toISOString()) wrong.push(ms);
    expect(wrong).toEqual([]);
  });

  test.each([
    ['the epoch', 0],
    ['the last instant of 1999', Date.parse('1999-12-31T23:59:59.999Z')],
    ['a leap day', Date.parse('2024-02-29T12:34:56.007Z')],
    ['the first day after a century that is not leap', Date.parse('2100-03-01T00:00:00.000Z')],
    ['the clock\'s last instant', CLOCK_MAX_MS],
    ['before the epoch (outside the clock: toISOString)', -1],
    ['past the year 9999 (outside the clock: toISOString)', CLOCK_MAX_MS + 1],
    ['a fraction of a millisecond (toISOString)', 1.5],
  ])('%s', (_, ms) => {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
