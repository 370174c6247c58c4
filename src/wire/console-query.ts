// The console's query (which account, the transaction filters, the page of each list): read by the page at /
// (leniently, pages/index.tsx) and by GET /_sandbox/console (strictly, control/console.tsx), which answer the same
// sections.
import { z } from '@hono/zod-openapi';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, type Transaction } from '../domain/types';
import type { TransactionFilter } from '../services/lists';
import { intQuery } from './schemas';

export interface ConsoleQuery {
  account?: string;
  type?: Transaction['type'];
  status?: TransactionFilter['status'];
  wallet?: string;
  page: number;
  epage: number;
  dpage: number;
  /** The Requests panel's order: failures first, else newest first. */
  rorder?: 'failures';
  /** A workshop attendee's console or view token (pages/attendee.ts), kept in the console's links. */
  attendee?: string;
  /** 'room': the workshop room alone, for the projector (the presenter's). */
  view?: 'room';
}

const TYPES = TRANSACTION_TYPES;
const STATUSES = TRANSACTION_STATUSES;

/** The console's query: which account, the transaction filters and the page of each list. */
export const ConsoleQuerySchema = z.object({
  account: z.string().optional().openapi({ description: 'Account id (default: the first account)' }),
  // '' is what the filter form sends for "any".
  type: z.enum(['', ...TYPES], { error: `must be one of ${TYPES.join(', ')} (or empty for any)` }).optional(),
  // 'expired': the charges cancelled by expiry (sandbox.md 5.1), a console filter over the cancelled ones.
  status: z.enum(['', ...STATUSES, 'expired'], { error: `must be one of ${STATUSES.join(', ')}, expired (or empty for any)` }).optional(),
  wallet: z.string().optional().openapi({ description: 'Only transactions of this wallet: a sub-account reference or "principal"' }),
  page: intQuery('page', 1, Number.MAX_SAFE_INTEGER, 1),
  epage: intQuery('epage', 1, Number.MAX_SAFE_INTEGER, 1),
  dpage: intQuery('dpage', 1, Number.MAX_SAFE_INTEGER, 1),
  rorder: z.enum(['', 'failures'], { error: "must be 'failures' (or empty for newest first)" }).optional(),
  view: z.enum(['', 'room'], { error: "must be 'room' (the workshop room alone) or empty for the whole console" }).optional(),
  attendee: z.string().optional().openapi({ description: "A workshop attendee's console link token, kept in the console's links (the control API reads the caller from X-Sandbox-Token)" }),
});

/** Empty filters from a GET form (`type=`) mean "any". */
export function consoleQuery(raw: z.infer<typeof ConsoleQuerySchema>): ConsoleQuery {
  return { ...raw, account: raw.account || undefined, wallet: raw.wallet || undefined, type: raw.type || undefined, status: raw.status || undefined, rorder: raw.rorder || undefined, attendee: raw.attendee || undefined, view: raw.view || undefined };
}
