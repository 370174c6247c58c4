// --retain-transactions (sandbox.md 6.1, docs/data.md): settled transactions last changed before a cutoff are deleted,
// and what hangs on them goes with them. The rules:
// - A transaction goes with its group: a payment, its fee and split legs, its refunds and their fees, its chargeback
//   (each names the one it belongs to in relatedTransactionId). A group goes only whole, when every member is settled
//   (completed, failed or cancelled: never pending, so never a withdrawal or refund in flight) and last changed
//   before the cutoff. So what is left of a payment to refund is never misread from a refund deleted without it.
// - A group stays while something still needs it: an open balance block or dispute (awaiting_response, defended) on a
//   member, a job of the scheduler that names a member, a recurring charge (cobr) of Pix Automático, a cob that a
//   batch of cobv lists or a recurrence names (its Jornada 3 charge). A cob of the standard face goes with its
//   transaction, and its location with it; a finished balance block with its payment.
// - Balances do not move: the ledger entries of deleted transactions are folded into one carried-forward entry per
//   wallet and bucket (CARRIED_FORWARD, at the head of the ledger, folded again into itself at each rewrite), so every
//   balance still equals the sum of its ledger. Events older than the cutoff whose deliveries are all finished go
//   with those deliveries; idempotency entries older than both the cutoff and their 24 h go too.
// Deleting transactions writes keyed records (one journal record each); the ledger and events are arrays, which the
// journal writes whole when anything but an append changes them, so they are rewritten at most once per account per
// sweep (compactLedgerAndEvents), and only when an eighth of the array or more goes.
import type { Deps } from '../deps';
import type { Bucket, LedgerEntry, Transaction } from '../domain/types';

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
 * What a sweep may delete of one account: its deletable groups (members, oldest group first) as one look at the
 * account found them, and which cob and balance blocks name each member. Made once per account and sweep, outside any
 * unit; each batch checks its groups again in its own unit (deleteFromPlan), so what changed since is kept.
 */
export interface RetentionPlan {
  accountId: string;
  cutoffMs: number;
  groups: string[][];
  /** A member's cob (its txid), for the members that have one. */
  cobOf: Map<string, string>;
  /** The balance blocks naming a member (as the payment or its chargeback). */
  blocksOf: Map<string, string[]>;
}

/** Entries looked at between two turns of the event loop (a plan's transactions, a ledger, the deliveries...). */
const PLAN_SLICE = 4096;

/** Lets the requests waiting on the event loop run. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `fn` on each index below `length`, PLAN_SLICE at a time, letting requests run between slices. */
async function sliced(length: number, fn: (i: number) => void): Promise<void> {
  for (let from = 0; from < length; from += PLAN_SLICE) {
    if (from > 0) await turn();
    for (let i = from; i < Math.min(length, from + PLAN_SLICE); i++) fn(i);
  }
}

/**
 * The plan of `accountId` at `cutoffMs` (ms on its clock), or null when nothing may go. It looks at the transactions a
 * slice at a time, letting requests run between slices (a look at 100,000 at once held the event loop for a third of a
 * second); what changes meanwhile is caught by each batch's own check and by hang().
 */
