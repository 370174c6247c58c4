// Balance blocks (MED, judicial, administrative; sandbox.md 2.4, 2.5, 4.3). A block is opened on a completed
// payment by the control action `block` and always weighs on the payment's own wallet (the originator; split
// recipients are never debited). Its money moves under a `chargeback` transaction made with it: opening moves the
// amount from available to held (available may go negative), approval takes it out of held (the chargeback
// completes), rejection gives it back to available (the chargeback is cancelled).
import type { Deps } from '../deps';
import { liveBlockOf, liveRefundOf } from '../domain/claims';
import { SandboxError, notFound, validationError } from '../domain/errors';
import { post } from '../domain/ledger';
import { brlText, type Cents } from '../domain/money';
import { BALANCE_BLOCK_TRANSITIONS, transition, TRANSACTION_TRANSITIONS } from '../domain/transitions';
import type { Account, BalanceBlock, BalanceBlockStatus, BlockType, Transaction } from '../domain/types';
import type { Caller } from '../domain/auth';
import { recordEvent } from '../webhooks/events';
import { registerActions } from './actions';
import { opt } from '../lib/objects';
import { publishTransactions } from '../lib/bus';
import { holderOf, noteHolder } from './holders';
import { isoTime } from '../lib/iso';
import type { EventKind } from '../domain/events';
import { nowOf } from './clocks';

export const DEFAULT_BLOCK_REASON: Record<BlockType, string> = {
  med: "Fraud suspected by the payer's institution (MED)",
  judicial: 'Court order',
  administrative: 'Administrative review',
};
export const DEFAULT_RESOLUTION: Record<'approved' | 'rejected', string> = {
  approved: 'Claim upheld: amount returned to the payer',
  rejected: 'Claim dismissed: amount released to the merchant',
};
const REFERENCE_PREFIX: Record<BlockType, string> = { med: 'MED', judicial: 'JUD', administrative: 'ADM' };

export interface BlockInput {
  amount?: Cents;
  blockType?: BlockType;
  reason?: string;
}

function blockData(account: Account, b: BalanceBlock) {
  return {
    blockId: b.id,
    transactionId: b.transactionId,
    environment: account.environment,
    amount: b.amount / 100,
    currency: 'BRL',
    blockType: b.blockType,
    status: b.status,
    referenceNumber: b.referenceNumber,
    reason: b.reason,
    ...opt('e2eId', b.e2eId),
    createdAt: isoTime(b.createdAt),
    ...opt('resolutionReason', b.resolutionReason),
    ...(b.resolvedAt !== undefined ? { resolvedAt: isoTime(b.resolvedAt) } : {}),
  };
}

const emit = (deps: Deps, account: Account, b: BalanceBlock, event: EventKind) =>
  recordEvent(deps, account, account.wallets[b.walletId]!, event, `${event}_${b.id}`, blockData(account, b));

