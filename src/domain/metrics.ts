// Revenue metrics of the v1 API (service document 2.13), pure. Days are calendar days in Brazil's time zone
// (America/Sao_Paulo: UTC-3 all year, no daylight saving since 2019). Definitions, all in cents here:
// - revenue of a day: completed payments paid that day (gross, fees not deducted) minus completed refunds of payments
//   that completed that day (a refund lowers the day it happened, never rewrites the day of the payment);
// - mrr of a day: the revenue of the 30 days ending that day (that day and the 29 before it);
// - subscribers of a day: distinct customers (the charge's customer record) with a completed payment in those 30 days;
//   payments whose charge named no customer add revenue but no subscriber;
// - totalRevenue: all revenue ever; currentMrr: the mrr of today (by the sandbox clock).
import { inDayRange } from '../lib/clock';
import type { Cents } from './money';

/** A calendar day, `YYYY-MM-DD`. */
export type Day = string;

export const BRAZIL_UTC_OFFSET_MS = -3 * 3600_000;
export const MRR_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** The Brazilian calendar day of an instant: 2026-03-11T02:59:59Z is still 2026-03-10 in Brazil. */
export const brazilDay = (ms: number): Day => new Date(ms + BRAZIL_UTC_OFFSET_MS).toISOString().slice(0, 10);

const dayStart = (day: Day) => Date.parse(`${day}T00:00:00.000Z`);
export const addDays = (day: Day, n: number): Day => new Date(dayStart(day) + n * DAY_MS).toISOString().slice(0, 10);
/** Whole days from `from` to `to` (0 when equal, negative when `to` is earlier). */
export const daysFrom = (from: Day, to: Day): number => Math.round((dayStart(to) - dayStart(from)) / DAY_MS);

/** `2026-02-28` yes; `2026-02-30`, `2026-2-3`, `1969-12-31` (before the clock's range) no. */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !inDayRange(text)) return false;
  const ms = dayStart(text);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** One thing that moves revenue: a completed payment (positive, with its customer) or a completed refund (negative). */
export interface RevenueEntry {
  at: number;
  amount: Cents;
  customerId?: string | undefined;
}

export interface DayMetrics {
  revenue: Cents;
  mrr: Cents;
  subscribers: number;
}

export interface Metrics {
  totalRevenue: Cents;
  currentMrr: Cents;
  groupedByDay: Record<Day, DayMetrics>;
}

/** Metrics with `groupedByDay` holding every day from `from` to `to` (both included), days without revenue as zeros. */
export function computeMetrics(entries: readonly RevenueEntry[], range: { from: Day; to: Day }, today: Day): Metrics {
  const revenueOn = new Map<Day, Cents>();
  const payersOn = new Map<Day, Set<string>>();
  let totalRevenue = 0;
  for (const e of entries) {
    const day = brazilDay(e.at);
    totalRevenue += e.amount;
    revenueOn.set(day, (revenueOn.get(day) ?? 0) + e.amount);
    if (e.customerId !== undefined) {
      const payers = payersOn.get(day) ?? new Set<string>();
      payers.add(e.customerId);
      payersOn.set(day, payers);
    }
  }
  const windowEnding = (day: Day) => {
    let mrr = 0;
    const subscribers = new Set<string>();
    for (let i = 0; i < MRR_WINDOW_DAYS; i++) {
      const d = addDays(day, -i);
      mrr += revenueOn.get(d) ?? 0;
      for (const id of payersOn.get(d) ?? []) subscribers.add(id);
    }
    return { mrr, subscribers: subscribers.size };
  };
  const groupedByDay: Record<Day, DayMetrics> = {};
  // Counted, not compared as text: the day after 9999-12-31 is '+010000-01-01', which sorts before it.
  for (let i = 0, days = daysFrom(range.from, range.to); i <= days; i++) {
    const day = addDays(range.from, i);
    groupedByDay[day] = { revenue: revenueOn.get(day) ?? 0, ...windowEnding(day) };
  }
  return { totalRevenue, currentMrr: windowEnding(today).mrr, groupedByDay };
}
