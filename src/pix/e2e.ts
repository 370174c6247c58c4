// End-to-end id of a PIX transfer (SPI): "E" + the payer PSP's 8-digit ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics.
import { randomString, type RandomInt } from './random';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const E2E_ID = /^E(\d{8})(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})[A-Za-z0-9]{11}$/;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A 32-character end-to-end id for a transfer initiated `at` by the PSP with this ISPB. */
export function makeE2eId(ispb: string, at: Date, random: RandomInt): string {
  if (!/^\d{8}$/.test(ispb)) throw new RangeError(`ispb must be 8 digits, like 00000000, got ${JSON.stringify(ispb)}`);
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime()) || year < 0 || year > 9999) throw new RangeError(`at must be a valid date with a 4-digit year, got ${String(at)}`);
  const stamp =
    pad(year, 4) + pad(at.getUTCMonth() + 1, 2) + pad(at.getUTCDate(), 2) + pad(at.getUTCHours(), 2) + pad(at.getUTCMinutes(), 2);
  return `E${ispb}${stamp}${randomString(random, ALNUM, 11)}`;
}

/** Whether `s` has the shape of an end-to-end id, with a real UTC date and time in it. */
export function isE2eId(s: string): boolean {
  const m = E2E_ID.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute] = m.slice(2, 7).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  return day <= daysInMonth;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
