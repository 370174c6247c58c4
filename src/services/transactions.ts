// GET /v2/transactions/{id}: a wallet sees its own transactions (an internal_transfer from both ends). The id is
// tried as the transaction UUID, then as an externalReference (the last created wins), then as an Idempotency-Key of creation.
// Refunds and withdrawals are transactions that carry their details, so they resolve here at every stage too.
import { notFound } from '../domain/errors';
import type { Account, Transaction } from '../domain/types';
import type { Caller } from '../domain/auth';
import type { Store } from '../store/store';
import { holderOf } from './holders';
import { valuesOf } from '../lib/objects';

export const visibleTo = (tx: Transaction, walletId: string) => tx.walletId === walletId || tx.counterpartWalletId === walletId;

// The last one created, by creation order rather than createdAt: the sandbox clock can be set back, and a charge made
// after that must still win over one stamped later in sandbox time. Transactions are kept in creation order.
const lastCreated = (list: Transaction[]) => list.at(-1);

export function findTransaction(caller: Pick<Caller, 'account' | 'wallet'>, idOrRef: string): Transaction | undefined {
  return findIn(caller.account, idOrRef, (t) => visibleTo(t, caller.wallet.id));
}

function findIn(account: Account, idOrRef: string, visible: (t: Transaction) => boolean): Transaction | undefined {
  const byId = Object.hasOwn(account.transactions, idOrRef) ? account.transactions[idOrRef] : undefined;
  if (byId && visible(byId)) return byId;
  const mine = valuesOf(account.transactions).filter(visible);
  return lastCreated(mine.filter((t) => t.externalReference === idOrRef)) ?? lastCreated(mine.filter((t) => t.idempotencyKey === idOrRef));
}

/** v1 (API keys are account-level): any transaction of the account, whichever wallet and face made it; same lookup order. */
export function getAccountTransaction(account: Account, idOrRef: string): Transaction {
  const tx = findIn(account, idOrRef, () => true);
  if (!tx) throw notFound('TRANSACTION_NOT_FOUND', 'transaction', idOrRef, 'The id may be a transaction id, the externalReference or the Idempotency-Key used at creation.');
  return tx;
}

/** The caller that owns a transaction: v1 acts on a transaction's own wallet (a refund debits its originator). */
export function ownerOf(account: Account, tx: Transaction): Caller {
  const subAccount = account.subAccounts.find((s) => s.id === tx.walletId) ?? null;
  return { account, wallet: account.wallets[tx.walletId]!, subAccount };
}

export function getTransaction(caller: Pick<Caller, 'account' | 'wallet'>, idOrRef: string): Transaction {
  const tx = findTransaction(caller, idOrRef);
  if (!tx) throw notFound('TRANSACTION_NOT_FOUND', 'transaction', idOrRef, 'The id may be a transaction id, the externalReference or the Idempotency-Key used at creation, of this wallet.');
  return tx;
}

/** Finds a transaction by UUID in any account (control actions address transactions by id alone), by the holders index. */
export function locateTransaction(store: Store, id: string): { account: Account; tx: Transaction } | undefined {
  const account = holderOf(store, 'transaction', id);
  return account && { account, tx: account.transactions[id]! };
}