export async function planRetention(deps: Deps, accountId: string, cutoffMs: number): Promise<RetentionPlan | null> {
  const ids = Object.hasOwn(deps.store.raw.accounts, accountId) ? Object.keys(deps.store.raw.accounts[accountId]!.transactions) : [];
  const kept = new Set<string>();
  const groups = new Map<string, string[]>();
  await sliced(ids.length, (i) => {
    const txs = deps.store.raw.accounts[accountId]?.transactions; // the account may go while the plan yields
    const id = ids[i]!;
    const tx = txs?.[id];
    if (!tx) return;
    const root = tx.relatedTransactionId === undefined ? id : rootOf(txs!, tx);
    if (tx.status === 'pending' || tx.updatedAt >= cutoffMs) kept.add(root);
    else {
      const members = groups.get(root);
      if (members) members.push(id);
      else groups.set(root, [id]);
    }
  });
  const account = deps.store.raw.accounts[accountId];
  if (!account) return null;
  const txs = account.transactions;
  const keep = (txId: string | undefined) => {
    if (txId !== undefined && Object.hasOwn(txs, txId)) kept.add(rootOf(txs, txs[txId]!));
  };
  const blocksOf = new Map<string, string[]>();
  for (const block of Object.values(account.balanceBlocks)) {
    if (LIVE_BLOCK.has(block.status)) {
      keep(block.transactionId);
      keep(block.chargebackTransactionId);
    }
    for (const txId of [block.transactionId, block.chargebackTransactionId]) blocksOf.set(txId, [...(blocksOf.get(txId) ?? []), block.id]);
  }
  for (const job of Object.values(deps.store.raw.jobs)) if (job.accountId === accountId) keep(job.ref);
  for (const cobr of Object.values(account.cobrs)) keep(cobr.transactionId);
  // A cob a batch of cobv lists, or the immediate charge of a recurrence's Jornada 3, is read by those records.
  const named = new Set([...Object.values(account.lotesCobV).flatMap((l) => l.cobsv.map((c) => c.txid)), ...Object.values(account.recs).map((r) => r.txidJornada)]);
  const cobOf = new Map<string, string>();
  for (const cob of Object.values(account.cobs)) {
    if (named.has(cob.id)) keep(cob.transactionId);
    cobOf.set(cob.transactionId, cob.id);
  }
  for (const root of kept) groups.delete(root);
  return groups.size === 0 ? null : { accountId, cutoffMs, groups: [...groups.values()], cobOf, blocksOf };
}

/**
 * Deletes the plan's groups from index `from` on, until `max` transactions went, with their cobs (and locations) and
 * finished balance blocks; returns where it stopped and how many it deleted. Runs inside the caller's unit. A group is
 * checked again first and kept when anything changed: a member gone, pending or changed since the cutoff, a block
 * opened on it, or a verb that made a transaction hang on it since the plan (`hung`: a refund asked, a block opened).
 */
export function deleteFromPlan(deps: Deps, plan: RetentionPlan, from: number, max: number, hung: ReadonlySet<string>): { next: number; deleted: number } {
  const raw = deps.store.raw.accounts[plan.accountId];
  if (!raw) return { next: plan.groups.length, deleted: 0 };
  const account = deps.store.state.accounts[plan.accountId]!;
  const txs = raw.transactions;
  const unchanged = (id: string) => {
    const tx = Object.hasOwn(txs, id) ? txs[id] : undefined;
    return tx !== undefined && tx.status !== 'pending' && tx.updatedAt < plan.cutoffMs && !hung.has(id) && (plan.blocksOf.get(id) ?? []).every((b) => !LIVE_BLOCK.has(raw.balanceBlocks[b]?.status ?? ''));
  };
  let at = from;
  let deleted = 0;
  for (; at < plan.groups.length && deleted < max; at++) {
    const members = plan.groups[at]!;
    if (!members.every(unchanged)) continue;
    for (const id of members) {
      delete account.transactions[id];
      const txid = plan.cobOf.get(id);
      const cob = txid === undefined ? undefined : raw.cobs[txid];
      if (cob?.transactionId === id) {
        if (cob.locId !== undefined && raw.locs[String(cob.locId)]?.txid === txid) delete account.locs[String(cob.locId)];
        delete account.cobs[txid!];
      }
      for (const b of plan.blocksOf.get(id) ?? []) if (Object.hasOwn(raw.balanceBlocks, b)) delete account.balanceBlocks[b];
    }
    deleted += members.length;
  }
  return { next: at, deleted };
}

/**
 * Whether an array is rewritten to drop `dropped` of its `length` entries: when they are at least an eighth of it, so
 * the journal writes at most about eight times what is dropped, however often sweeps run.
 */
