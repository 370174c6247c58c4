// Refunds (service document 4.4, sandbox.md 2.4): asynchronous, of what is left of the payment. The service's refund
// returns all that is left (the whole payment unless API Pix devoluções returned parts of it, sandbox.md 15); a
// devolução returns its own valor, up to what is left. Accepting one debits its amount from the payment's own wallet at
// once (a `refund` transaction, pending); completion (by itself completeAfterSeconds later, or the control action
// `complete`) debits the refund fee as its own `fee` transaction and sends refund_completed. The fee is the one in
// force at acceptance and stays reserved until then: withdrawals and other refunds can only spend `available` minus the
// reserved fees (sandbox.md 2.8), so completion never overdraws; the control action `fail` (PSP status ERROR) credits
// the amount back. Only the originator wallet is ever debited: split recipients keep their legs.
import type { Deps } from '../deps';
import { fundsDetails, fundsText, liveBlockOf, liveRefundsOf, refundLeft, spendable } from '../domain/claims';
import { SandboxError, notFound } from '../domain/errors';
import { post } from '../domain/ledger';
import { brlText, fixedFee, type Cents } from '../domain/money';
import { transition, TRANSACTION_TRANSITIONS } from '../domain/transitions';
import type { Account, Transaction } from '../domain/types';
import type { Caller } from '../domain/auth';
import { makeE2eId } from '../pix';
import { recordEvent } from '../webhooks/events';
import { recordPixNotice } from '../webhooks/api-pix';
import { registerActions } from './actions';
import { visibleTo } from './transactions';
import { ownValue, opt } from '../lib/objects';
import { magicCompleteAfterSeconds, magicValuesOn } from '../domain/magic-rules';
import { publishTransactions } from '../lib/bus';
import { noteHolder } from './holders';
import { isoTime } from '../lib/iso';
import { nowOf } from './clocks';

export const REFUND_COMPLETE_JOB = 'refund.complete';
/** A refund of a magic 00000000515 payment ends ERROR when it would otherwise complete (domain/magic.ts). */
export const MAGIC_REFUND_JOB = 'refund.magic';
/** pspProvider of a refund whose payment was not pinned to an institution. */
export const SANDBOX_PSP = 'pix-sandbox';
export const DEFAULT_REFUND_FAILURE = 'PSP_ERROR';

/** Refuses what cannot be refunded; answers what is left to refund of the payment (more than zero). */
function refundable(account: Account, payment: Transaction): Cents {
  const refuse = (message: string, extra: Record<string, unknown>) => new SandboxError('TRANSACTION_NOT_REFUNDABLE', message, { transactionId: payment.id, ...extra });
  if (payment.type !== 'payment') throw refuse(`Transaction ${payment.id} is ${/^[aeiou]/.test(payment.type) ? 'an' : 'a'} ${payment.type}, not a payment; only a completed payment can be refunded.`, { type: payment.type });
  if (payment.status !== 'completed')
    throw refuse(`Payment ${payment.id} is ${payment.status}; only a completed payment can be refunded (a pending charge can be left to expire instead).`, { status: payment.status });
  const left = refundLeft(account, payment);
  if (left <= 0) {
    const refunds = liveRefundsOf(account, payment.id);
    const named = refunds.map((r) => `a ${r.status} refund (${r.id}, ${brlText(r.amount)})`).join(' and ');
    throw refuse(
      `Payment ${payment.id} already has ${named}: all of its ${brlText(payment.amount)} is refunded or being refunded, so nothing is left to refund. Follow ${refunds.length === 1 ? 'that refund' : 'each'} with GET /v2/transactions/{id}.`,
      { refundTransactionId: refunds.at(-1)!.id, refundTransactionIds: refunds.map((r) => r.id) },
    );
  }
  const block = liveBlockOf(account, payment.id);
  if (block)
    throw refuse(`Payment ${payment.id} is under a ${block.blockType} balance block (${block.id}, ${block.status}); it cannot be refunded while a block is open or after one was approved.`, {
      balanceBlockId: block.id,
    });
  return left;
}

