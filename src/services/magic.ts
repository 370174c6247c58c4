// Magic values at work (sandbox.md 4.11, table in domain/magic.ts). The verbs record a transaction's magic outcome at
// creation and schedule these jobs on the sandbox clock; each job calls the same verb as the control action would
// (pay, expire, fail, block, refund fail, withdrawal fail/complete/process/reverse), and, like every job, does nothing
// when the transaction has moved on (a control action got there first).
import type { Deps } from '../deps';
import { liveRefundOf } from '../domain/claims';
import { MAGIC_REFUND_FAILURE, MAGIC_REVERSAL_REASON, MAGIC_WITHDRAWAL_FAILURE } from '../domain/magic-rules';
import type { Account, Transaction } from '../domain/types';
import { openBlock } from './balance-blocks';
import { endCharge, expireCharge, MAGIC_BLOCK_JOB, MAGIC_CHARGE_JOB, payCharge } from './charges';
import { failRefund, MAGIC_REFUND_JOB } from './refunds';
import { completeWithdrawal, failWithdrawal, MAGIC_REVERSE_JOB, MAGIC_WITHDRAWAL_JOB, processWithdrawal, reverseWithdrawal } from './withdrawals';
import type { Job } from '../store/state';

/** The job's account and transaction, when both still exist. */
function target(deps: Deps, job: Job): { account: Account; tx: Transaction } | undefined {
  const account = deps.store.findAccount(job.accountId);
  const tx = account && Object.hasOwn(account.transactions, job.ref) ? account.transactions[job.ref] : undefined;
  return account && tx ? { account, tx } : undefined;
}

export function registerMagicJobs(deps: Deps) {
  deps.scheduler.on(MAGIC_CHARGE_JOB, (job) => {
    const found = target(deps, job);
    if (!found || found.tx.status !== 'pending' || !found.tx.charge?.magic) return;
    const { account, tx } = found;
    switch (tx.charge!.magic) {
      case 'charge_expired':
        expireCharge(deps, account, tx.id);
        return;
      case 'charge_failed':
        endCharge(deps, account, tx.id, 'failed', 'fail');
        return;
      default: {
        // Paid by the customer the charge named: their name and the magic document.
        const customer = account.customers.find((c) => c.id === tx.customerId);
        payCharge(deps, account, tx.id, { ...(customer?.name ? { payerName: customer.name } : {}), ...(customer?.document ? { payerDocument: customer.document } : {}) });
      }
    }
  });

  deps.scheduler.on(MAGIC_BLOCK_JOB, (job) => {
    const found = target(deps, job);
    if (!found || found.tx.status !== 'completed') return;
    const { account, tx } = found;
    // Nothing when the payment's money is already claimed: a live refund, or any block (even one since rejected).
    if (liveRefundOf(account, tx.id) || Object.values(account.balanceBlocks).some((b) => b.transactionId === tx.id)) return;
    openBlock(deps, account, tx.id, { blockType: 'med' });
  });

  deps.scheduler.on(MAGIC_REFUND_JOB, (job) => {
    const found = target(deps, job);
    if (found?.tx.refund && found.tx.status === 'pending') failRefund(deps, found.account, found.tx.id, MAGIC_REFUND_FAILURE);
  });

  deps.scheduler.on(MAGIC_WITHDRAWAL_JOB, (job) => {
    const found = target(deps, job);
    const w = found?.tx.withdrawal;
    if (!found || !w) return;
    // The same states the automatic completion acts on; a stalled key only leaves pending.
    if (w.magic === 'withdrawal_stays_processing') {
      if (w.status === 'pending') processWithdrawal(deps, found.account, found.tx.id);
      return;
    }
    if (w.status !== 'pending' && w.status !== 'processing') return;
    if (w.magic === 'withdrawal_failed') failWithdrawal(deps, found.account, found.tx.id, MAGIC_WITHDRAWAL_FAILURE);
    else if (w.magic === 'withdrawal_reversed') completeWithdrawal(deps, found.account, found.tx.id);
  });

  deps.scheduler.on(MAGIC_REVERSE_JOB, (job) => {
    const found = target(deps, job);
    if (found?.tx.withdrawal?.status === 'completed') reverseWithdrawal(deps, found.account, found.tx.id, MAGIC_REVERSAL_REASON);
  });
}
