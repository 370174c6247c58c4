// --retain-transactions (sandbox.md 6.1, docs/data.md): settled transactions last changed before a cutoff are deleted,
// and what hangs on them goes with them. The rules:
// - A transaction goes with its group: a payment, its fee and split legs, its refunds and their fees, its chargeback
//   (each names the one it belongs to in relatedTransactionId). A group goes only whole, when every member is settled
//   (completed, failed or cancelled: never pending, so never a withdrawal or refund in flight) and last changed
//   before the cutoff. So what is left of a payment to refund is never misread from a refund deleted without it.
// - A group stays while something still needs it: an open balance block or dispute (awaiting_response, defended) on a
//   member, a job of the scheduler that names a member, a recurring charge (cobr) of Pix Automático, a cob that a
//   batch of cobv lists or a recurrence names (its Jornada 3 charge). A cob of the standard face goes with its transaction, and its location with it.
// - Balances do not move: the ledger entries of deleted transactions are folded into one carried-forward entry per
//   wallet and bucket (CARRIED_FORWARD, kept at the head of the ledger and added to in place), so every balance still
//   equals the sum of its ledger. Events older than the cutoff whose deliveries are all finished go with those
//   deliveries; idempotency entries older than both the cutoff and their 24 h go too.
// Deleting transactions writes keyed records (one journal record each); the ledger and events are arrays, which the
// journal writes whole when anything but an append changes them, so they are rewritten at most once per account per
// sweep (compactLedgerAndEvents), and only when an eighth of the array or more goes.
import type { Deps } from '../deps';
import type { Account, Bucket, LedgerEntry, Transaction } from '../domain/types';
import { nowOf } from './clocks';

/** The transactionId of carried-forward ledger entries: no transaction has it. */
export const CARRIED_FORWARD = 'carried-forward';
const carriedId = (walletId: string, bucket: Bucket) => `${CARRIED_FORWARD}:${walletId}:${bucket}`;
/** Idempotency-Keys are remembered for 24 h (services/idempotency.ts); an older entry answers nothing. */
const IDEMPOTENCY_MS = 86_400_000;
const LIVE_BLOCK = new Set(['awaiting_response', 'defended']);

/** The group a transaction belongs to: the one its relatedTransactionId chain starts from. */
function rootOf(txs: Record<string, Transaction>, tx: Transaction): string {
  let at = tx;
  for (let i = 0; i < 8 && at.relatedTransactionId !== undefined && Object.hasOwn(txs, at.relatedTransactionId); i++) at = txs[at.relatedTransactionId]!;
  return at.id;
}

/**
 * The groups of `account` that may go at `cutoffMs` as [root, members], oldest first. One pass over every transaction,
 * kept lean (a lone transaction, the most common group, costs one push): on a loaded machine a Map of 100,000 arrays
 * took half a second.
 */
function deletableGroups(deps: Deps, account: Account, cutoffMs: number): Array<[string, string[]]> {
  const txs = account.transactions;
  const kept = new Set<string>();
  const roots: string[] = [];
  const children = new Map<string, string[]>();
  for (const id in txs) {
    const tx = txs[id]!;
    const lone = tx.relatedTransactionId === undefined || !Object.hasOwn(txs, tx.relatedTransactionId);
    const root = lone ? id : rootOf(txs, tx);
    if (tx.status === 'pending' || tx.updatedAt >= cutoffMs) kept.add(root);
    else if (lone) roots.push(id);
    else {
      const members = children.get(root);
      if (members) members.push(id);
      else children.set(root, [id]);
    }
  }
  for (const id of neededBy(deps, account)) if (Object.hasOwn(txs, id)) kept.add(rootOf(txs, txs[id]!));
  const groups: Array<[string, string[]]> = [];
  for (const root of roots) if (!kept.has(root)) groups.push([root, [root, ...(children.get(root) ?? [])]]);
  return groups;
}

/**
 * The transactions something other than a transaction still needs: a member of an open block or dispute, a job's ref, a
 * cobr's charge, a cob a batch of cobv lists or a recurrence names (its Jornada 3 charge). Costs what those hold, not
 * what the transactions do.
 */