/**
 * POST /v2/transactions/{id}/refund: checks everything, then debits the amount and schedules the completion. The
 * amount is what is left of the payment, or `amount` (a devolução's valor, which its face checked against what is left).
 */
export function requestRefund(deps: Deps, caller: Caller, paymentId: string, input: { reason?: string; devolucaoId?: string; amount?: Cents }): Transaction {
  const { account } = caller;
  const payment = Object.hasOwn(account.transactions, paymentId) ? account.transactions[paymentId] : undefined;
  if (!payment || !visibleTo(payment, caller.wallet.id)) throw notFound('TRANSACTION_NOT_FOUND', 'transaction', paymentId, 'Refund a payment of this wallet by its transaction id.');
  const left = refundable(account, payment);
  const amount = input.amount ?? left;
  if (amount > left || amount <= 0)
    throw new SandboxError('TRANSACTION_NOT_REFUNDABLE', `A refund of ${payment.id} must be more than zero and at most ${brlText(left)}, what is left of it to refund.`, { transactionId: payment.id, left: left / 100 });
  const wallet = account.wallets[payment.walletId]!;
  const fee = fixedFee(account.fees.refund.fixed);
  const funds = spendable(account, wallet, fee);
  if (amount + fee > funds.spendable)
    throw new SandboxError(
      'INSUFFICIENT_BALANCE',
      `Refunding ${payment.id} costs ${brlText(amount)} plus a refund fee of ${brlText(fee)}, but ${fundsText(funds)}; add funds and try again.`,
      fundsDetails(amount + fee, funds),
    );

  const now = nowOf(deps, account);
  const institution = payment.charge?.pspCredentialId ? account.institutions.find((i) => i.id === payment.charge!.pspCredentialId) : undefined;
  const tx: Transaction = {
    id: deps.ids.uuid(),
    walletId: wallet.id,
    type: 'refund',
    status: 'pending',
    paymentMethod: payment.paymentMethod,
    amount,
    createdAt: now,
    updatedAt: now,
    description: input.reason ?? `Refund of ${payment.id}`,
    ...opt('projectId', payment.projectId),
    relatedTransactionId: payment.id,
    refund: {
      pspProvider: institution?.name ?? SANDBOX_PSP,
      // A PIX return id: like an end-to-end id, with D for devolução.
      pspRefundTransactionId: `D${makeE2eId(deps.settings.ispb, new Date(now), deps.ids.randomInt).slice(1)}`,
      ...opt('reason', input.reason),
      // Fixed now and reserved until completion debits it (sandbox.md 2.8).
      feeAmount: fee,
      ...opt('devolucaoId', input.devolucaoId),
    },
  };
  account.transactions[tx.id] = tx;
  deps.retention.hang(account.id, payment.id); // a retention sweep under way keeps the payment (services/retention.ts)
  noteHolder(deps.store, 'transaction', tx.id, account.id);
  post(account, [{ walletId: wallet.id, amount: -tx.amount, transactionId: tx.id }], now, deps.ids.uuid);
  const after = account.automation.completeAfterSeconds;
  if (payment.charge?.magic === 'charge_paid_refund_error' && magicValuesOn(account.automation))
    deps.scheduler.schedule({ kind: MAGIC_REFUND_JOB, dueAt: now + magicCompleteAfterSeconds(account.automation) * 1000, accountId: account.id, ref: tx.id });
  else if (after > 0) deps.scheduler.schedule({ kind: REFUND_COMPLETE_JOB, dueAt: now + after * 1000, accountId: account.id, ref: tx.id });
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

function refundTx(account: Account, id: string): Transaction {
  const tx = ownValue(account.transactions, id);
  if (!tx?.refund) throw notFound('TRANSACTION_NOT_FOUND', 'refund', id);
  return tx;
}

/** The PSP confirmed: the fee reserved at acceptance leaves as its own transaction, and refund_completed is sent. */
export function completeRefund(deps: Deps, account: Account, id: string): Transaction {
  const tx = refundTx(account, id);
  tx.status = transition(TRANSACTION_TRANSITIONS, 'refund', tx.status, 'completed', 'complete');
  const now = nowOf(deps, account);
  const refund = tx.refund!;
  const payment = account.transactions[tx.relatedTransactionId!]!;
  const wallet = account.wallets[tx.walletId]!;
  // The fee reserved at acceptance (a refund saved before fees were fixed then pays the one in force now).
  const fee = refund.feeAmount ?? fixedFee(account.fees.refund.fixed);
  tx.updatedAt = now;
  tx.e2eId = refund.pspRefundTransactionId;
  if (payment.counterpartName !== undefined) tx.counterpartName = payment.counterpartName;
  if (payment.counterpartDocument !== undefined) tx.counterpartDocument = payment.counterpartDocument;
  refund.feeAmount = fee;
  refund.refundedAt = now;
  if (fee > 0) {
    const feeTx: Transaction = { id: deps.ids.uuid(), walletId: wallet.id, type: 'fee', status: 'completed', paymentMethod: tx.paymentMethod, amount: fee, createdAt: now, updatedAt: now, relatedTransactionId: tx.id, description: `Refund fee of ${tx.id}` };
    account.transactions[feeTx.id] = feeTx;
    publishTransactions(deps.bus, account.id, feeTx);
    post(account, [{ walletId: wallet.id, amount: -fee, transactionId: feeTx.id }], now, deps.ids.uuid);
  }
  recordEvent(deps, account, wallet, 'refund_completed', tx.id, {
    refundTransactionId: tx.id,
    originalTransactionId: payment.id,
    environment: account.environment,
    amount: tx.amount / 100,
    feeAmount: fee / 100,
    netAmount: tx.amount / 100,
    currency: 'BRL',
    paymentMethod: payment.paymentMethod,
    status: 'completed',
    refundedAt: isoTime(now),
    ...opt('externalReference', payment.externalReference),
    ...opt('metadata', payment.metadata),
  });
  if (payment.charge?.apiPix) recordPixNotice(deps, account, payment);
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

/** The PSP answered ERROR: the amount goes back to the wallet; no fee, no event (the service has no refund_failed). */
export function failRefund(deps: Deps, account: Account, id: string, reason?: string): Transaction {
  const tx = refundTx(account, id);
  tx.status = transition(TRANSACTION_TRANSITIONS, 'refund', tx.status, 'failed', 'fail');
  const now = nowOf(deps, account);
  tx.updatedAt = now;
  tx.refund!.failureReason = reason ?? DEFAULT_REFUND_FAILURE;
  post(account, [{ walletId: tx.walletId, amount: tx.amount, transactionId: tx.id }], now, deps.ids.uuid);
  const payment = account.transactions[tx.relatedTransactionId!];
  if (payment?.charge?.apiPix) recordPixNotice(deps, account, payment);
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

export function registerRefundJobs(deps: Deps) {
  deps.scheduler.on(REFUND_COMPLETE_JOB, (job) => {
    const account = deps.store.findAccount(job.accountId);
    const tx = account?.transactions[job.ref];
    if (account && tx?.refund && tx.status === 'pending') completeRefund(deps, account, job.ref);
  });
}

// The merchant's refund of a completed payment, asked for from the control API (the console's Refund button, a
// story): the very verb POST /v2/transactions/{id}/refund calls, as the wallet the payment belongs to.
registerActions('charge', {
  refund: (deps, account, id, body) => {
    const wallet = account.wallets[account.transactions[id]!.walletId]!;
    const subAccount = wallet.reference === null ? null : (account.subAccounts.find((s) => s.reference === wallet.reference) ?? null);
    return { kind: 'refund', tx: requestRefund(deps, { account, wallet, subAccount }, id, opt('reason', body.reason)) };
  },
});

registerActions('refund', {
  complete: (deps, account, id) => ({ kind: 'refund', tx: completeRefund(deps, account, id) }),
  fail: (deps, account, id, body) => ({ kind: 'refund', tx: failRefund(deps, account, id, body.reason) }),
});
