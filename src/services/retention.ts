// Retention (sandbox.md 6.1, docs/data.md): a shared sandbox keeps itself small. Two rules, each off unless asked:
// - `--retain DURATION` (or a tenant's own `retain`): a tenant that no request has touched for that long on its clock
//   is deleted, as DELETE /_sandbox/accounts/{id} deletes it. Tenants of the fixtures (the default world) never are.
// - `--retain-transactions DURATION`: settled transactions last changed longer ago than that are deleted with what
//   hangs on them (services/retain-transactions.ts), a batch per unit of work.
// A sweep runs in the background: on a real-time timer once the sandbox listens, and after every move of a clock (the
// move's answer waits for it, so a test that advances two days sees the tenants gone). Each deletion is a unit of its
// own, so a kill -9 mid-sweep leaves whole tenants and whole transactions; the sweep yields to the event loop between
// units, so requests go on meanwhile.
// Touches are kept in memory (a Map per request, nothing written by a read) and saved into the account (touchedAt) by
// the sweep that finds them newer, in one unit: a crash forgets at most the touches since the last sweep, which makes
// a tenant look older by at most that much. A control request on a tenant holds it while it runs (its own clock's
// advance cannot delete it) and touches it again when done.
import type { Deps } from '../deps';
import type { Account } from '../domain/types';
import type { Retention, RetentionRun } from '../domain/retention';
import { formatDuration } from '../lib/duration';
import { isoTime } from '../lib/iso';
import { deleteAccount } from './accounts';
import { nowOf } from './clocks';
import { compactLedgerAndEvents, deleteFromPlan, planRetention, turn } from './retain-transactions';

/** Real-time ms between background sweeps (a sweep also follows every clock move). */
export const SWEEP_EVERY_MS = 60_000;
/** Transactions deleted per unit of work: small enough that a unit's pause of the event loop stays short. */
export const TRANSACTIONS_PER_UNIT = 250;

const NONE: ReadonlySet<string> = new Set();

/**
 * `deps`: the sandbox's, which this becomes part of (it reads deps.retention of none of them); `fixtureIds`: ids of the
 * fixture world's tenants, for data files written before tenants carried `fixture`.
 */
