// GET /v1/metrics: revenue of the whole account (main wallet and every sub-account; API keys are account-level).
// Definitions are in domain/metrics.ts. A refund counts once it is completed, on the day it completed.
import type { Deps } from '../deps';
import { validationError } from '../domain/errors';
import { addDays, brazilDay, computeMetrics, daysFrom, MRR_WINDOW_DAYS, type Day, type Metrics, type RevenueEntry } from '../domain/metrics';
import type { Account, Transaction } from '../domain/types';
import { valuesOf } from '../lib/objects';
import { nowOf } from './clocks';

export const MAX_METRICS_DAYS = 366;

/** When a completed transaction completed: paidAt when it has one, else its last update (a completed one is final). */
const completedAt = (tx: Transaction) => tx.paidAt ?? tx.updatedAt;

export function revenueEntries(account: Account): RevenueEntry[] {
  const entries: RevenueEntry[] = [];
  for (const tx of valuesOf(account.transactions)) {
    if (tx.status !== 'completed') continue;
    if (tx.type === 'payment') entries.push({ at: completedAt(tx), amount: tx.amount, customerId: tx.customerId });
    else if (tx.type === 'refund' && tx.relatedTransactionId !== undefined && account.transactions[tx.relatedTransactionId]?.type === 'payment')
      entries.push({ at: completedAt(tx), amount: -tx.amount });
  }
  return entries;
}

export interface MetricsQuery {
  from?: Day | undefined;
  to?: Day | undefined;
}

/** `to` defaults to today in Brazil, `from` to the 29 days before `to`: the default range is one MRR window. */
export function accountMetrics(deps: Deps, account: Account, q: MetricsQuery): Metrics {
  const today = brazilDay(nowOf(deps, account));
  const to = q.to ?? today;
  const from = q.from ?? addDays(to, -(MRR_WINDOW_DAYS - 1));
  const toSaid = q.to === undefined ? `to (${to}, today in Brazil, as to was omitted)` : `to (${to})`;
  if (daysFrom(from, to) < 0) throw validationError([{ field: 'from', message: `(${from}) must not be after ${toSaid}` }]);
  if (daysFrom(from, to) + 1 > MAX_METRICS_DAYS)
    throw validationError([{ field: 'from', message: `(${from}) to ${toSaid} is ${daysFrom(from, to) + 1} days; ask for at most ${MAX_METRICS_DAYS} days at a time` }]);
  return computeMetrics(revenueEntries(account), { from, to }, today);
}
