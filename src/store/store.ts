// The state and where it lives. One plain JSON-serializable object, addressed by account (tenancy is part of the
// address). Every change happens inside a unit of work (./unit.ts): a request, a job, a delivery outcome; a unit that
// throws leaves nothing behind, and the change set of one that succeeds is what persistence writes. Memory by default;
// with a data file, a change is on disk before the response that reports it.
import { TextFile } from 'lowdb/node';
import type { ClockState } from '../lib/clock';
import type { Account } from '../domain/types';
import { SandboxError } from '../domain/errors';
import { Unit, type UnitHooks, type UnitKind, changeSet, currentUnit, runInUnit, undo, view } from './unit';

export const STATE_VERSION = 2;

export interface Job {
  id: string;
  /** Sandbox-clock ms at which it falls due. */
  dueAt: number;
  kind: string;
  accountId: string;
  ref: string;
}

export interface State {
  version: number;
  clock: ClockState;
  /** Private JWK of the token signing key, kept so tokens survive a restart with a data file. */
  signingKey: Record<string, unknown> | null;
  accounts: Record<string, Account>;
  /** Work that falls due on the sandbox clock, by id (the scheduler keeps their order in memory). */
  jobs: Record<string, Job>;
}

export const emptyState = (): State => ({
  version: STATE_VERSION,
  clock: { offsetMs: 0, frozenAt: null },
  signingKey: null,
  accounts: {},
  jobs: {},
});

/**
 * Collections that later versions added to an account: a data file written before them loads with them empty, so an
 * older file keeps working instead of failing on the first event, delivery or block.
 */
const ACCOUNT_COLLECTIONS = { events: () => [], customers: () => [], webhooks: () => [], deliveries: () => ({}), balanceBlocks: () => ({}), idempotency: () => ({}) };

/** Brings a state of an older version (or missing later collections) to this one. */
export function upgrade(state: State): State {
  for (const account of Object.values(state.accounts ?? {})) {
    const record = account as unknown as Record<string, unknown>;
    for (const [key, empty] of Object.entries(ACCOUNT_COLLECTIONS)) record[key] ??= empty();
  }
  // Version 1 kept jobs as an array sorted by due time; version 2 keys them by id (a change set then holds one job).
  const jobs = (state.jobs ?? []) as unknown;
  if (Array.isArray(jobs)) state.jobs = Object.fromEntries((jobs as Job[]).map((j) => [j.id, j]));
  state.version = STATE_VERSION;
  return state;
}

export interface ClockBinding {
  snapshot(): ClockState;
  restore(state: ClockState): void;
}

export interface Store {
  /** Inside a unit of work: a view that records every change; outside: the raw state (read-only by convention). */
  readonly state: State;
  /** The raw state, never recorded (for readers that must not pay for the view). */
  readonly raw: State;
  readonly persistent: boolean;
  account(id: string): Account;
  findAccount(id: string): Account | undefined;
  /** Kept for the verbs that still call it: changes are recorded by the unit of work, so this does nothing. */
  changed(): void;
  /** Resolves once every change committed so far is on disk (at once in memory). */
  flush(): Promise<void>;
  /** Swap the whole state (reset), as one change of the current unit. */
  replace(next: State): void;
  /** Starts a unit of work; run code in it with run(), then commit() or rollback(). */
  begin(kind: UnitKind): Unit;
  run<T>(unit: Unit, fn: () => T): T;
  /** Ends a unit that succeeded: resolves once its change set is on disk (rejects 503 STORAGE_UNAVAILABLE after undoing it). */
  commit(unit: Unit): Promise<void>;
  /** Ends a unit that failed: every change it made is undone. */
  rollback(unit: Unit): void;
  /** Runs `fn` as one unit of its own (synchronous work: a job, a delivery outcome, start-up); returns its durability. */
  atomically<T>(kind: UnitKind, fn: () => T): { result: T; durable: Promise<void> };
  /** Ties the sandbox clock in: its snapshot is saved with each change, and restored when a unit that moved it fails. */
  bindClock(clock: ClockBinding): void;
  /** Bumped whenever changes are undone or the state is replaced (the scheduler then re-reads its jobs). */
  readonly epoch: number;
  /** Test hooks (fault injection); never set in production. */
  readonly hooks: UnitHooks;
  close(): Promise<void>;
}