export function createRetention(deps: Deps, fixtureIds: ReadonlySet<string>): Retention {
  const { store, settings, log } = deps;
  const touches = new Map<string, number>();
  const holds = new Map<string, number>();
  /** Per tenant: transactions that something made since its last plan now hangs on (hang()). */
  const hung = new Map<string, Set<string>>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let lastRun: RetentionRun | null = null;
  const deleted = { tenants: 0, transactions: 0 };

  const periodOf = (account: Account): number | null => (account.fixture || fixtureIds.has(account.id) ? null : (account.retainMs ?? settings.retainMs ?? null));
  const lastTouched = (account: Account) => Math.max(touches.get(account.id) ?? -Infinity, account.touchedAt ?? -Infinity, account.createdAt);
  const stale = (account: Account) => {
    const period = periodOf(account);
    return period !== null && !holds.has(account.id) && nowOf(deps, account) - lastTouched(account) >= period;
  };

  /** Saves the touches newer than what the tenants hold, of the tenants a period applies to (one unit). */
  async function saveTouches(): Promise<void> {
    const accounts = store.raw.accounts;
    const newer: Array<[string, number]> = [];
    for (const [id, at] of touches) {
      const account = accounts[id];
      if (!account) touches.delete(id);
      else if (at > (account.touchedAt ?? -Infinity) && periodOf(account) !== null) newer.push([id, at]);
    }
    if (newer.length === 0) return;
    await store.atomically('system', () => {
      for (const [id, at] of newer) {
        const account = store.state.accounts[id];
        if (account) account.touchedAt = at;
      }
    }).durable;
  }

  async function deleteStaleTenants(run: RetentionRun): Promise<void> {
    const candidates = Object.values(store.raw.accounts).filter(stale).map((a) => a.id);
    for (const id of candidates) {
      // Checked again in its unit: a request may have touched it while the sweep yielded.
      const { result: period, durable } = store.atomically('system', () => {
        const account = store.state.accounts[id];
        if (!account || !stale(account)) return null;
        const period = periodOf(account);
        deleteAccount(deps, id);
        return period;
      });
      await durable;
      if (period !== null) {
        run.tenantsDeleted++;
        touches.delete(id);
        log(`retention: deleted tenant ${id}, untouched for ${formatDuration(period)} or more`);
      }
      await turn();
    }
  }

  async function deleteOldTransactions(run: RetentionRun): Promise<void> {
    const period = settings.retainTransactionsMs;
    if (period === undefined) return;
    for (const id of Object.keys(store.raw.accounts)) {
      const cutoffOf = () => (Object.hasOwn(store.raw.accounts, id) ? nowOf(deps, store.raw.accounts[id]!) - period : null);
      const cutoff = cutoffOf();
      if (cutoff === null) continue;
      hung.delete(id); // the plan sees what hangs on its transactions now
      const plan = await planRetention(deps, id, cutoff);
      let deleted = 0;
      for (let next = 0, batch = 0; plan && next < plan.groups.length; batch++) {
        // Said once, when a tenant's old transactions take more than one batch.
        if (batch === 1) log(`retention: deleting the settled transactions of tenant ${id} last changed before ${isoTime(cutoff)}, ${TRANSACTIONS_PER_UNIT} at a time`);
        const { result, durable } = store.atomically('system', () => deleteFromPlan(deps, plan, next, TRANSACTIONS_PER_UNIT, hung.get(id) ?? NONE));
        await durable;
        ({ next } = result);
        deleted += result.deleted;
        await turn();
      }
      run.transactionsDeleted += deleted;
      if (deleted > 0) log(`retention: deleted ${deleted} settled transactions of tenant ${id}`);
      // The ledger and events are arrays, written whole by the journal: rewritten once per account and sweep.
      const cutoffNow = cutoffOf();
      if (cutoffNow !== null) await compactLedgerAndEvents(deps, id, cutoffNow, cutoffNow + period);
      await turn();
    }
  }

  async function sweepOnce(): Promise<void> {
    const started = performance.now();
    const run: RetentionRun = { at: '', ms: 0, tenantsDeleted: 0, transactionsDeleted: 0 };
    try {
      await saveTouches();
      await deleteStaleTenants(run);
      await deleteOldTransactions(run);
    } catch (err) {
      log(`retention: a sweep stopped: ${(err as Error)?.stack ?? String(err)}`);
    }
    run.ms = Math.round(performance.now() - started);
    run.at = isoTime(deps.clock.nowMs());
    deleted.tenants += run.tenantsDeleted;
    deleted.transactions += run.transactionsDeleted;
    lastRun = run;
  }

  /**
   * Whether a tenant has had a period of its own: looked for once (a data file may hold some), then told by
   * ownPeriod(); never false again, which only costs a sweep that finds nothing. So a clock move beside 10,000
   * tenants without retention does not look at each of them.
   */
  let ownPeriods: boolean | undefined;
  const active = () =>
    settings.retainMs !== undefined || settings.retainTransactionsMs !== undefined || (ownPeriods ??= Object.values(store.raw.accounts).some((a) => a.retainMs !== undefined));

  const retention: Retention = {
    touch(account) {
      touches.set(account.id, nowOf(deps, account));
    },
    hold(accountId) {
      holds.set(accountId, (holds.get(accountId) ?? 0) + 1);
      return () => {
        const n = holds.get(accountId)! - 1;
        if (n > 0) holds.set(accountId, n);
        else holds.delete(accountId);
        if (Object.hasOwn(store.raw.accounts, accountId)) retention.touch(store.raw.accounts[accountId]!);
      };
    },
    sweep() {
      if (running) {
        again = true;
        return running;
      }
      if (!active()) return Promise.resolve();
      running = (async () => {
        do {
          again = false;
          await sweepOnce();
        } while (again);
        running = null;
      })();
      return running;
    },
    start() {
      timer ??= setInterval(() => void retention.sweep(), SWEEP_EVERY_MS).unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    hang(accountId, transactionId) {
      const ids = hung.get(accountId);
      if (ids) ids.add(transactionId);
      else hung.set(accountId, new Set([transactionId]));
    },
    clear() {
      touches.clear();
      holds.clear();
      hung.clear();
    },
    report: () => ({
      retain: settings.retainMs === undefined ? null : formatDuration(settings.retainMs),
      retainTransactions: settings.retainTransactionsMs === undefined ? null : formatDuration(settings.retainTransactionsMs),
      lastRun,
      deleted: { ...deleted },
    }),
    ownPeriod() {
      ownPeriods = true;
    },
    periodOf,
    lastTouched,
  };
  return retention;
}

/** A tenant's retention as GET /_sandbox/accounts/{id} shows it. */
export function retentionView(deps: Deps, account: Account) {
  const period = deps.retention.periodOf(account);
  const touched = deps.retention.lastTouched(account);
  return {
    retain: period === null ? null : formatDuration(period),
    own: account.retainMs !== undefined,
    lastTouchedAt: isoTime(touched),
    deletedAfter: period === null ? null : isoTime(touched + period),
  };
}

/** What retention deletes, in words (the banner, the console's records line); null when it deletes nothing. */
export function retentionSummary({ retain, retainTransactions }: { retain: string | null; retainTransactions: string | null }): string | null {
  const parts = [retain && `tenants untouched for ${retain}`, retainTransactions && `settled transactions older than ${retainTransactions}`].filter(Boolean);
  return parts.length ? `deletes ${parts.join(' and ')}` : null;
}
