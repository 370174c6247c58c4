// Brazil's national holidays and business days (domain/business-days.ts): Easter by the anonymous Gregorian
// algorithm against published dates, the movable holidays hung on it, the fixed ones, and the next business day.
import { expect, test } from 'vitest';
import { dayOf, dayText } from '../../src/domain/api-pix';
import { easterDay, holidaysOf, isBusinessDay, nextBusinessDay } from '../../src/domain/business-days';

test.each([
  [1818, '1818-03-22'], // the earliest possible
  [1943, '1943-04-25'], // the latest possible
  [2000, '2000-04-23'],
  [2019, '2019-04-21'],
  [2024, '2024-03-31'],
  [2025, '2025-04-20'],
  [2026, '2026-04-05'],
  [2027, '2027-03-28'],
  [2028, '2028-04-16'],
  [2038, '2038-04-25'],
  [2285, '2285-03-22'],
])('Easter %i is %s', (year, date) => {
  expect(dayText(easterDay(year))).toBe(date);
});

test.each([
  [2023, ['2023-01-01', '2023-02-20', '2023-02-21', '2023-04-07', '2023-04-21', '2023-05-01', '2023-06-08', '2023-09-07', '2023-10-12', '2023-11-02', '2023-11-15', '2023-12-25']],
  [2024, ['2024-01-01', '2024-02-12', '2024-02-13', '2024-03-29', '2024-04-21', '2024-05-01', '2024-05-30', '2024-09-07', '2024-10-12', '2024-11-02', '2024-11-15', '2024-11-20', '2024-12-25']],
  [2026, ['2026-01-01', '2026-02-16', '2026-02-17', '2026-04-03', '2026-04-21', '2026-05-01', '2026-06-04', '2026-09-07', '2026-10-12', '2026-11-02', '2026-11-15', '2026-11-20', '2026-12-25']],
  [2027, ['2027-01-01', '2027-02-08', '2027-02-09', '2027-03-26', '2027-04-21', '2027-05-01', '2027-05-27', '2027-09-07', '2027-10-12', '2027-11-02', '2027-11-15', '2027-11-20', '2027-12-25']],
  [2028, ['2028-01-01', '2028-02-28', '2028-02-29', '2028-04-14', '2028-04-21', '2028-05-01', '2028-06-15', '2028-09-07', '2028-10-12', '2028-11-02', '2028-11-15', '2028-11-20', '2028-12-25']],
])('the national holidays of %i', (year, dates) => {
  expect(holidaysOf(year).map((h) => dayText(h.day))).toEqual(dates);
});

test.each([
  ['Tiradentes on a Wednesday: Thursday', '2027-04-21', '2027-04-22'],
  ['Good Friday: the Monday after Easter', '2026-04-03', '2026-04-06'],
  ['Carnival Monday: Ash Wednesday', '2026-02-16', '2026-02-18'],
  ['Corpus Christi on a Thursday: Friday', '2026-06-04', '2026-06-05'],
  ['Saturday before a Monday holiday (Finados 2026): Tuesday', '2026-10-31', '2026-11-03'],
  ['Christmas on a Friday (2026): Monday the 28th', '2026-12-25', '2026-12-28'],
  ['New Year on a Friday (2027): Monday the 4th', '2027-01-01', '2027-01-04'],
  ['an ordinary Tuesday: itself', '2026-03-10', '2026-03-10'],
  ['20 November 2023, before it was national: itself', '2023-11-20', '2023-11-20'],
])('%s', (_name, from, expected) => {
  expect(dayText(nextBusinessDay(dayOf(from)))).toBe(expected);
  expect(isBusinessDay(dayOf(expected))).toBe(true);
});
