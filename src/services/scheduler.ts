// Everything that happens by itself (automatic pay/complete, webhook attempts) is a job in the state, due at a
// sandbox-clock instant, unless a stored record already dates it (a pending charge's expiry is its expiresAt): such a
// deadline is kept in this process's queue only (see Deadlines). Jobs run in time order: when the clock is advanced,
// each job runs with the clock set to its due time, so the events it makes carry that time. Async work a handler
// returns holds the walk at its instant; work it detaches (a webhook attempt, whose outcome schedules its retry) runs
// on beside the walk, which waits for it only at the instant it names (the retry's), so attempts of different
// deliveries overlap, and advance()/setClock() resolve once all of it is done: an advance takes about as long as its
// slowest attempt chain, not their sum. In real time a timer runs jobs as they fall due; a job scheduled already due
// runs on the next turn of the event loop even on a frozen clock; every request first catches up on anything overdue.
// Handlers re-check state and do nothing when the job is moot (a charge paid before its expiry), so jobs never need
// cancelling. A job is taken off the state in the unit that runs it, unless its handler answers KEEP_JOB: the work it
// started takes the job off when done (a webhook attempt, in the unit that records its outcome), so that a crash
// meanwhile leaves the job due.
import { CLOCK_RANGE_TEXT, inClockRange, type Clock } from '../lib/clock';
import { validationError } from '../domain/errors';
import { createHeap, type Heap } from '../lib/heap';
import type { Ids } from '../lib/ids';
import type { Store } from '../store/store';
import { rawOf } from '../store/unit';
import { valuesOf } from '../lib/objects';
import type { Job, State } from '../store/state';

/**
 * What a handler returns when the work it started (and detached) takes its job off the state once done: the job stays
 * there meanwhile, and this process does not run it again unless its queue is rebuilt (the handler then answers again).
 */
export const KEEP_JOB: unique symbol = Symbol('keep the job');

export type JobHandler = (job: Job) => void | typeof KEEP_JOB | Promise<unknown>;

/**
 * Work that a stored record already dates, kept in the scheduler's queue in memory only: nothing is stored for it. A
 * pending charge's expiry is its charge.expiresAt; as a stored job, each of 100,000 pending charges carried a job
 * object, its id and due time, and an entry in the state's jobs (about 140 bytes of RSS a charge, and a write more in
 * each create's journal line). The queue reads every such record from the state when it is rebuilt (at start, after
 * changes were undone, after a reset), and takes one made or moved since through dated().
 */
export interface Deadlines<T extends object> {
  /** Every record of the state that waits for its date. */
  scan(state: State): Iterable<T>;
  /** Its date, or undefined once it waits no more (paid, cancelled): a record whose date moved was queued again. */
  dueAt(record: T): number | undefined;
  /** Runs at the date, in a unit of its own, as a job's handler does: checking the record as it is then. */
  run(record: T): void;
}

export interface Scheduler {
  on(kind: string, handler: JobHandler): void;
  /** Adds a job; returns its id. */
  schedule(job: Omit<Job, 'id'>): string;
  /**
   * Takes a job off before it falls due (a webhook retry made moot by a success, a deleted account's jobs); a job
   * already gone is no change.
   */
  unschedule(id: string): void;
  /** Adds a kind of deadline (at registration, before the first job runs). */
  deadlines<T extends object>(kind: string, deadlines: Deadlines<T>): void;
  /** A record of a deadline kind was made, or its date moved: it joins the queue at its date (in the current unit). */
  dated(kind: string, record: object): void;
  /** Runs every job due by now. Resolves once their async work (webhook attempts) is done, for callers that wait. */
  catchUp(): Promise<unknown>;
  /** Moves the clock forward by `ms`, running what falls due on the way, in order; resolves when all of it is done. */
  advance(ms: number): Promise<void>;
  /** Jumps the clock to `ms`; when that is later, what falls due on the way runs first. */
  setClock(ms: number, frozen: boolean): Promise<void>;
  /** Arms the real-time timer (called after listen); stop() disarms it and stops running due jobs by themselves. */
  start(): void;
  stop(): void;
  /** How many jobs the state holds (deadlines are not jobs: a pending charge's expiry is not counted). */
  pendingCount(): number;
  /** Whether a job or a deadline is due by the clock now: a look at each queue's first, however many wait. */
  anyDue(): boolean;
  /**
   * Work that runs beside the walk of the clock (an attempt in flight); advance() and setClock() await it at the end,
   * and do not run what falls due at or after `holds` before it ends (an attempt's retry, which its outcome schedules).
   */
  detach(work: Promise<unknown>, holds?: number): void;
}

