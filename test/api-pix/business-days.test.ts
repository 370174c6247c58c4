// Business days between two cobv days are counted, not walked (a due date in 1970 and a payment in 9999 would walk
// three million days): the count equals the walk, Monday to Friday, for any pair of days. And the last day a cobv can
// be paid reads the document's own examples of validadeAposVencimento.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { businessDaysBetween, dayOf, dayText, lastPayableDay } from '../../src/domain/api-pix';

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

// The examples of CobVCalendario.validadeAposVencimento in the document (docs/standards/, "Exemplo A" to "Exemplo G"):
// the due date, the days of validity, the last day accepted and the first refused. B to E hinge on the holidays of
// 2020-12-25 and 2021-01-01, which the sandbox does not know (business days are Monday to Friday): not listed.
test.each([
  ['A: due Tuesday, 4 days; Saturday the 24th moves to Monday', '2020-10-20', 4, '2020-10-26', '2020-10-27'],
  ['F: due Friday, 5 days, counted through the weekend', '2021-08-27', 5, '2021-09-01', '2021-09-02'],
  ['G: due Saturday (moved to Monday), 5 days; Saturday the 4th moves to Monday the 6th', '2021-08-28', 5, '2021-09-06', '2021-09-07'],
  ['the issue: due Thursday, 2 days; paid the following Monday', '2026-03-12', 2, '2026-03-16', '2026-03-17'],
  ['no days after a Friday due date', '2026-03-13', 0, '2026-03-13', '2026-03-14'],
  ['no days after a Sunday due date: Monday', '2026-03-15', 0, '2026-03-16', '2026-03-17'],
])("the document's example %s", (_name, dataDeVencimento, validadeAposVencimento, lastAccepted, firstRefused) => {
  const last = lastPayableDay({ dataDeVencimento, validadeAposVencimento });
  expect(dayText(last)).toBe(lastAccepted);
  expect(last + 1).toBe(dayOf(firstRefused));
});
