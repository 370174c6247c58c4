// What retention (sandbox.md 6.1) offers the rest of the sandbox: its interface, apart from its work
// (services/retention.ts), so deps.ts can name it without importing the services it uses.
import type { Account } from './types';

export interface RetentionRun {
  /** When it ended, on the sandbox clock. */
  at: string;
  ms: number;
  tenantsDeleted: number;
  transactionsDeleted: number;
}

export interface Retention {
  /** A request names the tenant (a face's guard): touched at its clock's now. */
  touch(account: Account): void;
  /** A control request works on the tenant: no sweep deletes it until the returned function runs (which touches it). */
  hold(accountId: string): () => void;
  /** Runs a sweep now, or after the one running (begun maybe before a change); resolves when done, never rejects. */
  sweep(): Promise<void>;
  /** The real-time timer (after listen); stop() clears it. */
  start(): void;
  stop(): void;
  /**
   * A verb made a transaction that hangs on `transactionId` (a refund of it, a block on it): a sweep under way keeps
   * that transaction's group (its plan predates the new one).
   */
  hang(accountId: string, transactionId: string): void;
  /** Forgets touches, holds and what hangs (reset). */
  clear(): void;
  /** What health shows: the periods in force, the last run and the totals since start. */
  report(): { retain: string | null; retainTransactions: string | null; lastRun: RetentionRun | null; deleted: { tenants: number; transactions: number } };
  /** A tenant was given a period of its own (its spec or a PATCH): sweeps run from now on. */
  ownPeriod(): void;
  /** The period that applies to a tenant, or null when it is kept (a fixture, or no retention). */
  periodOf(account: Account): number | null;
  /** When a request last touched the tenant (ms on its clock): in memory, else as saved, else its creation. */
  lastTouched(account: Account): number;
}
