// What stands against a completed payment: its refunds and its balance block. The payment's money goes back to the
// payer at most once: its live refunds (pending or completed; several when devoluções return it in parts) add up to at
// most its amount, a payment with any live refund cannot be blocked, and a payment under a block that was not rejected
// (open or approved) cannot be refunded or blocked again.
import { brlText, type Cents } from './money';
import type { Account, BalanceBlock, Transaction, Wallet } from './types';
import { valuesOf } from '../lib/objects';

/** The refunds of `paymentId` that are not failed (pending or completed), oldest first. */
export const liveRefundsOf = (account: Account, paymentId: string): Transaction[] =>
  valuesOf(account.transactions).filter((t) => t.type === 'refund' && t.relatedTransactionId === paymentId && t.status !== 'failed');

/** A refund of `paymentId` that is not failed, if any (a payment may have several: partial devoluções). */
export const liveRefundOf = (account: Account, paymentId: string): Transaction | undefined => liveRefundsOf(account, paymentId)[0];

/** What is left to refund of a payment: its amount minus its refunds that are not failed (sandbox.md 15, devoluções). */
export const refundLeft = (account: Account, payment: Transaction): Cents =>
  liveRefundsOf(account, payment.id).reduce((left, t) => left - t.amount, payment.amount);

/** Every refund of `paymentId`, whatever its status (the standard API Pix face lists them as its devoluções). */
export const refundsOf = (account: Account, paymentId: string): Transaction[] =>
  valuesOf(account.transactions).filter((t) => t.refund && t.relatedTransactionId === paymentId);

/** The block of `paymentId` that is not rejected (awaiting_response, defended or approved), if any. */
export const liveBlockOf = (account: Account, paymentId: string): BalanceBlock | undefined =>
  Object.values(account.balanceBlocks).find((b) => b.transactionId === paymentId && b.status !== 'rejected');

/**
 * The refund fees this wallet still owes (sandbox.md 2.8): each pending refund's fee, fixed when it was accepted and
 * debited when it completes. `available` stays the ledger's sum; withdrawals and refunds can only spend what is left
 * once these are set aside. `currentFee` stands in for a pending refund saved before fees were fixed at acceptance.
 */
export function reservedFees(account: Account, walletId: string, currentFee: Cents): Cents {
  let reserved = 0;
  for (const t of valuesOf(account.transactions))
    if (t.type === 'refund' && t.status === 'pending' && t.walletId === walletId) reserved += t.refund?.feeAmount ?? currentFee;
  return reserved;
}

/** What a withdrawal or a refund may take from `available` now: available minus the reserved refund fees (never below 0). */
export const spendable = (account: Account, wallet: Wallet, currentFee: Cents): { available: Cents; reserved: Cents; spendable: Cents } => {
  const reserved = reservedFees(account, wallet.id, currentFee);
  return { available: wallet.balances.available, reserved, spendable: Math.max(wallet.balances.available - reserved, 0) };
};

/** "the available balance is X[, of which Y is reserved ...]": the part of an INSUFFICIENT_BALANCE message saying what can be spent. */
export const fundsText = (f: { available: Cents; reserved: Cents; spendable: Cents }): string =>
  `the available balance is ${brlText(f.available)}${f.reserved > 0 ? `, of which ${brlText(f.reserved)} is reserved for the fees of pending refunds, so ${brlText(f.spendable)} can be spent` : ''}`;

/** The details of an INSUFFICIENT_BALANCE error, in BRL. */
export const fundsDetails = (required: Cents, f: { available: Cents; reserved: Cents; spendable: Cents }) => ({
  required: required / 100,
  available: f.available / 100,
  reservedFees: f.reserved / 100,
  spendable: f.spendable / 100,
});
