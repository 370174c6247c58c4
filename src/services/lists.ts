// The lists a console or a test suite reads (sandbox.md 4.8): an account's transactions (every wallet, every type,
// newest created first), events and deliveries, each filtered and cut into pages. Read-only.
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import { pageOf, type ListPage, type PageRequest } from '../domain/pagination';
import { PRINCIPAL, findSubAccount } from '../domain/subaccounts';
import type { Account, Delivery, Transaction, TransactionStatus, TransactionType } from '../domain/types';
import { listDeliveries, type DeliveryFilter } from './webhooks';
import { valuesOf } from '../lib/objects';
import type { DeliveryEventKind, SandboxEvent } from '../domain/events';

/** The wallet id of a sub-account reference ('principal': the main account); an unknown reference is a 404. */
export function walletIdOf(account: Account, reference: string): string {
  if (reference === PRINCIPAL) return account.id;
  const sub = findSubAccount(account, reference);
  if (!sub) throw new SandboxError('SUB_ACCOUNT_NOT_FOUND', `Account ${account.id} has no sub-account '${reference}'; use one of: ${[PRINCIPAL, ...account.subAccounts.map((s) => s.reference)].join(', ')}.`, { resource: 'sub-account', id: reference });
  return sub.id;
}

/** The reference of a wallet (null: the main account). */
export const referenceOf = (account: Account, walletId: string): string | null => account.wallets[walletId]?.reference ?? null;

export interface TransactionFilter {
  type?: TransactionType;
  /** 'expired': the charges that ended by expiry (their status is cancelled, their event payment_expired). */
  status?: TransactionStatus | 'expired';
  /** A sub-account reference, or 'principal'. An internal_transfer is listed for both of its wallets. */
  subAccount?: string;
}

/** A charge that expired is `cancelled` with endReason 'expired'. */
export const expiredCharge = (t: Transaction) => t.status === 'cancelled' && t.charge?.endReason === 'expired';
const statusMatches = (t: Transaction, status: TransactionFilter['status']) => !status || (status === 'expired' ? expiredCharge(t) : t.status === status);

/**
 * An account's transactions, newest created first. Transactions are kept in creation order; the sandbox clock can
 * be set back, so ties and stamps out of order fall back on that order (the later created first).
 */
export function listAccountTransactions(deps: Deps, accountId: string, filter: TransactionFilter, page: PageRequest): ListPage<Transaction> {
  const account = deps.store.account(accountId);
  const walletId = filter.subAccount === undefined ? undefined : walletIdOf(account, filter.subAccount);
  const matching = valuesOf(account.transactions)
    .filter((t) => (!filter.type || t.type === filter.type) && statusMatches(t, filter.status) && (walletId === undefined || t.walletId === walletId || t.counterpartWalletId === walletId))
    .reverse();
  matching.sort((a, b) => b.createdAt - a.createdAt); // stable: equal stamps keep newest-created-first
  return pageOf(matching, page);
}

export type Order = 'oldest' | 'newest';

export interface EventFilter {
  event?: DeliveryEventKind;
  subAccount?: string;
}

/** An account's events in the order they were recorded (or the reverse). */
export function listAccountEvents(deps: Deps, accountId: string, filter: EventFilter, order: Order, page: PageRequest): ListPage<SandboxEvent> {
  const account = deps.store.account(accountId);
  const { event, subAccount } = filter;
  const items = account.events.filter((e) => (!event || e.event === event) && (subAccount === undefined || e.subAccount === (subAccount === PRINCIPAL ? null : subAccount)));
  return pageOf(order === 'newest' ? items.reverse() : items, page);
}

/** An account's deliveries in the order they were made (or the reverse). */
export function listAccountDeliveries(deps: Deps, accountId: string, filter: DeliveryFilter, order: Order, page: PageRequest): ListPage<Delivery> {
  const items = listDeliveries(deps, accountId, filter);
  return pageOf(order === 'newest' ? items.reverse() : items, page);
}
