// Everything that happens by itself (charge expiry, automatic pay/complete, webhook retries) is a job in the state,
// due at a sandbox-clock instant. Jobs run in time order: when the clock is advanced, each job runs with the clock
// set to its due time, so the events it makes carry that time; in real time a timer runs them as they fall due, and
// every request first catches up on anything overdue. Handlers re-check state and do nothing when the job is moot
// (a charge paid before its expiry), so jobs never need cancelling.
import type { Clock } from '../lib/clock';
import type { Ids } from '../lib/ids';
import type { Job, Store } from '../store/store';

export type JobHandler = (job: Job) => void | Promise<unknown>;

export interface Scheduler {
  on(kind: string, handler: JobHandler): void;
  schedule(job: Omit<Job, 'id'>): void;
  /** Runs every job due by now. Returns the promises of async handlers (deliveries), for callers that wait. */
  catchUp(): Promise<unknown>;
  /** Moves the clock forward by `ms`, running what falls due on the way, in order. */
  advance(ms: number): Promise<unknown>;
  /** Jumps the clock to `ms`; when that is later, what falls due on the way runs first. */
  setClock(ms: number, frozen: boolean): Promise<unknown>;
  /** Arms the real-time timer (called after listen); stop() disarms it. */
  start(): void;
  stop(): void;
}

export function createScheduler(store: Store, clock: Clock, ids: Ids, log: (l: string) => void): Scheduler {
  const handlers = new Map<string, JobHandler>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  const jobs = () => store.state.jobs;

  function runOne(job: Job): Promise<unknown> | undefined {
    const handler = handlers.get(job.kind);
    if (!handler) {
      log(`scheduler: no handler for job kind '${job.kind}', dropped`);
      return undefined;
    }
    try {
      const result = handler(job);
      return result instanceof Promise ? result.catch((err) => log(`scheduler: job ${job.kind} failed: ${String(err)}`)) : undefined;
    } catch (err) {
      log(`scheduler: job ${job.kind} ${job.ref} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return undefined;
    }
  }

  /** Runs jobs due at or before `until`; when `moveClock`, the clock stands at each job's due time while it runs. */
  function runUntil(until: number, moveClock: boolean): Promise<unknown> {
    const pending: Promise<unknown>[] = [];
    const frozen = clock.frozen;
    while (jobs().length > 0 && jobs()[0]!.dueAt <= until) {
      const job = jobs().shift()!;
      store.changed();
      if (moveClock && job.dueAt > clock.nowMs()) clock.set(job.dueAt, frozen);
      const p = runOne(job);
      if (p) pending.push(p);
    }
    return Promise.all(pending);
  }

  function arm() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!running || clock.frozen || jobs().length === 0) return;
    const wait = Math.min(Math.max(jobs()[0]!.dueAt - clock.nowMs(), 0), 60_000);
    timer = setTimeout(() => {
      void runUntil(clock.nowMs(), false);
      void store.flush();
      arm();
    }, wait);
    timer.unref();
  }

  return {
    on(kind, handler) {
      handlers.set(kind, handler);
    },
    schedule(job) {
      const list = jobs();
      // Insert after every job due at the same time or earlier: equal times keep their insertion order.
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid]!.dueAt <= job.dueAt) lo = mid + 1;
        else hi = mid;
      }
      list.splice(lo, 0, { id: ids.uuid(), ...job });
      store.changed();
      if (lo === 0) arm();
    },
    catchUp() {
      const list = jobs();
      if (list.length === 0 || list[0]!.dueAt > clock.nowMs()) return Promise.resolve();
      return runUntil(clock.nowMs(), false);
    },
    async advance(ms) {
      const target = clock.nowMs() + ms;
      const done = runUntil(target, true);
      clock.set(target, clock.frozen);
      store.changed();
      arm();
      return done;
    },
    async setClock(ms, frozen) {
      const done = ms > clock.nowMs() ? runUntil(ms, true) : Promise.resolve();
      clock.set(ms, frozen);
      store.changed();
      arm();
      return done;
    },
    start() {
      running = true;
      arm();
    },
    stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
