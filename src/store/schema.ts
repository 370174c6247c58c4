// The shape a data file must have to be loaded (sandbox.md 6: a file of the wrong shape stops the start with a
// message that says what is wrong and where). It checks what the sandbox relies on to run, not every optional field:
// the top level, each account's fields and collections, and the fields of each stored entity that code dereferences.
// Entities keep their other fields (loose objects), so a file written by a later minor change still loads.
import { z } from 'zod';
import { ACCOUNT_STATUSES, BALANCE_BLOCK_STATUSES, BLOCK_TYPES } from '../domain/types';

const id = z.string().min(1);
const ms = z.number();
const cents = z.number().int();
const entity = <T extends z.ZodRawShape>(shape: T) => z.looseObject({ id, ...shape });
/** A keyed collection: each key is its entity's id. */
const keyed = <T extends z.ZodType>(schema: T) => z.record(z.string(), schema);

type Kind = 'string' | 'int' | 'number' | 'array';
type Check = [field: string, kind: Kind];
const EXPECTED: Record<Kind, string> = { string: 'a string', int: 'an integer', number: 'a number', array: 'an array' };
const TEST: Record<Kind, (v: string) => string> = {
  string: (v) => `typeof ${v} === 'string'`,
  int: (v) => `Number.isInteger(${v})`,
  number: (v) => `typeof ${v} === 'number'`,
  array: (v) => `Array.isArray(${v})`,
};
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const received = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Each bulk collection's check of one entry, by the collection's name (entryCheck). */
const ENTRY_CHECKS = new Map<string, (entry: unknown) => boolean>();
/** While parseState runs: the collections whose entries were checked as the data file was read. */
let checkedAsRead: ((collection: object) => boolean) | undefined;

/**
 * A collection that may hold 100,000 entries (charges, their idempotency entries, deliveries, ledger lines, events,
 * jobs): each entry is checked for the fields the code dereferences by a loop compiled for those fields (constant
 * property names, as zod's own JIT does), not a zod object per entry, which costs 40 µs an entry and a copy of each
 * (seconds, and hundreds of MB, at start-up for a big file). The value is passed through as it is.
 */
const bulk = (name: string, kind: 'keyed' | 'list', checks: Check[]) => {
  // Returns the index of the first failing check of an entry, -1 when it passes, -2 when it is not an object.
  const test = new Function(
    'e',
    `if (e === null || typeof e !== 'object' || Array.isArray(e)) return -2; ${checks.map(([f, k], i) => `if (!(${TEST[k](`e[${JSON.stringify(f)}]`)})) return ${i};`).join(' ')} return -1;`,
  ) as (e: unknown) => number;
  ENTRY_CHECKS.set(name, (e) => test(e) === -1);
  return z.custom<unknown>().superRefine((value, ctx) => {
    if (kind === 'keyed' ? !isObj(value) : !Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: `expected ${kind === 'keyed' ? 'an object keyed by id' : 'an array'}, received ${received(value)}` });
      return;
    }
    if (checkedAsRead?.(value as object)) return;
    const entries = value as Record<string, unknown>;
    for (const key of Object.keys(entries)) {
      const entry = entries[key];
      const failed = test(entry);
      if (failed === -1) continue;
      const at = kind === 'keyed' ? key : Number(key);
      if (failed === -2) ctx.addIssue({ code: 'custom', path: [at], message: `expected an object, received ${received(entry)}` });
      else {
        const [field, k] = checks[failed]!;
        ctx.addIssue({ code: 'custom', path: [at, field], message: `expected ${EXPECTED[k]}, received ${received((entry as Record<string, unknown>)[field])}` });
      }
      return;
    }
  });
};

const Balances = z.looseObject({ available: cents, held: cents, promotional: cents });
const Wallet = entity({ reference: z.string().nullable(), balances: Balances, updatedAt: ms });
const Transaction = bulk('transactions', 'keyed', [
  ['id', 'string'],
  ['walletId', 'string'],
  ['type', 'string'],
  ['status', 'string'],
  ['amount', 'int'],
  ['createdAt', 'number'],
]);
const Delivery = bulk('deliveries', 'keyed', [
  ['id', 'string'],
  ['eventRecordId', 'string'],
  ['endpointId', 'string'],
  ['state', 'string'],
  ['attempts', 'array'],
]);
const BalanceBlock = entity({ walletId: id, transactionId: id, amount: cents, status: z.enum(BALANCE_BLOCK_STATUSES), blockType: z.enum(BLOCK_TYPES) });
const Idempotency = bulk('idempotency', 'keyed', [
  ['key', 'string'],
  ['fingerprint', 'string'],
  ['status', 'int'],
  ['body', 'string'],
  ['createdAt', 'number'],
]);
const Ledger = bulk('ledger', 'list', [
  ['id', 'string'],
  ['walletId', 'string'],
  ['bucket', 'string'],
  ['amount', 'int'],
  ['transactionId', 'string'],
]);
const Events = bulk('events', 'list', [
  ['id', 'string'],
  ['event', 'string'],
  ['body', 'string'],
]);

