// Business days between two cobv days are counted, not walked (a due date in 1970 and a payment in 9999 would walk
// three million days): the count equals the walk, Monday to Friday, for any pair of days.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { businessDaysBetween } from '../../src/domain/api-pix';

/** The walk the count replaced: every day after `from` up to `to` that is not a Saturday or Sunday. */
function walked(from: number, to: number): number {
  let n = 0;
  for (let d = from + 1; d <= to; d++) {
    const dow = new Date(d * 86_400_000).getUTCDay();
    if (dow !== 0 && dow !== 6) n++;
  }
  return n;
}

test('the count equals the walk for any two days from 1970 to 2100', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 47_000 }), fc.integer({ min: -20, max: 400 }), (from, span) => {
      expect(businessDaysBetween(from, from + span)).toBe(walked(from, from + span));
    }),
    { numRuns: 500 },
  );
});

test.each([
  ['a Friday to the next Monday', 20_525, 20_528, 1], // 2026-03-13 is day 20525, a Friday
  ['the same day', 20_522, 20_522, 0],
  ['a week', 20_522, 20_529, 5],
])('%s', (_name, from, to, expected) => {
  expect(businessDaysBetween(from, to)).toBe(walked(from, to));
  expect(businessDaysBetween(from, to)).toBe(expected);
});
