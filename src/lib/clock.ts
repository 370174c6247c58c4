// The sandbox clock. Every time-based rule reads it, never Date.now() directly, so that tests and users can
// freeze, set and advance time. Real time by default: `now = Date.now() + offset`; frozen: `now = frozenAt`.
import { isoTime } from './iso';
import type { Writable } from './objects';

/**
 * The instants the clock may stand at: from the Unix epoch to the last instant an ISO 8601 date-time with a 4-digit
 * year can name. Beyond 9999 a date prints as +010000-... (which no client parses) and past about 8.64e15 ms it is
 * invalid and every response that prints the clock would throw, so the control API refuses such moves up front.
 */
export const CLOCK_MIN_MS = 0;
export const CLOCK_MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');
export const CLOCK_RANGE_TEXT = '1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (epoch milliseconds 0 to 253402300799999)';
export const inClockRange = (ms: number) => Number.isFinite(ms) && ms >= CLOCK_MIN_MS && ms <= CLOCK_MAX_MS;
/** The calendar days a date parameter may name (`YYYY-MM-DD`): those of the clock's range. */
export const DAY_RANGE_TEXT = '1970-01-01 to 9999-12-31';
/** Whether a `YYYY-MM-DD` text (already checked for its shape) is a day of the clock's range. */
export const inDayRange = (day: string) => day >= '1970-01-01' && day <= '9999-12-31';

export interface ClockState {
  offsetMs: number;
  frozenAt: number | null;
}

/** What a clock in `state` reads when real time is `realMs`: where it is frozen, else real time moved by its offset. */
export const readingAt = (state: ClockState, realMs: number): number => state.frozenAt ?? realMs + state.offsetMs;

export interface Clock {
  nowMs(): number;
  /** The real time the clock is measured against, whatever the offset or freeze. */
  realMs(): number;
  /** What the clock reads when real time is `realMs` (a reading taken once for both, as the request log does). */
  at(realMs: number): number;
  now(): Date;
  iso(): string;
  readonly frozen: boolean;
  /** Jump to an absolute instant; `frozen` decides whether time then stands still. */
  set(ms: number, frozen: boolean): void;
  /** Move forward (or back, with a negative value) by `ms`, keeping frozen/real as it is. */
  shift(ms: number): void;
  snapshot(): ClockState;
  restore(state: ClockState): void;
}

export function createClock(realNow: () => number = Date.now, initial?: Partial<ClockState>): Clock {
  let offsetMs = initial?.offsetMs ?? 0;
  let frozenAt: number | null = initial?.frozenAt ?? null;
  const at = (realMs: number) => frozenAt ?? realMs + offsetMs;
  const nowMs = () => at(realNow());
  const clock: Writable<Clock> = {
    nowMs,
    realMs: realNow,
    at,
    now: () => new Date(nowMs()),
    iso: () => isoTime(nowMs()),
    frozen: frozenAt !== null,
    set(ms, frozen) {
      if (frozen) frozenAt = ms;
      else {
        frozenAt = null;
        offsetMs = ms - realNow();
      }
      clock.frozen = frozen;
    },
    shift(ms) {
      if (frozenAt !== null) frozenAt += ms;
      else offsetMs += ms;
    },
    snapshot: () => ({ offsetMs, frozenAt }),
    restore(state) {
      offsetMs = state.offsetMs;
      frozenAt = state.frozenAt;
      clock.frozen = frozenAt !== null;
    },
  };
  return clock;
}
