// Brazil's business days as the financial system counts them: Monday to Friday, less the national holidays. A day is
// a whole-day number (days since 1970-01-01, as domain/api-pix.ts's dayOf); pure, no clock. The movable holidays hang
// on Easter Sunday, computed by the anonymous Gregorian algorithm (Meeus/Jones/Butcher), valid for any Gregorian year.

const DAY = 86_400_000;

/** Easter Sunday of a Gregorian year, as a day number. */
export function easterDay(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const dayOfMonth = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, dayOfMonth) / DAY;
}

/** The fixed national holidays (month, day, name); Black Consciousness Day (20/11) only from 2024 (Lei 14.759/2023). */
const FIXED: ReadonlyArray<readonly [number, number, string, number?]> = [
  [1, 1, 'Confraternização Universal'],
  [4, 21, 'Tiradentes'],
  [5, 1, 'Dia do Trabalho'],
  [9, 7, 'Independência do Brasil'],
  [10, 12, 'Nossa Senhora Aparecida'],
  [11, 2, 'Finados'],
  [11, 15, 'Proclamação da República'],
  [11, 20, 'Dia Nacional de Zumbi e da Consciência Negra', 2024],
  [12, 25, 'Natal'],
];

/** The holidays that move with Easter, in days from Easter Sunday. */
const MOVABLE: ReadonlyArray<readonly [number, string]> = [
  [-48, 'Carnaval (segunda-feira)'],
  [-47, 'Carnaval (terça-feira)'],
  [-2, 'Sexta-feira da Paixão'],
  [60, 'Corpus Christi'],
];

export interface Holiday {
  day: number;
  name: string;
}

const byYear = new Map<number, Holiday[]>();

/** The national non-business days of a year, in date order. */
export function holidaysOf(year: number): Holiday[] {
  let list = byYear.get(year);
  if (!list) {
    const easter = easterDay(year);
    list = [
      ...FIXED.filter(([, , , since]) => since === undefined || year >= since).map(([month, day, name]) => ({ day: Date.UTC(year, month - 1, day) / DAY, name })),
      ...MOVABLE.map(([offset, name]) => ({ day: easter + offset, name })),
    ].sort((x, y) => x.day - y.day);
    if (byYear.size > 512) byYear.clear();
    byYear.set(year, list);
  }
  return list;
}

export const isWeekend = (day: number) => {
  const dow = new Date(day * DAY).getUTCDay();
  return dow === 0 || dow === 6;
};

export const isHoliday = (day: number) => holidaysOf(new Date(day * DAY).getUTCFullYear()).some((h) => h.day === day);

export const isBusinessDay = (day: number) => !isWeekend(day) && !isHoliday(day);

/** `day` itself when it is a business day, else the next one. */
export function nextBusinessDay(day: number): number {
  while (!isBusinessDay(day)) day++;
  return day;
}
