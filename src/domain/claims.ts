// What stands against a completed payment: its refund and its balance block. The payment's money goes back to the
// payer at most once, so a payment with a live refund (pending or completed) cannot be blocked, and a payment under a
// block that was not rejected (open or approved) cannot be refunded or blocked again.
import type { Account, BalanceBlock, Transaction } from './types';

/** The refund of `paymentId` that is not failed, if any. */
export const liveRefundOf = (account: Account, paymentId: string): Transaction | undefined =>
  Object.values(account.transactions).find((t) => t.type === 'refund' && t.relatedTransactionId === paymentId && t.status !== 'failed');

/** The block of `paymentId` that is not rejected (awaiting_response, defended or approved), if any. */
export const liveBlockOf = (account: Account, paymentId: string): BalanceBlock | undefined =>
  Object.values(account.balanceBlocks).find((b) => b.transactionId === paymentId && b.status !== 'rejected');
