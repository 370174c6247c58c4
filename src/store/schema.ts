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

const Balances = z.looseObject({ available: cents, held: cents, promotional: cents });
const Wallet = entity({ reference: z.string().nullable(), balances: Balances, updatedAt: ms });
const Transaction = entity({
  walletId: id,
  type: z.string(),
  status: z.enum(['pending', 'completed', 'failed', 'cancelled']),
  amount: cents,
  createdAt: ms,
  updatedAt: ms,
  charge: z.looseObject({ pixCopyPaste: z.string(), expiresAt: ms }).optional(),
});
const Delivery = entity({ eventRecordId: id, endpointId: id, state: z.enum(['pending', 'succeeded', 'failed']), nextAttemptAt: ms.nullable(), attempts: z.array(z.looseObject({ at: ms })) });
const BalanceBlock = entity({ walletId: id, transactionId: id, amount: cents, status: z.enum(BALANCE_BLOCK_STATUSES), blockType: z.enum(BLOCK_TYPES) });
const Idempotency = z.looseObject({ key: z.string(), fingerprint: z.string(), status: z.number().int(), body: z.string(), createdAt: ms });

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
  transactions: keyed(Transaction),
  ledger: z.array(entity({ walletId: id, bucket: z.enum(['available', 'held', 'promotional']), amount: cents, transactionId: id })),
  idempotency: keyed(Idempotency),
  webhooks: z.array(entity({ url: z.string().nullable(), secret: z.string(), events: z.array(z.string()) })),
  events: z.array(entity({ event: z.string(), body: z.string() })),
  deliveries: keyed(Delivery),
  customers: z.array(entity({})),
  balanceBlocks: keyed(BalanceBlock),
});

const Job = entity({ dueAt: ms, kind: z.string(), accountId: z.string(), ref: z.string() });

/** A data file's state (after the upgrade of an older version's collections). */
export const StateSchema = z.looseObject({
  version: z.number().int(),
  journalSeq: z.number().int().min(0).optional(),
  clock: z.looseObject({ offsetMs: z.number(), frozenAt: ms.nullable() }),
  signingKey: z.looseObject({ kty: z.string(), d: z.string() }).nullable(),
  accounts: keyed(Account),
  jobs: keyed(Job),
});

/** "accounts.<id>.transactions.<id>.amount: expected number, received string", for the first few problems. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const issues = error.issues.slice(0, max).map((i) => `${i.path.length > 0 ? i.path.join('.') : '(top level)'}: ${i.message}`);
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return `${issues.join('; ')}${more}`;
}
