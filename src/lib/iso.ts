// Instants as ISO 8601 text (UTC, milliseconds: 2026-03-10T12:00:00.000Z), what Date#toISOString writes, by arithmetic:
// about a quarter of its time, and every view of a transaction writes several (a read's answer, a create's, an event's).
// Instants from 1970 to the year 9999 (the sandbox clock's range, lib/clock.ts); anything else goes to toISOString.

const MS_PER_DAY = 86_400_000;
const MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z (CLOCK_MAX_MS)

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** `new Date(ms).toISOString()`. */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_MS) return new Date(ms).toISOString();
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  // Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil, inverted), eras of 400 years from 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153); // month from March = 0
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : millis}Z`;
}
