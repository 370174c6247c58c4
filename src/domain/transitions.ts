// State machines are data: each entity has an `as const` table of allowed moves, and `transition()` is the one
// place that refuses an illegal move, with a message naming both states.
import { SandboxError } from './errors';

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

export function transition<S extends string>(table: TransitionTable<S>, entity: string, from: S, to: S, action: string): S {
  if (!table[from].includes(to)) {
    const allowed = table[from];
    throw new SandboxError(
      'INVALID_STATE_TRANSITION',
      `Cannot ${action} a ${entity} that is ${from}: ${article(from)} ${from} ${entity} ${allowed.length ? `can only become ${allowed.join(' or ')}` : 'is final'}.`,
      { from, to, action },
    );
  }
  return to;
}

/** Transactions (charges included): only a pending one moves. */
export const TRANSACTION_TRANSITIONS = {
  pending: ['completed', 'cancelled', 'failed'],
  completed: [],
  cancelled: [],
  failed: [],
} as const satisfies TransitionTable<'pending' | 'completed' | 'cancelled' | 'failed'>;

/** Withdrawals (sandbox.md 2.5, 4.3): process, then complete or fail; a completed one can only be reversed. */
export const WITHDRAWAL_TRANSITIONS = {
  pending: ['processing', 'completed', 'failed'],
  processing: ['completed', 'failed'],
  completed: ['reversed'],
  failed: [],
  reversed: [],
} as const satisfies TransitionTable<'pending' | 'processing' | 'completed' | 'failed' | 'reversed'>;

/** Balance blocks (sandbox.md 2.5): awaiting a response, optionally defended, then approved or rejected. */
export const BALANCE_BLOCK_TRANSITIONS = {
  awaiting_response: ['defended', 'approved', 'rejected'],
  defended: ['approved', 'rejected'],
  approved: [],
  rejected: [],
} as const satisfies TransitionTable<'awaiting_response' | 'defended' | 'approved' | 'rejected'>;

/** Payment links (sandbox.md 12): active until paid (single-use, with a customerId), expired or disabled. */
export const PAYMENT_LINK_TRANSITIONS = {
  active: ['paid', 'expired', 'disabled'],
  paid: [],
  expired: [],
  disabled: [],
} as const satisfies TransitionTable<'active' | 'paid' | 'expired' | 'disabled'>;