export interface StoreOptions {
  hooks?: UnitHooks;
}

export async function openStore(dataFile?: string, options: StoreOptions = {}): Promise<{ store: Store; loaded: boolean }> {
  const holder: { state: State } = { state: emptyState() };
  let loaded = false;
  const file = dataFile ? new TextFile(dataFile) : null;
  if (file) {
    const text = await file.read();
    if (text !== null && text.trim() !== '') {
      let parsed: State;
      try {
        parsed = JSON.parse(text) as State;
      } catch (err) {
        throw new Error(`The data file ${dataFile} is not valid JSON (${(err as Error).message}); move it away or fix it.`);
      }
      if (parsed.version !== STATE_VERSION && parsed.version !== 1) {
        throw new Error(`The data file ${dataFile} has state version ${parsed.version}; this sandbox reads version ${STATE_VERSION}.`);
      }
      holder.state = upgrade(parsed);
      loaded = true;
    }
  }

  const hooks: UnitHooks = options.hooks ?? {};
  let clockBinding: ClockBinding | null = null;
  const clockAtBegin = new WeakMap<Unit, ClockState>();
  let epoch = 0;

  let dirty = false;
  let writing: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  const write = (): Promise<void> => {
    dirty = false;
    const text = JSON.stringify(holder.state);
    const done = file!.write(text).finally(() => {
      if (writing === done) writing = null;
    });
    writing = done;
    return done;
  };

  const sameClock = (a: ClockState, b: ClockState) => a.offsetMs === b.offsetMs && a.frozenAt === b.frozenAt;

  const store: Store = {
    get state() {
      return currentUnit() ? view(holder.state) : holder.state;
    },
    get raw() {
      return holder.state;
    },
    persistent: file !== null,
    findAccount: (id) => {
      const accounts = store.state.accounts;
      return Object.hasOwn(accounts, id) ? accounts[id] : undefined;
    },
    account(id) {
      const acc = store.findAccount(id);
      if (!acc) throw new SandboxError('ACCOUNT_NOT_FOUND', `No account with id '${id}'. List accounts with GET /_sandbox/accounts.`, { resource: 'account', id });
      return acc;
    },
    changed() {},
    flush() {
      if (!file) return Promise.resolve();
      if (!dirty) return next ?? writing ?? Promise.resolve();
      if (next) return next; // a write is queued after the running one: it will carry this change too
      if (!writing) return write();
      next = writing.then(
        () => {
          next = null;
          return write();
        },
        () => {
          next = null;
          return write();
        },
      );
      return next;
    },
    replace(nextState) {
      const unit = currentUnit();
      if (unit) {
        unit.undo.push(holder, 'state', true, holder.state);
        for (const key of Object.keys(nextState)) unit.records.set(key, [key]);
      }
      holder.state = nextState;
      epoch++;
      dirty = true;
    },
    begin(kind) {
      const unit = new Unit(kind, hooks);
      if (clockBinding) clockAtBegin.set(unit, clockBinding.snapshot());
      return unit;
    },
    run: (unit, fn) => runInUnit(unit, fn),
    commit(unit) {
      if (clockBinding && unit.open) {
        const now = clockBinding.snapshot();
        if (!sameClock(now, holder.state.clock)) runInUnit(unit, () => (store.state.clock = now));
      }
      unit.open = false;
      if (unit.records.size === 0) return Promise.resolve();
      changeSet(holder.state, unit); // step 2 journals this
      unit.undo.length = 0;
      dirty = true;
      return store.flush();
    },
    rollback(unit) {
      unit.open = false;
      if (unit.undo.length > 0) {
        undo(unit);
        epoch++;
      }
      const before = clockAtBegin.get(unit);
      if (clockBinding && before && !sameClock(before, clockBinding.snapshot())) clockBinding.restore(before);
    },
    atomically(kind, fn) {
      const unit = store.begin(kind);
      let result: ReturnType<typeof fn>;
      try {
        result = runInUnit(unit, fn);
      } catch (err) {
        store.rollback(unit);
        throw err;
      }
      return { result, durable: store.commit(unit) };
    },
    bindClock(clock) {
      clockBinding = clock;
    },
    get epoch() {
      return epoch;
    },
    hooks,
    async close() {
      await store.flush();
    },
  };
  return { store, loaded };
}
