// The state and where it lives. One plain JSON-serializable object, addressed by account (tenancy is part of the
// address). Memory by default; with a data file, a change is on disk before the response that reports it: requests
// mark the state changed and await `flush()`, and every flush requested while a write is running shares the next
// single write (group commit), so N concurrent requests cost one JSON.stringify and one atomic file replace, not N.
// The file is written by lowdb's TextFile adapter (steno: temp file + rename), so a crash mid-write leaves the old file.
import { TextFile } from 'lowdb/node';
import type { ClockState } from '../lib/clock';
import type { Account } from '../domain/types';
import { SandboxError } from '../domain/errors';

export const STATE_VERSION = 1;

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
  /** Work that falls due on the sandbox clock, sorted by dueAt (then insertion). */
  jobs: Job[];
}

export const emptyState = (): State => ({
  version: STATE_VERSION,
  clock: { offsetMs: 0, frozenAt: null },
  signingKey: null,
  accounts: {},
  jobs: [],
});

/**
 * Collections that later versions added to an account: a data file written before them loads with them empty, so an
 * older file keeps working instead of failing on the first event, delivery or block.
 */
const ACCOUNT_COLLECTIONS = { events: () => [], customers: () => [], webhooks: () => [], deliveries: () => ({}), balanceBlocks: () => ({}), idempotency: () => ({}) };

function withDefaults(state: State): State {
  for (const account of Object.values(state.accounts ?? {})) {
    const record = account as unknown as Record<string, unknown>;
    for (const [key, empty] of Object.entries(ACCOUNT_COLLECTIONS)) record[key] ??= empty();
  }
  state.jobs ??= [];
  return state;
}

export interface Store {
  readonly state: State;
  readonly persistent: boolean;
  account(id: string): Account;
  findAccount(id: string): Account | undefined;
  /** Mark the state as changed; the next flush writes it. */
  changed(): void;
  /** Resolves once every change made so far is on disk (at once in memory). */
  flush(): Promise<void>;
  /** Swap the whole state (reset, load). */
  replace(next: State): void;
}

export async function openStore(dataFile?: string): Promise<{ store: Store; loaded: boolean }> {
  let state = emptyState();
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
      if (parsed.version !== STATE_VERSION) {
        throw new Error(`The data file ${dataFile} has state version ${parsed.version}; this sandbox reads version ${STATE_VERSION}.`);
      }
      state = withDefaults(parsed);
      loaded = true;
    }
  }

  let dirty = false;
  let writing: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  const write = (): Promise<void> => {
    dirty = false;
    const text = JSON.stringify(state);
    const done = file!.write(text).finally(() => {
      if (writing === done) writing = null;
    });
    writing = done;
    return done;
  };

  const store: Store = {
    get state() {
      return state;
    },
    persistent: file !== null,
    findAccount: (id) => (Object.hasOwn(state.accounts, id) ? state.accounts[id] : undefined),
    account(id) {
      const acc = store.findAccount(id);
      if (!acc) throw new SandboxError('ACCOUNT_NOT_FOUND', `No account with id '${id}'. List accounts with GET /_sandbox/accounts.`, { resource: 'account', id });
      return acc;
    },
    changed() {
      dirty = true;
    },
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
      state = nextState;
      dirty = true;
    },
  };
  return { store, loaded };
}
