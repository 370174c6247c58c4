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

type Check = [field: string, expected: string, ok: (v: unknown) => boolean];
const str: Check[1] = 'a string';
const isStr = (v: unknown) => typeof v === 'string';
const isInt = (v: unknown) => Number.isInteger(v);
const isNum = (v: unknown) => typeof v === 'number';
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const received = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * A collection that may hold 100,000 entries (charges, their idempotency entries, deliveries, ledger lines, events,
 * jobs): each entry is checked for the fields the code dereferences by a plain loop, not a zod object per entry,
 * which costs 40 µs an entry and a copy of each (seconds, and hundreds of MB, at start-up for a big file). The value
 * is passed through as it is.
 */
const bulk = (kind: 'keyed' | 'list', checks: Check[]) =>
  z.custom<unknown>().superRefine((value, ctx) => {
    if (kind === 'keyed' ? !isObj(value) : !Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: `expected ${kind === 'keyed' ? 'an object keyed by id' : 'an array'}, received ${received(value)}` });
      return;
    }
    const entries = value as Record<string, unknown>;
    for (const key of Object.keys(entries)) {
      const entry = entries[key];
      const at = kind === 'keyed' ? key : Number(key);
      if (!isObj(entry)) {
        ctx.addIssue({ code: 'custom', path: [at], message: `expected an object, received ${received(entry)}` });
        return;
      }
      for (const [field, expected, ok] of checks) {
        if (!ok(entry[field])) {
          ctx.addIssue({ code: 'custom', path: [at, field], message: `expected ${expected}, received ${received(entry[field])}` });
          return;
        }
      }
    }
  });

const Balances = z.looseObject({ available: cents, held: cents, promotional: cents });
const Wallet = entity({ reference: z.string().nullable(), balances: Balances, updatedAt: ms });
const Transaction = bulk('keyed', [
  ['id', str, isStr],
  ['walletId', str, isStr],
  ['type', str, isStr],
  ['status', str, isStr],
  ['amount', 'an integer (cents)', isInt],
  ['createdAt', 'a number (ms)', isNum],
]);
const Delivery = bulk('keyed', [
  ['id', str, isStr],
  ['eventRecordId', str, isStr],
  ['endpointId', str, isStr],
  ['state', str, isStr],
  ['attempts', 'an array', Array.isArray],
]);
const BalanceBlock = entity({ walletId: id, transactionId: id, amount: cents, status: z.enum(BALANCE_BLOCK_STATUSES), blockType: z.enum(BLOCK_TYPES) });
const Idempotency = bulk('keyed', [
  ['key', str, isStr],
  ['fingerprint', str, isStr],
  ['status', 'an integer', isInt],
  ['body', str, isStr],
  ['createdAt', 'a number (ms)', isNum],
]);
const Ledger = bulk('list', [
  ['id', str, isStr],
  ['walletId', str, isStr],
  ['bucket', str, isStr],
  ['amount', 'an integer (cents)', isInt],
  ['transactionId', str, isStr],
]);
const Events = bulk('list', [
  ['id', str, isStr],
  ['event', str, isStr],
  ['body', str, isStr],
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
  credentials: z.array(entity({ clientId: z.string(), clientSecret: z.string(), permissions: z.array(z.string()) })),
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
});

const Jobs = bulk('keyed', [
  ['id', str, isStr],
  ['dueAt', 'a number (ms)', isNum],
  ['kind', str, isStr],
  ['accountId', str, isStr],
  ['ref', str, isStr],
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

/** "accounts.<id>.transactions.<id>.amount: expected number, received string", for the first few problems. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const issues = error.issues.slice(0, max).map((i) => `${i.path.length > 0 ? i.path.join('.') : '(top level)'}: ${i.message}`);
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return `${issues.join('; ')}${more}`;
}