export function createScheduler(store: Store, clock: Clock, ids: Ids, log: (l: string) => void): Scheduler {
  const handlers = new Map<string, JobHandler>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  // The state keys jobs by id (a change set holds one job, not the whole list); their order lives here, in memory:
  // by dueAt, then by insertion (a heap). A job in this queue that is no longer the state's (its unit was undone, its
  // account deleted) is skipped; when changes were undone or the state replaced (store.epoch moved), it is rebuilt.
  const dueAt = (job: Job) => job.dueAt;
  let queue = createHeap<Job>(dueAt);
  let epoch = -1;
  const dropped = new Set<string>();
  /** Each kind of deadline and its queue, rebuilt with the jobs'. */
  type Source = { kind: string; deadlines: Deadlines<object>; queue: Heap<object> };
  const sources = new Map<string, Source>();
  /** Records whose deadline failed to run: not run again by this process (as a dropped job). */
  const givenUp = new WeakSet<object>();
  function head(): Job | undefined {
    const stored = store.raw.jobs;
    if (epoch !== store.epoch) {
      epoch = store.epoch;
      queue = createHeap(dueAt, valuesOf(stored));
      for (const source of sources.values()) source.queue = queueOf(source.deadlines, store.raw);
    }
    for (let first = queue.peek(); first && (stored[first.id] !== first || dropped.has(first.id)); first = queue.peek()) queue.pop();
    return queue.peek();
  }
  /** A deadline kind's queue: the records of `state` that wait for their dates (none without a state). */
  function queueOf(deadlines: Deadlines<object>, state?: State): Heap<object> {
    const heap = createHeap<object>((record) => deadlines.dueAt(record) ?? Infinity);
    if (state) for (const record of deadlines.scan(state)) heap.push(record);
    return heap;
  }
  /** A deadline queue's first date, past the records that wait no more or whose date moved (queued again). */
  function firstDate(source: Source): number {
    for (let record = source.queue.peek(); record; record = source.queue.peek()) {
      const at = source.queue.peekKey()!;
      if (source.deadlines.dueAt(record) === at && !givenUp.has(record)) return at;
      source.queue.pop();
    }
    return Infinity;
  }
  /** When the next job or deadline falls due (Infinity: nothing waits). */
  function nextAt(): number {
    let at = head()?.dueAt ?? Infinity;
    for (const source of sources.values()) at = Math.min(at, firstDate(source));
    return at;
  }
  // How many jobs the state holds, kept as the scheduler adds and takes them off (every change of the state's jobs goes
  // through it), so that GET /_sandbox/health does not walk 100,000 of them (40-60 ms) each time it is asked; counted
  // again after changes were undone or the state replaced (store.epoch moved).
  let count = 0;
  let countEpoch = -1;
  const pendingCount = () => {
    if (countEpoch !== store.epoch) {
      countEpoch = store.epoch;
      count = Object.keys(store.raw.jobs).length;
    }
    return count;
  };
  /** Takes job `id` off the state (in the current unit) when it is there. */
  const remove = (id: string) => {
    if (!Object.hasOwn(store.raw.jobs, id)) return;
    delete store.state.jobs[id];
    if (countEpoch === store.epoch) count--;
  };

  const failed = (job: Job, err: unknown) => log(`scheduler: job ${job.kind} ${job.ref} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);

  /**
   * Runs one job as a unit of work: taking it off the state (unless its handler keeps it: KEEP_JOB) and what its
   * handler changes are one change. A handler that throws changes nothing (the job is then dropped, in a unit of its
   * own, so it does not run again and again). An async handler's later work (a webhook attempt's outcome) is a unit of
   * its own.
   */
  function runOne(job: Job): Promise<unknown> | undefined {
    const handler = handlers.get(job.kind);
    const unit = store.begin('job');
    let result: unknown;
    try {
      result = store.run(unit, () => {
        if (!handler) log(`scheduler: no handler for job kind '${job.kind}', dropped`);
        const answer = handler?.(job);
        if (answer !== KEEP_JOB) remove(job.id);
        return answer;
      });
    } catch (err) {
      store.rollback(unit);
      failed(job, err);
      try {
        store.atomically('job', () => remove(job.id)).durable.catch(() => {});
      } catch {
        dropped.add(job.id); // cannot even be taken off (an injected fault): not run again by this process
      }
      return undefined;
    }
    store.commit(unit).catch((err) => log(`scheduler: job ${job.kind} ${job.ref} was undone: ${String(err)}`));
    return result instanceof Promise ? result.catch((err) => failed(job, err)) : undefined;
  }

  /** Runs a deadline as a unit of work; one that throws changes nothing and is not run again by this process. */
  function runDeadline({ kind, deadlines }: Source, record: object): void {
    const unit = store.begin('job');
    try {
      store.run(unit, () => deadlines.run(record));
    } catch (err) {
      store.rollback(unit);
      givenUp.add(record);
      log(`scheduler: deadline ${kind} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return;
    }
    store.commit(unit).catch((err) => log(`scheduler: deadline ${kind} was undone: ${String(err)}`));
  }

  /** Runs what falls due first (a job before a deadline of the same instant); returns an async handler's promise. */
  function runNext(): Promise<unknown> | undefined {
    const job = head();
    let at = job?.dueAt ?? Infinity;
    let from: Source | undefined;
    for (const source of sources.values()) {
      const date = firstDate(source);
      if (date < at) {
        at = date;
        from = source;
      }
    }
    if (from) {
      runDeadline(from, from.queue.pop()!);
      return undefined;
    }
    queue.pop();
    return runOne(job!);
  }

  /** Runs what is due at or before `until`, at the clock as it stands; returns the promises of async handlers. */
  function runDue(until: number): Promise<unknown>[] {
    const pending: Promise<unknown>[] = [];
    while (nextAt() <= until) {
      const p = runNext();
      if (p) pending.push(p);
    }
    return pending;
  }

  /** Walks the clock through each due instant up to `until`, running that instant's jobs and awaiting their async work. */
  /**
   * Every move of the clock stays in its range, whoever asks (the clock routes say so first, with the field they took;
   * a story's step lands here): past year 9999 the days that the walk and the views count stop being dates.
   */
  function withinRange(target: number): void {
    if (!inClockRange(target)) throw validationError([{ field: 'clock', message: `would move to epoch ms ${target}; the clock stays within ${CLOCK_RANGE_TEXT}` }]);
  }

  async function runThrough(until: number): Promise<void> {
    for (;;) {
      for (let at = nextAt(); at <= until; at = nextAt()) {
        const held = holding(at);
        if (held) {
          await Promise.all(held); // what it schedules (a retry due at its instant) runs in its turn
          continue;
        }
        if (at > clock.nowMs()) clock.set(at, clock.frozen);
        const pending = runDue(at);
        if (pending.length > 0) await Promise.all(pending);
      }
      if (detached.size === 0) return;
      // What the detached work schedules once done (a retry) is walked too.
      await Promise.all(detached.keys());
    }
  }

  /** Detached work, with the instant that the walk does not pass before it ends (Infinity: none). */
  const detached = new Map<Promise<unknown>, number>();
  /** The detached work to wait for before running what falls due at `at`, if any. */
  function holding(at: number): Promise<unknown>[] | undefined {
    let held: Promise<unknown>[] | undefined;
    for (const [work, holds] of detached) if (holds <= at) (held ??= []).push(work);
    return held;
  }
  function detach(work: Promise<unknown>, holds = Infinity) {
    const tracked: Promise<unknown> = work.then(
      () => detached.delete(tracked),
      (err) => {
        log(`scheduler: detached work failed: ${String(err)}`);
        detached.delete(tracked);
      },
    );
    detached.set(tracked, holds);
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
    });
  }

  /** Something was queued for `at`, when the first thing due was at `before`: run it soon, or re-arm the timer. */
  function queued(at: number, before: number) {
    if (at <= clock.nowMs()) kick();
    else if (at < before) arm();
  }

  function arm() {
    if (timer) clearTimeout(timer);
    timer = null;
    const first = nextAt();
    if (!running || clock.frozen || first === Infinity) return;
    const wait = Math.min(Math.max(first - clock.nowMs(), 0), 60_000);
    timer = setTimeout(() => {
      runDue(clock.nowMs());
      arm();
    }, wait);
    timer.unref();
  }

  return {
    on(kind, handler) {
      handlers.set(kind, handler);
    },
    schedule(spec) {
      const before = nextAt();
      const job: Job = { id: ids.uuid(), kind: spec.kind, dueAt: spec.dueAt, accountId: spec.accountId, ref: spec.ref };
      store.state.jobs[job.id] = job;
      if (countEpoch === store.epoch) count++;
      queue.push(job);
      queued(job.dueAt, before);
      return job.id;
    },
    deadlines(kind, deadlines) {
      sources.set(kind, { kind, deadlines: deadlines as Deadlines<object>, queue: queueOf(deadlines as Deadlines<object>) });
      epoch = -1; // the next look at the queue reads this kind's records from the state
    },
    dated(kind, record) {
      const source = sources.get(kind)!;
      const before = nextAt();
      const raw = rawOf(record);
      source.queue.push(raw);
      queued(source.deadlines.dueAt(raw) ?? Infinity, before);
    },
    unschedule(id) {
      // The queue skips a job that is no longer the state's when it comes to the top.
      remove(id);
    },
    anyDue() {
      return nextAt() <= clock.nowMs();
    },
    catchUp() {
      if (nextAt() > clock.nowMs()) return Promise.resolve();
      return Promise.all(runDue(clock.nowMs()));
    },
    async advance(ms) {
      const target = clock.nowMs() + ms;
      withinRange(target);
      await runThrough(target);
      // Never backwards: real time spent awaiting attempts, or a concurrent advance, may have carried it past target.
      clock.set(Math.max(target, clock.nowMs()), clock.frozen);
      arm();
    },
    async setClock(ms, frozen) {
      withinRange(ms);
      if (ms > clock.nowMs()) await runThrough(ms);
      clock.set(ms, frozen);
      arm();
    },
    pendingCount,
    detach,
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
