// Everything that happens by itself (charge expiry, automatic pay/complete, webhook attempts) is a job in the state,
// due at a sandbox-clock instant. Jobs run in time order: when the clock is advanced, each job runs with the clock
// set to its due time, so the events it makes carry that time, and the async work of one instant (webhook attempts)
// is awaited before the next instant runs, so what that work schedules on the way (a retry) runs in order too. In real
// time a timer runs jobs as they fall due; a job scheduled already due runs on the next turn of the event loop even
// on a frozen clock; every request first catches up on anything overdue. Handlers re-check state and do nothing when
// the job is moot (a charge paid before its expiry), so jobs never need cancelling.
import type { Clock } from '../lib/clock';
import type { Ids } from '../lib/ids';
import type { Job, Store } from '../store/store';

export type JobHandler = (job: Job) => void | Promise<unknown>;

export interface Scheduler {
  on(kind: string, handler: JobHandler): void;
  schedule(job: Omit<Job, 'id'>): void;
  /** Runs every job due by now. Resolves once their async work (webhook attempts) is done, for callers that wait. */
  catchUp(): Promise<unknown>;
  /** Moves the clock forward by `ms`, running what falls due on the way, in order; resolves when all of it is done. */
  advance(ms: number): Promise<void>;
  /** Jumps the clock to `ms`; when that is later, what falls due on the way runs first. */
  setClock(ms: number, frozen: boolean): Promise<void>;
  /** Arms the real-time timer (called after listen); stop() disarms it and stops running due jobs by themselves. */
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

  /** Runs the jobs due at or before `until`, at the clock as it stands; returns the promises of async handlers. */
  function runDue(until: number): Promise<unknown>[] {
    const pending: Promise<unknown>[] = [];
    while (jobs().length > 0 && jobs()[0]!.dueAt <= until) {
      const job = jobs().shift()!;
      store.changed();
      const p = runOne(job);
      if (p) pending.push(p);
    }
    return pending;
  }

  /** Walks the clock through each due instant up to `until`, running that instant's jobs and awaiting their async work. */
  async function runThrough(until: number): Promise<void> {
    while (jobs().length > 0 && jobs()[0]!.dueAt <= until) {
      const at = jobs()[0]!.dueAt;
      if (at > clock.nowMs()) clock.set(at, clock.frozen);
      const pending = runDue(at);
      if (pending.length > 0) await Promise.all(pending);
    }
  }

  // A job scheduled already due (a webhook's first attempt, autopay after 0 s) runs on the next turn of the event loop,
  // outside the request that made it: the timer alone would miss it on a frozen clock or before listen().
  let kicked = false;
  let halted = false;
  function kick() {
    if (kicked || halted) return;
    kicked = true;
    setImmediate(() => {
      kicked = false;
      if (halted) return;
      runDue(clock.nowMs());
      void store.flush();
    });
  }

  function arm() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!running || clock.frozen || jobs().length === 0) return;
    const wait = Math.min(Math.max(jobs()[0]!.dueAt - clock.nowMs(), 0), 60_000);
    timer = setTimeout(() => {
      runDue(clock.nowMs());
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
      if (job.dueAt <= clock.nowMs()) kick();
      else if (lo === 0) arm();
    },
    catchUp() {
      const list = jobs();
      if (list.length === 0 || list[0]!.dueAt > clock.nowMs()) return Promise.resolve();
      return Promise.all(runDue(clock.nowMs()));
    },
    async advance(ms) {
      const target = clock.nowMs() + ms;
      await runThrough(target);
      // Never backwards: real time spent awaiting attempts, or a concurrent advance, may have carried it past target.
      clock.set(Math.max(target, clock.nowMs()), clock.frozen);
      store.changed();
      arm();
    },
    async setClock(ms, frozen) {
      if (ms > clock.nowMs()) await runThrough(ms);
      clock.set(ms, frozen);
      store.changed();
      arm();
    },
    start() {
      running = true;
      halted = false;
      arm();
    },
    stop() {
      running = false;
      halted = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