const Account = entity({
  name: z.string(),
  environment: z.enum(['sandbox', 'production']),
  status: z.enum(ACCOUNT_STATUSES),
  createdAt: ms,
  city: z.string(),
  institutionChoice: z.boolean(),
  fees: z.looseObject({}),
  limits: z.looseObject({}),
  automation: z.looseObject({}),
  webhookRetrySchedule: z.array(z.number()),
  wallets: keyed(Wallet),
  subAccounts: z.array(entity({ reference: z.string(), status: z.enum(ACCOUNT_STATUSES) })),
  credentials: z.array(entity({ clientId: z.string(), clientSecret: z.string(), permissions: z.array(z.string()), tokenGeneration: z.number().int().min(0).optional() })),
  apiKeys: z.array(entity({ key: z.string(), permissions: z.array(z.string()) })),
  projects: z.array(entity({ walletId: id, name: z.string() })),
  institutions: z.array(entity({ name: z.string() })),
  transactions: Transaction,
  ledger: Ledger,
  idempotency: Idempotency,
  webhooks: z.array(entity({ url: z.string().nullable(), secret: z.string(), events: z.array(z.string()) })),
  events: Events,
  deliveries: Delivery,
  customers: z.array(entity({})),
  balanceBlocks: keyed(BalanceBlock),
  /** A clock of its own (services/clocks.ts); absent: the tenant runs on the sandbox clock. */
  clock: z.looseObject({ offsetMs: z.number(), frozenAt: ms.nullable() }).optional(),
  /** Retention (services/retention.ts): its own period and when a request last touched it. */
  retainMs: z.number().positive().optional(),
  touchedAt: ms.optional(),
});

const Jobs = bulk('jobs', 'keyed', [
  ['id', 'string'],
  ['dueAt', 'number'],
  ['kind', 'string'],
  ['accountId', 'string'],
  ['ref', 'string'],
]);

/** A data file's state (after the upgrade of an older version's collections). */
export const StateSchema = z.looseObject({
  version: z.number().int(),
  journalSeq: z.number().int().min(0).optional(),
  clock: z.looseObject({ offsetMs: z.number(), frozenAt: ms.nullable() }),
  signingKey: z.looseObject({ kty: z.string(), d: z.string() }).nullable(),
  accounts: keyed(Account),
  jobs: Jobs,
});

/**
 * Checks `value` as a data file's state. `checked` names the collections (of those checked entry by entry) whose every
 * entry passed entryCheck as the file was read (./as-read.ts): they are not listed again.
 */
export function parseState(value: unknown, checked?: (collection: object) => boolean) {
  checkedAsRead = checked;
  try {
    return StateSchema.safeParse(value, { jitless: true });
  } finally {
    checkedAsRead = undefined;
  }
}

/**
 * The check of one entry of the collection `name` (an account's `transactions`, `deliveries`, `idempotency`, `ledger`
 * or `events`, or `jobs`) that the state's check makes of each: true when it passes. Undefined for other collections.
 */
export const entryCheck = (name: string): ((entry: unknown) => boolean) | undefined => ENTRY_CHECKS.get(name);

/** "accounts.<id>.transactions.<id>.amount: expected number, received string", for the first few problems. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const issues = error.issues.slice(0, max).map((i) => `${i.path.length > 0 ? i.path.join('.') : '(top level)'}: ${i.message}`);
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return `${issues.join('; ')}${more}`;
}

/** Collections whose entries are keyed by their own `id` (a journal line that files one under another key was changed). */
const KEYED_BY_ID = new Set(['transactions', 'wallets', 'deliveries', 'balanceBlocks']);
const ACCOUNT_FIELDS = Account.shape as Record<string, z.ZodType>;
const TOP_FIELDS = StateSchema.shape as Record<string, z.ZodType>;

const issuesOf = (result: { success: boolean; error?: z.ZodError }, prefix: (string | number)[]): string | null =>
  result.success ? null : describeIssues(new z.ZodError(result.error!.issues.map((i) => ({ ...i, path: [...prefix, ...i.path] }))));

/**
 * Checks one op of a journal line ([path] or [path, value], ./unit.ts) against the schema of the snapshot, for the
 * record it writes: a whole account, an account field or collection, one entry of a collection, a job, a top-level
 * field. Returns what is wrong, or null. The start refuses a journal with such a line (sandbox.md 11).
 */
export function checkOp(op: unknown): string | null {
  if (!Array.isArray(op) || op.length < 1 || op.length > 2) return 'an op is not [path] or [path, value]';
  const path = op[0] as unknown;
  if (!Array.isArray(path) || path.length === 0 || path.some((p) => typeof p !== 'string' && typeof p !== 'number')) return `an op's path ${JSON.stringify(path)} is not a list of keys`;
  const at = path as (string | number)[];
  if (op.length === 1) return null; // a deletion: nothing to check but its path
  const value = op[1] as unknown;
  const idMatches = (key: string | number) => (isObj(value) && value.id === key ? null : `${at.join('.')}: its id ${JSON.stringify(isObj(value) ? value.id : undefined)} is not the key it is filed under (${key})`);
  const [top, id, field, key] = at;
  if (at.length === 1) {
    const schema = TOP_FIELDS[String(top)];
    return schema ? issuesOf(schema.safeParse(value, { jitless: true }), at) : null;
  }
  if (top === 'jobs' && at.length === 2) return issuesOf(Jobs.safeParse({ [id!]: value }), ['jobs']) ?? idMatches(id!);
  if (top !== 'accounts' || at.length > 4) return `${at.join('.')} is not a record of a sandbox state`;
  if (at.length === 2) return issuesOf(Account.safeParse(value, { jitless: true }), at) ?? idMatches(id!);
  const schema = ACCOUNT_FIELDS[String(field)];
  if (!schema) return null; // a field the shape does not pin down (loose)
  if (at.length === 3) return issuesOf(schema.safeParse(value, { jitless: true }), at);
  if (typeof key === 'number') return issuesOf(schema.safeParse([value], { jitless: true }), at.slice(0, 3));
  return issuesOf(schema.safeParse({ [key!]: value }, { jitless: true }), at.slice(0, 3)) ?? (KEYED_BY_ID.has(String(field)) ? idMatches(key!) : null);
}