function neededBy(deps: Deps, account: Account): string[] {
  const needed: Array<string | undefined> = [];
  for (const block of Object.values(account.balanceBlocks)) if (LIVE_BLOCK.has(block.status)) needed.push(block.transactionId, block.chargebackTransactionId);
  for (const job of Object.values(deps.store.raw.jobs)) if (job.accountId === account.id ) needed.push(job.ref);
  for (const cobr of Object.values(account.cobrs)) needed.push(cobr.transactionId);
  const named = new Set([...Object.values(account.lotesCobV).flatMap((l) => l.cobsv.map((c) => c.txid)), ...Object.values(account.recs).map((r) => r.txidJornada)]);
  for (const cob of Object.values(account.cobs)) if (named.has(cob.id)) needed.push(cob.transactionId);
  return needed.filter((id): id is string => id !== undefined);
}

/**
 * One run's list of candidate groups (a run: calls until one deletes less than `max`), so that a call costs what it
 * deletes and not a pass over every transaction: 200 calls over 100,000 transactions took 107 ms each, pausing the
 * event loop as long. A candidate is checked again when its turn comes: each member still held, settled and older
 * than the cutoff, none needed (neededBy), and none touched since the list was made. A transaction that joins a
 * group later (a refund, a block's chargeback) or a member that moves money posts to the ledger, which is appended
 * to: the entries after `ledgerSeen` name what changed. The list is made again when the ledger was rewritten, the
 * state replaced or undone (epoch), or the cutoff passed the instant the list was made (groups made since may be old).
 */
interface Plan {
  /** [root, members] of each candidate group. */
  groups: Array<[string, string[]]>;
  /** The txid of each cob by its transaction, as the list was made (a cob made since has a pending transaction). */
  cobOf: Map<string, string>;
  next: number;
  ledger: LedgerEntry[];
  ledgerSeen: number;
  epoch: number;
  madeAt: number;
  cutoffMs: number;
  /** Roots of candidate groups changed since the list was made: kept for this run. */
  spoiled: Set<string>;
}
const plans = new WeakMap<Account, Plan>();

function planOf(deps: Deps, account: Account, cutoffMs: number): Plan {
  const plan = plans.get(account);
  if (plan && plan.epoch === deps.store.epoch && plan.ledger === account.ledger && plan.ledgerSeen <= account.ledger.length && cutoffMs >= plan.cutoffMs && cutoffMs < plan.madeAt) return plan;
  const made: Plan = {
    groups: deletableGroups(deps, account, cutoffMs),
    cobOf: new Map(Object.values(account.cobs).map((c) => [c.transactionId, c.id])),
    next: 0,
    ledger: account.ledger,
    ledgerSeen: account.ledger.length,
    epoch: deps.store.epoch,
    madeAt: nowOf(deps, account),
    cutoffMs,
    spoiled: new Set(),
  };
  plans.set(account, made);
  return made;
}

/** Marks the groups changed since the plan was made (ledger entries after ledgerSeen) or needed now. */
function spoil(deps: Deps, account: Account, plan: Plan): void {
  const txs = account.transactions;
  const mark = (id: string) => {
    if (Object.hasOwn(txs, id)) plan.spoiled.add(rootOf(txs, txs[id]!));
  };
  const ledger = account.ledger;
  for (let i = plan.ledgerSeen; i < ledger.length; i++) mark(ledger[i]!.transactionId);
  plan.ledgerSeen = ledger.length;
  for (const id of neededBy(deps, account)) mark(id);
}

/**
 * Deletes up to `max` of the account's settled transactions last changed before `cutoffMs` (ms on the tenant's clock),
 * whole groups at a time, with their cobs and finished balance blocks; returns how many transactions it deleted. Runs
 * inside the caller's unit: reads the raw state, writes through deps.store.state.
 */
