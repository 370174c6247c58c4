// The ledger: the only code that changes a balance. Each movement is an entry on one bucket of one wallet, and the
// wallet's cached balance moves by exactly that entry, so `balance == sum(entries)` holds by construction
// (test/helpers checks it after every flow).
import type { Account, Bucket, LedgerEntry, Wallet } from './types';
import type { Cents } from './money';

export interface Posting {
  walletId: string;
  bucket?: Bucket;
  amount: Cents;
  transactionId: string;
}

export function post(account: Account, postings: Posting[], at: number, newId: () => string): LedgerEntry[] {
  const entries = postings.map((p) => ({
    id: newId(),
    walletId: p.walletId,
    bucket: p.bucket ?? 'available',
    amount: p.amount,
    transactionId: p.transactionId,
    at,
  }));
  for (const e of entries) {
    const wallet = account.wallets[e.walletId];
    if (!wallet) throw new Error(`ledger: wallet ${e.walletId} is not in account ${account.id}`);
    wallet.balances[e.bucket] += e.amount;
    wallet.updatedAt = at;
    account.ledger.push(e);
  }
  return entries;
}

export const totalOf = (w: Wallet): Cents => w.balances.available + w.balances.held + w.balances.promotional;

/** Sums the ledger per wallet and bucket: what every balance must equal. */
export function ledgerSums(account: Account): Record<string, Record<Bucket, Cents>> {
  const sums: Record<string, Record<Bucket, Cents>> = {};
  for (const id of Object.keys(account.wallets)) sums[id] = { available: 0, held: 0, promotional: 0 };
  for (const e of account.ledger) sums[e.walletId]![e.bucket] += e.amount;
  return sums;
}
