// How many records a sandbox holds before it makes no new ones (sandbox.md 6.1, docs/data.md). A record is a stored
// transaction (a charge, a payment, a refund and its fee, a withdrawal, an adjustment); what comes with one (its
// ledger lines, events, webhook deliveries, idempotency entry) is counted in the bytes a record is reckoned to take.
// At the limit, creates (charges on every face, cobs, withdrawals) answer 507 STORAGE_FULL; reads, deletes, payments
// and control actions go on, so a full sandbox can always be emptied. The store counts the records as units write
// them (store/unit.ts), so the check is one comparison.
import { builtin } from '../lib/builtin';
import { SandboxError } from '../domain/errors';
import type { Deps } from '../deps';

/**
 * Heap a stored record is reckoned to take with what comes with it. Measured (bench/results/storage.md): about 930 B of
 * RSS per charge made through POST /v2/pix and left pending; a paid one adds ledger lines, events and deliveries.
 */
export const BYTES_PER_RECORD = 2048;
/** Share of the heap limit the records may fill: the rest is for requests, folds' garbage and what is not counted. */
export const HEAP_SHARE = 0.75;

const v8 = builtin<typeof import('node:v8')>('node:v8');

/** The default of --max-records: HEAP_SHARE of this process's heap limit, BYTES_PER_RECORD a record, in thousands. */
export function defaultMaxRecords(heapLimitBytes = v8().getHeapStatistics().heap_size_limit): number {
  return Math.max(1000, Math.floor((heapLimitBytes * HEAP_SHARE) / BYTES_PER_RECORD / 1000) * 1000);
}

/** The limit in force: --max-records when given, else the default from the heap limit (worked out once). */
let derived: number | undefined;
export function maxRecords(deps: Deps): number {
  return deps.settings.maxRecords ?? (derived ??= defaultMaxRecords());
}

/** Records held against the limit, for health and the banner. */
export function recordsHeld(deps: Deps): { held: number; limit: number; full: boolean } {
  const held = deps.store.records;
  const limit = maxRecords(deps);
  return { held, limit, full: held >= limit };
}

/**
 * When the oldest record held was made (ms on its tenant's clock), or null when none is held. An account's transactions
 * are kept in the order they were made, so this reads the first of each account. Finding that first record lists
 * every key of a collection V8 keeps as a dictionary (for..in with a break still does: 4 s at 1M records on a loaded
 * machine, in the first GET /_sandbox/health after a restart), so each account's first record is remembered and only
 * looked for again once it is no longer there.
 */
export function oldestRecordMs(deps: Deps): number | null {
  let oldest: number | null = null;
  const accounts = deps.store.state.accounts;
  for (const account of Object.values(accounts)) {
    const at = firstRecord(account.transactions)?.createdAt;
    if (at !== undefined && (oldest === null || at < oldest)) oldest = at;
  }
  return oldest;
}

/** Each transactions collection's first record, with its key. */
const firsts = new WeakMap<object, { key: string; record: { createdAt?: number } }>();
function firstRecord(transactions: Record<string, { createdAt?: number }>): { createdAt?: number } | undefined {
  const known = firsts.get(transactions);
  if (known && transactions[known.key] === known.record) return known.record;
  for (const key in transactions) {
    const record = transactions[key]!;
    firsts.set(transactions, { key, record });
    return record;
  }
  firsts.delete(transactions);
  return undefined;
}

/** Throws 507 STORAGE_FULL when the sandbox holds its limit of records: called by the verbs that create one. */
export function roomForRecords(deps: Deps): void {
  const { held, limit, full } = recordsHeld(deps);
  if (!full) return;
  throw new SandboxError(
    'STORAGE_FULL',
    `This sandbox holds ${held} records (stored transactions), its limit (--max-records ${limit}), so it makes no new ones. Make room: delete tenants you no longer need (DELETE /_sandbox/accounts/{id}) or reset it (POST /_sandbox/reset); or restart it with a higher --max-records (each record takes about ${BYTES_PER_RECORD} bytes of heap: raise Node's heap with NODE_OPTIONS=--max-old-space-size=MB to hold more). Reads, deletes, payments and control actions keep working.`,
    { limit, records: held },
  );
}