export function retainTransactions(deps: Deps, accountId: string, cutoffMs: number, max: number): number {
  const raw = deps.store.raw.accounts[accountId];
  if (!raw) return 0;
  const plan = planOf(deps, raw, cutoffMs);
  spoil(deps, raw, plan);
  const txs = raw.transactions;
  const account = deps.store.state.accounts[accountId]!;
  const gone = new Set<string>();
  const settledBefore = (id: string) => Object.hasOwn(txs, id) && txs[id]!.status !== 'pending' && txs[id]!.updatedAt < cutoffMs;
  while (gone.size < max && plan.next < plan.groups.length) {
    const [root, members] = plan.groups[plan.next++]!;
    if (plan.spoiled.has(root) || !members.every(settledBefore)) continue;
    for (const id of members) {
      gone.add(id);
      delete account.transactions[id];
    }
  }
  if (gone.size < max) plans.delete(raw); // the run ends here: the next one makes a new list
  if (gone.size === 0) return 0;
  for (const id of gone) {
    const txid = plan.cobOf.get(id);
    const cob = txid === undefined ? undefined : raw.cobs[txid];
    if (cob?.transactionId !== id) continue;
    if (cob.locId !== undefined && raw.locs[String(cob.locId)]?.txid === cob.id) delete account.locs[String(cob.locId)];
    delete account.cobs[cob.id];
  }
  for (const [id, block] of Object.entries(raw.balanceBlocks)) if (gone.has(block.transactionId) || gone.has(block.chargebackTransactionId)) delete account.balanceBlocks[id];
  return gone.size;
}

/**
 * Whether an array is rewritten to drop `dropped` of its `length` entries: when they are at least an eighth of it, so
 * the journal writes at most about eight times what is dropped, however often sweeps run.
 */
const worthRewriting = (dropped: number, length: number) => dropped > 0 && dropped * 8 >= length;

/**
 * Folds the ledger entries of transactions no longer held into the carried-forward entries, and deletes the events
 * older than `cutoffMs` whose deliveries are all finished (with those deliveries), each when worth rewriting; and the
 * idempotency entries past both the cutoff and their 24 h. One unit; writes nothing when there is nothing to do.
 */
export function compactLedgerAndEvents(deps: Deps, accountId: string, cutoffMs: number, nowMs: number): void {
  const raw = deps.store.raw.accounts[accountId];
  if (!raw) return;
  const account = deps.store.state.accounts[accountId]!;
  const txs = raw.transactions;
  let folded = 0;
  for (const e of raw.ledger) if (e.transactionId !== CARRIED_FORWARD && !Object.hasOwn(txs, e.transactionId)) folded++;
  if (worthRewriting(folded, raw.ledger.length)) {
    const carried = new Map<string, LedgerEntry>();
    const kept: LedgerEntry[] = [];
    for (const e of raw.ledger) {
      if (e.transactionId !== CARRIED_FORWARD && Object.hasOwn(txs, e.transactionId)) {
        kept.push(e);
        continue;
      }
      const id = carriedId(e.walletId, e.bucket);
      const into = carried.get(id);
      if (into) {
        into.amount += e.amount;
        into.at = Math.max(into.at, e.at);
      } else carried.set(id, { id, walletId: e.walletId, bucket: e.bucket, amount: e.amount, transactionId: CARRIED_FORWARD, at: e.at });
    }
    account.ledger = [...carried.values(), ...kept];
  }

  const events = raw.events;
  let old = 0;
  while (old < events.length && events[old]!.createdAt < cutoffMs) old++;
  if (old > 0) {
    const byEvent = new Map<string, string[]>();
    const unfinished = new Set<string>();
    for (const [id, d] of Object.entries(raw.deliveries)) {
      const list = byEvent.get(d.eventRecordId);
      if (list) list.push(id);
      else byEvent.set(d.eventRecordId, [id]);
      if (d.state === 'pending') unfinished.add(d.eventRecordId);
    }
    const going = events.slice(0, old).filter((e) => !unfinished.has(e.id));
    if (worthRewriting(going.length, events.length)) {
      const goingIds = new Set(going.map((e) => e.id));
      for (const e of going) for (const d of byEvent.get(e.id) ?? []) delete account.deliveries[d];
      account.events = events.filter((e) => !goingIds.has(e.id));
    }
  }

  const stale = Math.min(cutoffMs, nowMs - IDEMPOTENCY_MS);
  for (const [key, entry] of Object.entries(raw.idempotency)) if (entry.createdAt < stale) delete account.idempotency[key];
}