/** Control action `block` on a charge: opens a block awaiting_response on the payment's wallet. */
export function openBlock(deps: Deps, account: Account, paymentId: string, input: BlockInput): BalanceBlock {
  const payment = account.transactions[paymentId];
  if (!payment || payment.type !== 'payment') throw notFound('TRANSACTION_NOT_FOUND', 'payment', paymentId);
  if (payment.status !== 'completed')
    throw new SandboxError('INVALID_STATE_TRANSITION', `Cannot block a payment that is ${payment.status}: only a completed payment can be blocked; pay it first.`, {
      from: payment.status,
      action: 'block',
    });
  const refund = liveRefundOf(account, payment.id);
  if (refund)
    throw new SandboxError('INVALID_STATE_TRANSITION', `Cannot block payment ${payment.id}: it has a ${refund.status} refund (${refund.id}), so its money already went back to the payer.`, {
      action: 'block',
      refundTransactionId: refund.id,
    });
  const live = liveBlockOf(account, payment.id);
  if (live)
    throw new SandboxError('INVALID_STATE_TRANSITION', `Cannot block payment ${payment.id} again: block ${live.id} is ${live.status}. A payment has at most one block that is not rejected.`, {
      action: 'block',
      balanceBlockId: live.id,
    });
  const amount = input.amount ?? payment.amount;
  if (amount > payment.amount) throw validationError([{ field: 'amount', message: `must be at most ${brlText(payment.amount)}, the payment amount (or omit it to block the whole payment)` }]);

  const now = nowOf(deps, account);
  const blockType = input.blockType ?? 'med';
  const stamp = new Date(now).toISOString().slice(0, 10).replaceAll('-', '');
  const chargeback: Transaction = {
    id: deps.ids.uuid(),
    walletId: payment.walletId,
    type: 'chargeback',
    status: 'pending',
    paymentMethod: payment.paymentMethod,
    amount,
    createdAt: now,
    updatedAt: now,
    description: `${REFERENCE_PREFIX[blockType]} block of ${payment.id}`,
    relatedTransactionId: payment.id,
    ...opt('projectId', payment.projectId),
  };
  const block: BalanceBlock = {
    id: deps.ids.uuid(),
    walletId: payment.walletId,
    transactionId: payment.id,
    chargebackTransactionId: chargeback.id,
    amount,
    status: 'awaiting_response',
    blockType,
    referenceNumber: `${REFERENCE_PREFIX[blockType]}-${stamp}-${deps.ids.token(8, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ')}`,
    reason: input.reason ?? DEFAULT_BLOCK_REASON[blockType],
    ...opt('e2eId', payment.e2eId),
    ...opt('externalReference', payment.externalReference),
    createdAt: now,
    updatedAt: now,
  };
  account.transactions[chargeback.id] = chargeback;
  account.balanceBlocks[block.id] = block;
  deps.retention.hang(account.id, payment.id); // a retention sweep under way keeps the payment (services/retention.ts)
  noteHolder(deps.store, 'transaction', chargeback.id, account.id);
  noteHolder(deps.store, 'balanceBlock', block.id, account.id);
  post(
    account,
    [
      { walletId: block.walletId, bucket: 'available', amount: -amount, transactionId: chargeback.id },
      { walletId: block.walletId, bucket: 'held', amount, transactionId: chargeback.id },
    ],
    now,
    deps.ids.uuid,
  );
  emit(deps, account, block, 'balance_block_created');
  publishTransactions(deps.bus, account.id, chargeback);
  return block;
}

export const BLOCK_ACTIONS = ['defend', 'approve', 'reject'] as const;
export type BlockAction = (typeof BLOCK_ACTIONS)[number];
const TARGET: Record<BlockAction, BalanceBlockStatus> = { defend: 'defended', approve: 'approved', reject: 'rejected' };

/** POST /_sandbox/balance-blocks/{id}/{defend|approve|reject}. */
export function resolveBlock(deps: Deps, blockId: string, action: BlockAction, reason?: string): { account: Account; block: BalanceBlock } {
  const account = holderOf(deps.store, 'balanceBlock', blockId);
  const block = account?.balanceBlocks[blockId];
  if (!account || !block) throw notFound('BALANCE_BLOCK_NOT_FOUND', 'balance block', blockId, 'List blocks with GET /v2/balance-blocks.');
  block.status = transition(BALANCE_BLOCK_TRANSITIONS, 'balance block', block.status, TARGET[action], action);
  const now = nowOf(deps, account);
  block.updatedAt = now;
  if (action === 'defend') {
    // defended: no event, no money moves
    return { account, block };
  }
  const to = action === 'approve' ? 'approved' : 'rejected';
  const chargeback = account.transactions[block.chargebackTransactionId]!;
  chargeback.status = transition(TRANSACTION_TRANSITIONS, 'chargeback', chargeback.status, to === 'approved' ? 'completed' : 'cancelled', action);
  chargeback.updatedAt = now;
  block.resolutionReason = reason ?? DEFAULT_RESOLUTION[to];
  block.resolvedAt = now;
  const release = { walletId: block.walletId, bucket: 'held' as const, amount: -block.amount, transactionId: chargeback.id };
  post(account, to === 'approved' ? [release] : [release, { walletId: block.walletId, bucket: 'available', amount: block.amount, transactionId: chargeback.id }], now, deps.ids.uuid);
  emit(deps, account, block, to === 'approved' ? 'balance_block_approved' : 'balance_block_rejected');
  publishTransactions(deps.bus, account.id, chargeback);
  return { account, block };
}

/** GET /v2/balance-blocks: the caller wallet's blocks, newest first, optionally of one status. */
export function listBlocks(caller: Pick<Caller, 'account' | 'wallet'>, status?: BalanceBlockStatus): BalanceBlock[] {
  return Object.values(caller.account.balanceBlocks)
    .filter((b) => b.walletId === caller.wallet.id && (status === undefined || b.status === status))
    .reverse()
    .sort((a, b) => b.createdAt - a.createdAt);
}

registerActions('charge', {
  block: (deps, account, id, body) => {
    const block = openBlock(deps, account, id, { amount: body.amount, blockType: body.blockType as BlockType | undefined, reason: body.reason });
    return { kind: 'block', account, block };
  },
});
