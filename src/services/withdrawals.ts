// PIX withdrawals (service document 4.5, sandbox.md 2.4, 2.5, 4.3). A withdrawal is a `withdrawal` transaction that
// carries its details, so one lookup path (GET /v2/transactions/{id} by id, externalReference or Idempotency-Key)
// finds it at every stage and the ledger entries point at it. The gross amount (fee included) leaves `available` at
// creation; failed or reversed, the whole gross is credited back. Limits apply to the gross amount per wallet; the
// day is the calendar day in America/Sao_Paulo (UTC-3, no DST) of the sandbox clock; failed and reversed withdrawals
// do not count.
import type { Deps } from '../deps';
import { fundsDetails, fundsText, spendable } from '../domain/claims';
import { SandboxError, notFound, validationError } from '../domain/errors';
import { post } from '../domain/ledger';
import { brlText, fixedFee, type Cents } from '../domain/money';
import { transition, WITHDRAWAL_TRANSITIONS } from '../domain/transitions';
import type { Account, Transaction, TransactionStatus, Wallet, WithdrawalDetails, WithdrawalStatus } from '../domain/types';
import type { Caller } from '../domain/auth';
import { makeE2eId, type HolderDocumentType, type PixKeyType } from '../pix';
import { recordEvent } from '../webhooks/events';
import { registerActions } from './actions';
import { resolveProject } from './charges';
import { ownValue, opt, valuesOf, extended } from '../lib/objects';
import { MAGIC_FOLLOW_UP_SECONDS } from '../domain/magic';
import { magicCompleteAfterSeconds, withdrawalMagic } from '../domain/magic-rules';
import { publishTransactions } from '../lib/bus';
import { noteHolder } from './holders';
import { isoTime } from '../lib/iso';
import { nowOf } from './clocks';
import { roomForRecords } from './capacity';

export const WITHDRAWAL_COMPLETE_JOB = 'withdrawal.complete';
/** The outcome a magic PIX key chose (domain/magic.ts), when the withdrawal would otherwise complete. */
export const MAGIC_WITHDRAWAL_JOB = 'withdrawal.magic';
/** The reversal of a magic withdrawal, 60 s after it completed. */
export const MAGIC_REVERSE_JOB = 'withdrawal.magic-reverse';
export const DEFAULT_WITHDRAWAL_FAILURE = 'REJECTED';
export const REVERSED = 'REVERSED';
export const DEFAULT_REVERSAL_REASON = 'Reversed by the PSP';
const SAO_PAULO_OFFSET_MS = -3 * 3600 * 1000;

export interface WithdrawalInput {
  pixKey: string;
  pixKeyType: PixKeyType;
  holderName: string;
  holderDocument: string;
  holderDocumentType: HolderDocumentType;
  projectId?: string;
  /** Exactly one of amount (gross) and netAmount, in cents. */
  amount?: Cents;
  netAmount?: Cents;
  externalReference?: string;
  /** v1: the tenant's bank account it goes to (the PIX fields are taken from it). */
  bankAccountId?: string;
}

/** The transaction status a withdrawal shows as (GET /v2/transactions): processing is still pending. */
export const TX_STATUS_OF: Record<WithdrawalStatus, TransactionStatus> = {
  pending: 'pending',
  processing: 'pending',
  completed: 'completed',
  failed: 'failed',
  reversed: 'failed',
};

/** The America/Sao_Paulo calendar day of an instant, as YYYY-MM-DD. */
export const saoPauloDay = (ms: number) => new Date(ms + SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10);

const counts = (w: WithdrawalDetails) => w.status !== 'failed' && w.status !== 'reversed';

function checkLimits(account: Account, wallet: Wallet, gross: Cents, now: number): void {
  const { withdrawalMax, dailyWithdrawalMax } = account.limits;
  if (withdrawalMax !== null && gross > withdrawalMax)
    throw new SandboxError(
      'WITHDRAWAL_LIMIT_EXCEEDED',
      `The gross amount ${brlText(gross)} is above the limit per withdrawal of ${brlText(withdrawalMax)}; withdraw at most ${brlText(withdrawalMax)} (fee included) at a time.`,
      { limit: 'withdrawalMax', max: withdrawalMax / 100, requested: gross / 100 },
    );
  if (dailyWithdrawalMax !== null) {
    const day = saoPauloDay(now);
    const used = valuesOf(account.transactions)
      .filter((t) => t.withdrawal && t.walletId === wallet.id && counts(t.withdrawal) && saoPauloDay(t.createdAt) === day)
      .reduce((s, t) => s + t.amount, 0);
    if (used + gross > dailyWithdrawalMax)
      throw new SandboxError(
        'WITHDRAWAL_LIMIT_EXCEEDED',
        `This wallet has withdrawn ${brlText(used)} on ${day} (America/Sao_Paulo); ${brlText(gross)} more would pass the daily limit of ${brlText(dailyWithdrawalMax)}. Withdraw at most ${brlText(Math.max(dailyWithdrawalMax - used, 0))} more today (fee included).`,
        { limit: 'dailyWithdrawalMax', max: dailyWithdrawalMax / 100, usedToday: used / 100, requested: gross / 100, day },
      );
  }
}