const worthRewriting = (dropped: number, length: number) => dropped > 0 && dropped * 8 >= length;

/**
 * Folds the ledger entries of transactions no longer held into the carried-forward entries, and deletes the events
 * older than `cutoffMs` whose deliveries are all finished (with those deliveries), each when worth rewriting; and the
 * idempotency entries past both the cutoff and their 24 h. Looks in slices, then writes in one unit of its own (none
 * when there is nothing to do); what changed in between is left for the next sweep.
 */
export async function compactLedgerAndEvents(deps: Deps, accountId: string, cutoffMs: number, nowMs: number): Promise<void> {
  const start = deps.store.raw.accounts[accountId];
  if (!start) return;
  const { ledger, events, transactions: txs } = start;

  // The ledger as it stands: what stays, and the sums of what goes, per wallet and bucket.
  const carried = new Map<string, LedgerEntry>();
  const kept: LedgerEntry[] = [];
  let folded = 0;
  const length = ledger.length;
  const last = ledger[length - 1];
  await sliced(length, (i) => {
    const e = ledger[i]!;
    if (e.transactionId !== CARRIED_FORWARD && Object.hasOwn(txs, e.transactionId)) return void kept.push(e);
    if (e.transactionId !== CARRIED_FORWARD) folded++;
    const id = carriedId(e.walletId, e.bucket);
    const into = carried.get(id);
    if (into) {
      into.amount += e.amount;
      into.at = Math.max(into.at, e.at);
    } else carried.set(id, { id, walletId: e.walletId, bucket: e.bucket, amount: e.amount, transactionId: CARRIED_FORWARD, at: e.at });
  });

  // The events older than the cutoff whose deliveries are all finished, and those deliveries.
  let old = 0;
  while (old < events.length && events[old]!.createdAt < cutoffMs) old++;
  const deliveryIds = old > 0 ? Object.keys(start.deliveries) : [];
  const byEvent = new Map<string, string[]>();
  const unfinished = new Set<string>();
  await sliced(deliveryIds.length, (i) => {
    const d = start.deliveries[deliveryIds[i]!];
    if (!d) return;
    const list = byEvent.get(d.eventRecordId);
    if (list) list.push(deliveryIds[i]!);
    else byEvent.set(d.eventRecordId, [deliveryIds[i]!]);
    if (d.state === 'pending') unfinished.add(d.eventRecordId);
  });
  const going = events.slice(0, old).filter((e) => !unfinished.has(e.id));

  const stale = Math.min(cutoffMs, nowMs - IDEMPOTENCY_MS);
  const keys = Object.keys(start.idempotency);
  const staleKeys: string[] = [];
  await sliced(keys.length, (i) => {
    if ((start.idempotency[keys[i]!]?.createdAt ?? Infinity) < stale) staleKeys.push(keys[i]!);
  });

  await deps.store.atomically('system', () => {
    const raw = deps.store.raw.accounts[accountId];
    if (raw !== start) return; // deleted (or reset) meanwhile
    const account = deps.store.state.accounts[accountId]!;
    // Appended since the look: kept as they are (only live transactions get entries); anything else: next sweep.
    if (worthRewriting(folded, length) && raw.ledger === ledger && ledger[length - 1] === last)
      account.ledger = [...carried.values(), ...kept, ...ledger.slice(length)];
    // A delivery made since the look (a replay) may be of an event going: then the events wait for the next sweep.
    if (worthRewriting(going.length, events.length) && raw.events === events && Object.keys(raw.deliveries).length === deliveryIds.length) {
      const goingIds = new Set(going.map((e) => e.id));
      for (const e of going) for (const d of byEvent.get(e.id) ?? []) delete account.deliveries[d];
      account.events = events.filter((e) => !goingIds.has(e.id));
    }
    for (const key of staleKeys) if ((raw.idempotency[key]?.createdAt ?? Infinity) < stale) delete account.idempotency[key];
  }).durable;
}
