// Placeholder until --retain-transactions lands (services/retention.ts calls it): deletes nothing.
import type { Deps } from '../deps';

/** Deletes up to `max` of the account's settled transactions last changed before `cutoffMs`; returns how many. */
export function retainTransactions(_deps: Deps, _accountId: string, _cutoffMs: number, _max: number): number {
  return 0;
}