/** POST /v2/withdrawals: every check first, then the gross leaves `available` and the completion is scheduled. */
export function createWithdrawal(deps: Deps, caller: Caller, input: WithdrawalInput, idempotencyKey?: string): Transaction {
  const { account, wallet } = caller;
  roomForRecords(deps);
  if ((input.amount === undefined) === (input.netAmount === undefined)) {
    const message = input.amount === undefined ? 'send exactly one of amount (gross) and netAmount (what the recipient receives); neither was sent' : 'send exactly one of amount and netAmount, not both';
    throw validationError([
      { field: 'amount', message },
      { field: 'netAmount', message },
    ]);
  }
  const fee = fixedFee(account.fees.withdrawal.fixed);
  const gross = input.amount ?? input.netAmount! + fee;
  const net = gross - fee;
  if (net < 1)
    throw validationError([
      {
        field: 'amount',
        message: `must be more than the withdrawal fee of ${brlText(fee)} (the recipient would receive ${brlText(net)}); send at least ${brlText(fee + 1)}, or send netAmount instead`,
      },
    ]);
  const projectId = resolveProject(caller, input.projectId);
  const now = nowOf(deps, caller.account);
  const magic = withdrawalMagic(account.automation, input.pixKeyType, input.pixKey);
  checkLimits(account, wallet, gross, now);
  const funds = spendable(account, wallet, fixedFee(account.fees.refund.fixed));
  if (gross > funds.spendable)
    throw new SandboxError(
      'INSUFFICIENT_BALANCE',
      `The withdrawal needs ${brlText(gross)} (net ${brlText(net)} + fee ${brlText(fee)}) but ${fundsText(funds)}; withdraw less or add funds.`,
      fundsDetails(gross, funds),
    );

  const tx: Transaction = {
    id: deps.ids.uuid(),
    walletId: wallet.id,
    type: 'withdrawal',
    status: 'pending',
    paymentMethod: 'pix',
    amount: gross,
    createdAt: now,
    updatedAt: now,
    ...opt('externalReference', input.externalReference),
    ...opt('idempotencyKey', idempotencyKey),
    ...(projectId ? { projectId } : {}),
    withdrawal: {
      status: 'pending',
      feeAmount: fee,
      netAmount: net,
      pixKey: input.pixKey,
      pixKeyType: input.pixKeyType,
      holderName: input.holderName,
      holderDocument: input.holderDocument,
      holderDocumentType: input.holderDocumentType,
      ...opt('magic', magic),
      ...opt('bankAccountId', input.bankAccountId),
    },
  };
  account.transactions[tx.id] = tx;
  noteHolder(deps.store, 'transaction', tx.id, account.id);
  post(account, [{ walletId: wallet.id, amount: -gross, transactionId: tx.id }], now, deps.ids.uuid);
  // A magic key decides the outcome in place of the automatic completion (which would race it).
  const after = account.automation.completeAfterSeconds;
  if (magic) deps.scheduler.schedule({ kind: MAGIC_WITHDRAWAL_JOB, dueAt: now + magicCompleteAfterSeconds(account.automation) * 1000, accountId: account.id, ref: tx.id });
  else if (after > 0) deps.scheduler.schedule({ kind: WITHDRAWAL_COMPLETE_JOB, dueAt: now + after * 1000, accountId: account.id, ref: tx.id });
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

function withdrawalTx(account: Account, id: string): Transaction & { withdrawal: WithdrawalDetails } {
  const tx = ownValue(account.transactions, id);
  if (!tx?.withdrawal) throw notFound('TRANSACTION_NOT_FOUND', 'withdrawal', id);
  return tx as Transaction & { withdrawal: WithdrawalDetails };
}

/** The one place a withdrawal moves: the state table decides, and the transaction status follows. */
function move(deps: Deps, account: Account, tx: Transaction & { withdrawal: WithdrawalDetails }, to: WithdrawalStatus, action: string): number {
  tx.withdrawal.status = transition(WITHDRAWAL_TRANSITIONS, 'withdrawal', tx.withdrawal.status, to, action);
  tx.status = TX_STATUS_OF[to];
  const now = nowOf(deps, account);
  tx.updatedAt = now;
  return now;
}

const pspReference = (deps: Deps) => `sbx${deps.ids.token(29)}`;

/** Fields every withdrawal event carries (6.8), then the ones of its outcome. */
function eventData(account: Account, tx: Transaction & { withdrawal: WithdrawalDetails }) {
  const w = tx.withdrawal;
  return {
    withdrawalId: tx.id,
    projectId: tx.projectId ?? null,
    environment: account.environment,
    amount: tx.amount / 100,
    feeAmount: w.feeAmount / 100,
    netAmount: w.netAmount / 100,
    currency: 'BRL',
  };
}

const completedFields = (tx: Transaction & { withdrawal: WithdrawalDetails }) => ({
  completedAt: isoTime(tx.withdrawal.processedAt!),
  ...opt('externalReference', tx.externalReference),
  e2eId: tx.e2eId,
  counterpartName: tx.counterpartName,
  counterpartDocument: tx.counterpartDocument,
});

/** pending -> processing: the PSP took it. */
export function processWithdrawal(deps: Deps, account: Account, id: string): Transaction {
  const tx = withdrawalTx(account, id);
  move(deps, account, tx, 'processing', 'process');
  tx.withdrawal.pspReference ??= pspReference(deps);
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

/** pending|processing -> completed: e2eId and the recipient (the holder) are known; withdrawal_completed. */
export function completeWithdrawal(deps: Deps, account: Account, id: string): Transaction {
  const tx = withdrawalTx(account, id);
  const now = move(deps, account, tx, 'completed', 'complete');
  const w = tx.withdrawal;
  w.pspReference ??= pspReference(deps);
  w.processedAt = now;
  tx.e2eId = makeE2eId(deps.settings.ispb, new Date(now), deps.ids.randomInt);
  tx.counterpartName = w.holderName;
  tx.counterpartDocument = w.holderDocument;
  recordEvent(deps, account, account.wallets[tx.walletId]!, 'withdrawal_completed', tx.id, extended(eventData(account, tx), { status: 'completed', ...completedFields(tx) }));
  // Whoever completed it (the magic job or the control action), a magic reversal key is reversed 60 s later.
  if (w.magic === 'withdrawal_reversed') deps.scheduler.schedule({ kind: MAGIC_REVERSE_JOB, dueAt: now + MAGIC_FOLLOW_UP_SECONDS * 1000, accountId: account.id, ref: tx.id });
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

/** pending|processing -> failed: the gross comes back; withdrawal_failed with the reason. */
export function failWithdrawal(deps: Deps, account: Account, id: string, reason?: string): Transaction {
  const tx = withdrawalTx(account, id);
  const now = move(deps, account, tx, 'failed', 'fail');
  const w = tx.withdrawal;
  w.failureReason = reason ?? DEFAULT_WITHDRAWAL_FAILURE;
  w.failedAt = now;
  post(account, [{ walletId: tx.walletId, amount: tx.amount, transactionId: tx.id }], now, deps.ids.uuid);
  recordEvent(deps, account, account.wallets[tx.walletId]!, 'withdrawal_failed', `withdrawal_failed_${tx.id}`, {
    ...eventData(account, tx),
    status: 'failed',
    failureReason: w.failureReason,
    failedAt: isoTime(now),
    ...opt('externalReference', tx.externalReference),
  });
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

/** completed -> failed with failureReason REVERSED: the gross comes back; withdrawal_reversed. */
export function reverseWithdrawal(deps: Deps, account: Account, id: string, reason?: string): Transaction {
  const tx = withdrawalTx(account, id);
  const now = move(deps, account, tx, 'reversed', 'reverse');
  const w = tx.withdrawal;
  w.failureReason = REVERSED;
  w.reversalReason = reason ?? DEFAULT_REVERSAL_REASON;
  w.reversedAt = now;
  post(account, [{ walletId: tx.walletId, amount: tx.amount, transactionId: tx.id }], now, deps.ids.uuid);
  recordEvent(deps, account, account.wallets[tx.walletId]!, 'withdrawal_reversed', `withdrawal_reversed_${tx.id}`, {
    ...eventData(account, tx),
    status: 'reversed',
    ...completedFields(tx),
    failureReason: REVERSED,
    reversalReason: w.reversalReason,
    reversedAt: isoTime(now),
  });
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

export function registerWithdrawalJobs(deps: Deps) {
  deps.scheduler.on(WITHDRAWAL_COMPLETE_JOB, (job) => {
    const account = deps.store.findAccount(job.accountId);
    const w = account?.transactions[job.ref]?.withdrawal;
    if (account && w && (w.status === 'pending' || w.status === 'processing')) completeWithdrawal(deps, account, job.ref);
  });
}

registerActions(
  'withdrawal',
  {
    process: (deps, account, id) => ({ kind: 'withdrawal', tx: processWithdrawal(deps, account, id) }),
    complete: (deps, account, id) => ({ kind: 'withdrawal', tx: completeWithdrawal(deps, account, id) }),
    fail: (deps, account, id, body) => ({ kind: 'withdrawal', tx: failWithdrawal(deps, account, id, body.reason) }),
    reverse: (deps, account, id, body) => ({ kind: 'withdrawal', tx: reverseWithdrawal(deps, account, id, body.reason) }),
  },
);
