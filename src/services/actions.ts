// Control actions on transactions (sandbox.md 4.3): POST /_sandbox/transactions/{id}/{action}. Each kind of target
// (charge, and later withdrawal, refund...) declares its actions; a target is found by UUID in any account. An action
// that the target's kind does not have, or that its state refuses, is a 409 INVALID_STATE_TRANSITION.
import type { Deps } from '../deps';
import { SandboxError, notFound } from '../domain/errors';
import type { Account, BalanceBlock, Transaction } from '../domain/types';
import { endCharge, expireCharge, payCharge } from './charges';
import { locateTransaction } from './transactions';

export interface ActionBody {
  payerName?: string;
  payerDocument?: string;
  reason?: string;
  amount?: number; // cents
  blockType?: string;
}

export interface ActionTarget {
  kind: string;
  account: Account;
  id: string;
  /** The target's current state, named in refusals. */
  status: string;
}

/** What an action moved, as a domain record: the control face turns it into its answer (STYLE.md habit 14). */
export type ActionResult =
  | { kind: 'charge' | 'refund' | 'withdrawal'; tx: Transaction }
  | { kind: 'block'; account: Account; block: BalanceBlock };

type Handler = (deps: Deps, account: Account, id: string, body: ActionBody) => ActionResult;

export const ACTION_NAMES = ['pay', 'expire', 'fail', 'cancel', 'process', 'complete', 'reverse', 'block', 'refund'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/**
 * Finders, tried in order: the first that knows the id names its kind. Transactions (charges, withdrawals, refunds:
 * one lookup for all of them) come first, being what the control API pays, fails and reverses most; the finders that
 * feature areas add (a static QR) are tried after them.
 */
const locators: Array<(deps: Deps, id: string) => ActionTarget | undefined> = [
  (deps, id) => {
    const found = locateTransaction(deps.store, id);
    if (!found) return undefined;
    const { tx } = found;
    // A withdrawal names its own status (processing, reversed) in refusals, not the transaction status it shows as.
    return { kind: tx.charge ? 'charge' : tx.type, account: found.account, id, status: tx.withdrawal?.status ?? tx.status };
  },
];

const handlers: Record<string, Partial<Record<ActionName, Handler>>> = {
  charge: {
    pay: (deps, account, id, body) => ({ kind: 'charge', tx: payCharge(deps, account, id, body) }),
    expire: (deps, account, id) => ({ kind: 'charge', tx: expireCharge(deps, account, id) }),
    fail: (deps, account, id) => ({ kind: 'charge', tx: endCharge(deps, account, id, 'failed', 'fail') }),
    cancel: (deps, account, id) => ({ kind: 'charge', tx: endCharge(deps, account, id, 'cancelled', 'cancel') }),
  },
};

/** Lets a feature area add a kind of target and its actions. */
export function registerActions(kind: string, actions: Partial<Record<ActionName, Handler>>, locate?: (deps: Deps, id: string) => ActionTarget | undefined) {
  handlers[kind] = { ...handlers[kind], ...actions };
  if (locate) locators.push(locate);
}

export function runAction(deps: Deps, id: string, action: ActionName, body: ActionBody): ActionResult {
  const target = locators.reduce<ActionTarget | undefined>((found, locate) => found ?? locate(deps, id), undefined);
  if (!target) throw notFound('TRANSACTION_NOT_FOUND', 'transaction or withdrawal', id);
  const handler = handlers[target.kind]?.[action];
  if (!handler) {
    const possible = Object.keys(handlers[target.kind] ?? {});
    throw new SandboxError(
      'INVALID_STATE_TRANSITION',
      `Cannot ${action} a ${target.kind} (it is ${target.status})${possible.length ? `; a ${target.kind} accepts: ${possible.join(', ')}` : `; a ${target.kind} has no control actions`}.`,
      { kind: target.kind, action, from: target.status },
    );
  }
  return handler(deps, target.account, target.id, body);
}
