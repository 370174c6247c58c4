// The state's shape and its version: what the store holds in memory and what a data file's snapshot and journal
// (./disk.ts) write, and how a state of an older version is brought to this one.
import type { ClockState } from '../lib/clock';
import type { Account } from '../domain/types';

export const STATE_VERSION = 2;

/**
 * What a job's handler returns when the work it started (and detached) takes its job off the state once done: the job
 * stays there meanwhile, and this process does not run it again unless its queue is rebuilt (the handler then answers
 * again). Beside Job, so that a handler outside services/ (webhooks/) needs nothing of the scheduler but this.
 */
export const KEEP_JOB: unique symbol = Symbol('keep the job');

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
const ACCOUNT_COLLECTIONS = { events: () => [], customers: () => [], webhooks: () => [], deliveries: () => ({}), balanceBlocks: () => ({}), idempotency: () => ({}), paymentLinks: () => ({}), staticQrs: () => ({}), bankAccounts: () => [], pixKeys: () => [], cobs: () => ({}), locs: () => ({}), lotesCobV: () => ({}), recs: () => ({}), locrecs: () => ({}), solicrecs: () => ({}), cobrs: () => ({}) };

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
