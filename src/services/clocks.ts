// The clocks tenants run on (sandbox.md 4.6). A tenant may have a clock of its own, stored with its account
// (account.clock: an offset from real time, or the instant it is frozen at, as the sandbox clock keeps its own in
// state.clock); a tenant without one runs on the sandbox clock. Everything time-driven of a tenant reads the clock
// it runs on through clocks.of(account), in this one place, so a jump of one tenant's clock moves nobody else.
// A tenant clock is a view over its account's record: moving it is a write of that record, in the current unit of
// work (undone with it) or, outside any, in a unit of its own; so it survives a restart with a data file.
import { readingAt, type Clock, type ClockState } from '../lib/clock';
import { isoTime } from '../lib/iso';
import type { Account } from '../domain/types';
import type { Store } from '../store/store';
import { currentUnit, rawOf } from '../store/unit';

export interface Clocks {
  /** The sandbox clock: what tenants without a clock of their own run on. */
  readonly sandbox: Clock;
  /** The clock that `account` (or the account of that id) runs on: its own, or the sandbox clock. */
  of(account: Pick<Account, 'id'> | string): Clock;
  /** Whether the account of that id has a clock of its own. */
  owns(accountId: string): boolean;
  /**
   * Gives the account a clock of its own, starting where the clock it runs on stands (and frozen as it is), unless
   * it has one; in the current unit. Returns it.
   */
  own(accountId: string): Clock;
  /** Takes the account's own clock away (it runs on the sandbox clock again), in the current unit. */
  release(accountId: string): void;
  /** nowOf(): the time now for `account`, read from its record (for code fed its clocks, not importing this module). */
  nowOf(account: Pick<Account, 'clock'>): number;
}

export function createClocks(store: Store, sandbox: Clock, log: (line: string) => void): Clocks {
  const stateOf = (id: string): ClockState | undefined => {
    const accounts = store.raw.accounts;
    return Object.hasOwn(accounts, id) ? accounts[id]!.clock : undefined;
  };
  const realNow = () => sandbox.realMs();
  /** Writes an account's clock: in the current unit, or in one of its own (a step of the scheduler's walk). */
  const write = (id: string, next: ClockState) => {
    const put = () => {
      const accounts = store.state.accounts;
      if (Object.hasOwn(accounts, id)) accounts[id]!.clock = next;
    };
    if (currentUnit()) put();
    else store.atomically('system', put).durable.catch((err) => log(`clock of account ${id} not saved: ${String(err)}`));
  };
  const views = new Map<string, Clock>();
  /** The view of account `id`'s own clock (the sandbox clock's time once that account or its clock is gone). */
  const viewOf = (id: string): Clock => {
    let view = views.get(id);
    if (view) return view;
    const at = (realMs: number) => {
      const s = stateOf(id);
      return s ? readingAt(s, realMs) : sandbox.at(realMs);
    };
    const nowMs = () => at(realNow());
    view = {
      nowMs,
      realMs: realNow,
      at,
      now: () => new Date(nowMs()),
      iso: () => isoTime(nowMs()),
      get frozen() {
        const s = stateOf(id);
        return s ? s.frozenAt !== null : sandbox.frozen;
      },
      set(ms, frozen) {
        const s = stateOf(id);
        write(id, frozen ? { offsetMs: s?.offsetMs ?? 0, frozenAt: ms } : clockStateAt(view!, ms, false));
      },
      shift(ms) {
        const s = stateOf(id);
        if (s) write(id, s.frozenAt !== null ? { offsetMs: s.offsetMs, frozenAt: s.frozenAt + ms } : { offsetMs: s.offsetMs + ms, frozenAt: null });
      },
      snapshot: () => ({ ...(stateOf(id) ?? sandbox.snapshot()) }),
      restore: (state) => write(id, { offsetMs: state.offsetMs, frozenAt: state.frozenAt }),
    };
    if (views.size > 10_000) views.clear();
    views.set(id, view);
    return view;
  };
  const owns = (id: string) => stateOf(id) !== undefined;
  return {
    sandbox,
    owns,
    of(account) {
      const id = typeof account === 'string' ? account : account.id;
      return owns(id) ? viewOf(id) : sandbox;
    },
    own(id) {
      if (!owns(id)) {
        const accounts = store.state.accounts;
        if (Object.hasOwn(accounts, id)) accounts[id]!.clock = clockStateAt(sandbox, sandbox.nowMs(), sandbox.frozen);
      }
      return viewOf(id);
    },
    release(id) {
      const accounts = store.state.accounts;
      if (Object.hasOwn(accounts, id)) delete accounts[id]!.clock;
    },
    nowOf: (account) => nowOf({ clock: sandbox }, account),
  };
}

/** What the control API shows of the clock an account runs on. */
export function tenantClockView(clocks: Clocks, id: string) {
  const clock = clocks.of(id);
  return { now: clock.iso(), frozen: clock.frozen, own: clocks.owns(id) };
}

/**
 * The time now for `account` (or at real time `realMs`), on the clock it runs on, read from the record itself (so an
 * account being built, not yet in the state, reads the clock it is given): what every verb stamps and compares.
 */
export function nowOf(deps: { clock: Clock }, account: Pick<Account, 'clock'>, realMs = deps.clock.realMs()): number {
  const own = rawOf(account).clock;
  return own ? readingAt(own, realMs) : deps.clock.at(realMs);
}

/** nowOf() as an ISO 8601 instant. */
export const isoOf = (deps: { clock: Clock }, account: Pick<Account, 'clock'>): string => isoTime(nowOf(deps, account));

/** The instant a clock input names: ISO 8601 text or epoch ms (checked by the route); null: real time; absent: where `clock` stands. */
export function instantOf(clock: Clock, now: string | number | null | undefined): number {
  return now === null ? clock.realMs() : now === undefined ? clock.nowMs() : typeof now === 'number' ? now : Date.parse(now);
}

/** The stored state of a clock standing at `ms`, frozen there or running on from it. */
export function clockStateAt(clock: Clock, ms: number, frozen: boolean): ClockState {
  return { offsetMs: ms - clock.realMs(), frozenAt: frozen ? ms : null };
}
