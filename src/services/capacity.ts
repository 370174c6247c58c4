// How much a sandbox holds before it makes no new records (sandbox.md 6.1 and 11, docs/data.md). A record is a stored
// transaction (a charge, a payment, a refund and its fee, a withdrawal, an adjustment); what comes with one (its
// ledger lines, events, webhook deliveries, idempotency entry) is counted in the bytes a record is reckoned to take,
// and what a client makes its free-form fields weigh (metadata, infoAdicionais) is added to it (store/weight.ts). The
// budget is in those bytes: a create whose record would pass it answers 507 STORAGE_FULL, whatever the record's size;
// reads, deletes, payments and control actions go on, so a full sandbox can always be emptied. The store keeps the
// weight held as units write (store/unit.ts), so the check is one comparison.
import { builtin } from '../lib/builtin';
import { SandboxError } from '../domain/errors';
import type { Deps } from '../deps';
import { BYTES_PER_RECORD, entryWeight } from '../store/weight';
import { firstRecord } from '../store/first-records';

export { BYTES_PER_RECORD } from '../store/weight';
/** Share of the heap limit the records may fill: the rest is for requests, the request log, folds' garbage and what is not counted. */
export const HEAP_SHARE = 0.75;

const v8 = builtin<typeof import('node:v8')>('node:v8');

/** This process's heap limit in bytes (Node's default, or NODE_OPTIONS=--max-old-space-size). */
export const heapLimit = (): number => v8().getHeapStatistics().heap_size_limit;

/** The default of --max-records: HEAP_SHARE of this process's heap limit, BYTES_PER_RECORD a record, in thousands. */
export function defaultMaxRecords(heapLimitBytes = heapLimit()): number {
  return Math.max(1000, Math.floor((heapLimitBytes * HEAP_SHARE) / BYTES_PER_RECORD / 1000) * 1000);
}

/**
 * The budget in force, in bytes: --max-bytes when given, else --max-records records of BYTES_PER_RECORD, else the
 * default from the heap limit (worked out once).
 */
let derived: number | undefined;
export function maxBytes(deps: Deps): number {
  const { maxBytes: given, maxRecords: records } = deps.settings;
  return given ?? (records ?? (derived ??= defaultMaxRecords())) * BYTES_PER_RECORD;
}

/** The budget as records of BYTES_PER_RECORD (--max-records when given). */
export const maxRecords = (deps: Deps): number => deps.settings.maxRecords ?? Math.floor(maxBytes(deps) / BYTES_PER_RECORD);

/** What a new transaction with these free-form fields weighs: what a create checks there is room for. */
export const recordWeight = (fields: { metadata?: unknown; infoAdicionais?: unknown } = {}): number => entryWeight('transactions', fields);

/**
 * Records and bytes held against the budget, for health and the banner; `full`: not even a record without free-form
 * fields fits (creates with bigger ones may be refused before that).
 */
export function recordsHeld(deps: Deps): { held: number; limit: number; bytes: number; maxBytes: number; full: boolean } {
  const bytes = deps.store.bytes;
  const budget = maxBytes(deps);
  return { held: deps.store.records, limit: maxRecords(deps), bytes, maxBytes: budget, full: bytes + BYTES_PER_RECORD > budget };
}

/**
 * When the oldest record held was made (ms on its tenant's clock), or null when none is held: the first record of each
 * account (../store/first-records.ts).
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

/**
 * Why a sandbox past its budget still reads everything it holds but makes no new records, where the limit comes from
 * and what raises it: for the banner, the start's log and health (`storageNote`); null while there is room.
 */
export function fullNote(deps: Deps): string | null {
  const room = recordsHeld(deps);
  if (!room.full) return null;
  const { maxBytes: givenBytes, maxRecords: givenRecords } = deps.settings;
  const heap = heapLimit();
  const source =
    givenBytes !== undefined ? `--max-bytes ${givenBytes}` : givenRecords !== undefined ? `--max-records ${givenRecords}` : `the heap limit: ${HEAP_SHARE * 100}% of ${mb(heap)} at ${BYTES_PER_RECORD} bytes a record`;
  const more = Math.ceil(Math.max(2 * room.held, room.limit + 1000) / 1000) * 1000;
  return (
    `${room.held} records held (${mb(room.bytes)}) are past the limit of ${room.limit} (${mb(room.maxBytes)}), which comes from ${source}. ` +
    `All of them were read and answer reads, payments, refunds and deletes; a create answers 507 STORAGE_FULL, because a record made past the limit would have no heap reserved for it. ` +
    `To grow it, restart with --max-records ${more} and a heap that holds them (NODE_OPTIONS=--max-old-space-size=${Math.ceil((more * BYTES_PER_RECORD) / HEAP_SHARE / 1048576)}), or delete tenants (DELETE /_sandbox/accounts/{id}).`
  );
}

/** Bytes in MB (of 1024 × 1024), one decimal. */
export function mb(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/**
 * Throws 507 STORAGE_FULL when what the sandbox holds and a new record of `weight` bytes (recordWeight) would pass the
 * budget: called by the verbs that create one, before their first write.
 */
export function roomForRecords(deps: Deps, weight = BYTES_PER_RECORD): void {
  const room = recordsHeld(deps);
  if (room.bytes + weight <= room.maxBytes) return;
  const { held, limit } = room;
  const budget = deps.settings.maxBytes !== undefined ? `--max-bytes ${room.maxBytes}` : `--max-records ${limit}, ${room.maxBytes} bytes`;
  const heavy = weight > BYTES_PER_RECORD ? ` This one would weigh ${weight} bytes, ${weight - BYTES_PER_RECORD} of them for its metadata or infoAdicionais: a smaller one may still fit.` : '';
  throw new SandboxError(
    'STORAGE_FULL',
    `This sandbox holds ${held} records (stored transactions) weighing ${room.bytes} bytes, and a new one would pass its budget (${budget}), so it makes no new ones.${heavy} Make room: delete tenants you no longer need (DELETE /_sandbox/accounts/{id}) or reset it (POST /_sandbox/reset); or restart it with a higher --max-records (each record is reckoned at ${BYTES_PER_RECORD} bytes of heap: give Node the heap for it with NODE_OPTIONS=--max-old-space-size=MB). Reads, deletes, payments and control actions keep working.`,
    { limit, records: held, bytes: room.bytes, maxBytes: room.maxBytes, weight },
  );
}
