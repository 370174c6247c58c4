// The sandbox clock. Every time-based rule reads it, never Date.now() directly, so that tests and users can
// freeze, set and advance time. Real time by default: `now = Date.now() + offset`; frozen: `now = frozenAt`.

export interface ClockState {
  offsetMs: number;
  frozenAt: number | null;
}

export interface Clock {
  nowMs(): number;
  /** The real time the clock is measured against, whatever the offset or freeze. */
  realMs(): number;
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
  const nowMs = () => (frozenAt ?? realNow() + offsetMs);
  return {
    nowMs,
    realMs: realNow,
    now: () => new Date(nowMs()),
    iso: () => new Date(nowMs()).toISOString(),
    get frozen() {
      return frozenAt !== null;
    },
    set(ms, frozen) {
      if (frozen) frozenAt = ms;
      else {
        frozenAt = null;
        offsetMs = ms - realNow();
      }
    },
    shift(ms) {
      if (frozenAt !== null) frozenAt += ms;
      else offsetMs += ms;
    },
    snapshot: () => ({ offsetMs, frozenAt }),
    restore(state) {
      offsetMs = state.offsetMs;
      frozenAt = state.frozenAt;
    },
  };
}
