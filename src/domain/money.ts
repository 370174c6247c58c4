// Money is integer cents inside. BRL numbers are parsed to cents at the edge (at most 2 decimals) and printed back
// only when a response is built. Fees round half up to the cent.

export type Cents = number;

/** BRL number -> cents, or null when it has more than 2 decimals or is not a finite number. */
export function toCents(brl: number): Cents | null {
  if (!Number.isFinite(brl)) return null;
  const cents = Math.round(brl * 100);
  // Accept only values that are exactly representable with 2 decimals (tolerate binary float noise).
  if (Math.abs(cents - brl * 100) > 1e-6 * Math.max(1, Math.abs(brl))) return null;
  if (!Number.isSafeInteger(cents)) return null;
  return cents;
}

export const toBrl = (cents: Cents): number => Math.round(cents) / 100;

export const hasAtMostTwoDecimals = (brl: number): boolean => toCents(brl) !== null;

/**
 * `percent` of `cents`, rounded half up to the cent, done in integers: percent is held in basis points
 * x100 (i.e. 0.99 % = 9900 millionths) so 0.99 % of 50.50 is exact before rounding.
 */
export function percentOf(cents: Cents, percent: number): Cents {
  const millionths = Math.round(percent * 10_000); // 0.99 % -> 9900 parts per million
  const numerator = cents * millionths; // exact while < 2^53 (amounts below ~9e9 BRL)
  return Math.floor((numerator + 500_000) / 1_000_000);
}

export interface PixFee {
  percent: number;
  fixed: number; // BRL
  min: number; // BRL
}

export interface FeeSchedule {
  pix: PixFee;
  withdrawal: { fixed: number };
  refund: { fixed: number };
}

export const DEFAULT_FEES: FeeSchedule = {
  pix: { percent: 0.99, fixed: 0, min: 0.5 },
  withdrawal: { fixed: 1 },
  refund: { fixed: 0.5 },
};

/** Fee of a PIX charge of `amount` cents: percent (half up) + fixed, at least min. */
export function pixFee(amount: Cents, fee: PixFee): Cents {
  const computed = percentOf(amount, fee.percent) + Math.round(fee.fixed * 100);
  return Math.max(computed, Math.round(fee.min * 100));
}

/** A fixed fee of the schedule (BRL) in cents, rounded half up. */
export const fixedFee = (brl: number): Cents => Math.round(brl * 100);

/** Cents as BRL text for messages: 150 -> "1.50". */
export const brlText = (cents: Cents): string => (cents / 100).toFixed(2);
