// Everything that happens by itself (automatic pay/complete, webhook attempts) is a job in the state, due at an instant
// of the clock its tenant runs on (its own, or the sandbox clock: services/clocks.ts), unless a stored record already
// dates it (a pending charge's expiry is its expiresAt): such a deadline is kept in this process's queue only (see
// Deadlines). Each clock has its lane of work: advancing a clock walks its lane only, so a tenant's jump runs its own
// work and nobody else's. Jobs run in time order: when a clock is advanced, each job runs with it set to its due time,
// so the events it makes carry that time. Async work a handler returns holds the walk at its instant; work it detaches
// (a webhook attempt, whose outcome schedules its retry) runs on beside the walk, which waits for it only at the
// instant it names (the retry's), so attempts of different deliveries overlap, and advance()/setClock() resolve once
// all of it is done: an advance takes about as long as its slowest attempt chain, not their sum. In real time a timer
// runs jobs as they fall due on every clock that runs; a job scheduled already due runs on the next turn of the event
// loop even on a frozen clock; every request first catches up on anything overdue. Handlers re-check state and do
// nothing when the job is moot (a charge paid before its expiry), so jobs never need cancelling. A job is taken off the
// state in the unit that runs it, unless its handler answers KEEP_JOB: the work it started takes the job off when done
// (a webhook attempt, in the unit that records its outcome), so that a crash meanwhile leaves the job due.
import { CLOCK_RANGE_TEXT, inClockRange, type Clock } from '../lib/clock';
import type { Clocks } from './clocks';
import type { Account } from '../domain/types';
import { validationError } from '../domain/errors';
import { createHeap, type Heap } from '../lib/heap';
import type { Ids } from '../lib/ids';
import type { Store } from '../store/store';
import { rawOf } from '../store/unit';
import { valuesOf } from '../lib/objects';
import { KEEP_JOB, type Job, type State } from '../store/state';

export { KEEP_JOB };


export type JobHandler = (job: Job) => void | typeof KEEP_JOB | Promise<unknown>;

/**
 * Work that a stored record already dates, kept in the scheduler's queue in memory only: nothing is stored for it. A
 * pending charge's expiry is its charge.expiresAt; as a stored job, each of 100,000 pending charges carried a job
 * object, its id and due time, and an entry in the state's jobs (about 140 bytes of RSS a charge, and a write more in
 * each create's journal line). The queue reads every such record from the state when it is rebuilt (at start, after
 * changes were undone, after a reset), and takes one made or moved since through dated().
 */
export interface Deadlines<T extends object> {
  /** Every record of an account that waits for its date. */
  scan(account: Account): Iterable<T>;
  /** The id of the account a record is of (whose clock dates it), if it is still in the state. */
  accountOf(record: T): string | undefined;
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
  /** The account took a clock of its own (services/clocks.ts): its work moves to that clock's queue. */
  adopt(accountId: string): void;
  /**
   * The account gave its clock back (it runs on the sandbox clock again) or is gone: its work moves to the sandbox
   * clock's queue, and its own clock's lane is dropped.
   */
  release(accountId: string): void;
  /** Adds a kind of deadline (at registration, before the first job runs). */
  deadlines<T extends object>(kind: string, deadlines: Deadlines<T>): void;
  /** A record of a deadline kind was made, or its date moved: it joins the queue at its date (in the current unit). */
  dated(kind: string, record: object): void;
  /** Runs every job due by now, on every clock. Resolves once their async work (webhook attempts) is done. */
  catchUp(): Promise<unknown>;
  /**
   * Moves the clock forward by `ms`, running what falls due on the way, in order; resolves when all of it is done.
   * The clock is the one `accountId` runs on (its own, or the sandbox clock); without it, the sandbox clock. Only
   * the work of the tenants on that clock runs.
   */
  advance(ms: number, accountId?: string): Promise<void>;
  /** Jumps the clock (as advance() picks it) to `ms`; when that is later, what falls due on the way runs first. */
  setClock(ms: number, frozen: boolean, accountId?: string): Promise<void>;
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
  detach(work: Promise<unknown>, holds?: number, accountId?: string): void;
}

export function createScheduler(store: Store, clocks: Clocks, ids: Ids, log: (l: string) => void): Scheduler {
  const handlers = new Map<string, JobHandler>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  // The state keys jobs by id (a change set holds one job, not the whole list); their order lives here, in memory, in
  // one lane per clock: the sandbox clock's (key '') and that of each tenant with a clock of its own (key: its account
  // id). A lane holds its jobs by dueAt, then by insertion (a heap), and a queue per kind of deadline. A job in a lane
  // that is no longer the state's (its unit was undone, its account deleted), or no longer of that lane's clock (its
  // tenant took a clock of its own since), is skipped; when changes were undone or the state replaced (store.epoch
  // moved), every lane is rebuilt.
  type Lane = {
    key: string;
    clock: Clock;
    queue: Heap<Job>;
    dated: Map<string, Heap<object>>;
    /** Detached work, with the instant that the walk of this lane's clock does not pass before it ends (Infinity: none). */
    detached: Map<Promise<unknown>, number>;
    /**
     * The real-time instant at or before which this lane's first thing falls due (-Infinity: due now; Infinity:
     * nothing waits, or its clock is frozen before it). Never later than the truth: a job taken off or a charge paid
     * leaves it early, and a look at the lane then finds nothing due and reckons it again.
     */
    due: number;
    /** Bumped at each change of `due`: an entry of `byDue` with another version is stale. */
    version: number;
  };
  /**
   * The lanes by their `due`, so that each request's look for due work reads the first entry, however many tenants
   * have clocks of their own (a lane appears again at each change; only the entry of its current version counts).
   */
  type DueEntry = { lane: Lane; due: number; version: number };
  let byDue = createHeap<DueEntry>((e) => e.due);
  /** The real-time instant at which something at `at` on the lane's clock falls due. */
  const realDue = (lane: Lane, at: number): number => {
    if (at === Infinity) return Infinity;
    const now = lane.clock.nowMs();
    return at <= now ? -Infinity : lane.clock.frozen ? Infinity : lane.clock.realMs() + (at - now);
  };
  const setDue = (lane: Lane, due: number) => {
    lane.due = due;
    lane.version++;
    if (due === Infinity) return;
    byDue.push({ lane, due, version: lane.version });
    // Entries made stale by later changes wait for their time to be dropped: past twice the lanes, keep the current only.
    if (byDue.size > 2 * lanes.size + 64) {
      const current = createHeap<DueEntry>((e) => e.due);
      for (const l of lanes.values()) if (l.due !== Infinity) current.push({ lane: l, due: l.due, version: l.version });
      byDue = current;
    }
  };
  /** Reckons the lane's `due` again (its clock moved, or it ran what was due). */
  const refresh = (lane: Lane) => setDue(lane, realDue(lane, nextAt(lane)));
  /** The first entry of `byDue` that is current, stale ones taken off on the way. */
  const firstDue = (): DueEntry | undefined => {
    for (let e = byDue.peek(); e; e = byDue.peek()) {
      if (e.version === e.lane.version && lanes.get(e.lane.key) === e.lane) return e;
      byDue.pop();
    }
    return undefined;
  };
  const dueAt = (job: Job) => job.dueAt;
  let epoch = -1;
  const dropped = new Set<string>();
  /** Each kind of deadline. */
  const sources = new Map<string, Deadlines<object>>();
  /** Records whose deadline failed to run: not run again by this process (as a dropped job). */
  const givenUp = new WeakSet<object>();
  /** Which lane an account's work is in: its own clock's, or the sandbox clock's (''). */
  const keyOf = (accountId: string | undefined) => (accountId !== undefined && clocks.owns(accountId) ? accountId : '');
  const lanes = new Map<string, Lane>();
  const sandboxLane = (): Lane => laneOf('');
  const emptyLane = (key: string): Lane => ({
    key,
    clock: key === '' ? clocks.sandbox : clocks.of(key),
    queue: createHeap<Job>(dueAt),
    dated: new Map([...sources].map(([kind, deadlines]) => [kind, createHeap<object>((r) => deadlines.dueAt(r) ?? Infinity)])),
    detached: new Map(),
    due: Infinity,
    version: 0,
  });
  /** Every lane, read from the state again (at start, after changes were undone, after a reset). */
  function rebuild() {
    epoch = store.epoch;
    const previous = new Map(lanes);
    lanes.clear();
    const fresh = (key: string) => {
      let lane = lanes.get(key);
      if (!lane) {
        lane = emptyLane(key);
        // Work in flight goes on being waited for.
        const before = previous.get(key);
        if (before) lane.detached = before.detached;
        lanes.set(key, lane);
      }
      return lane;
    };
    fresh('');
    for (const job of valuesOf(store.raw.jobs)) fresh(keyOf(job.accountId)).queue.push(job);
    for (const account of valuesOf(store.raw.accounts)) {
      const lane = fresh(keyOf(account.id));
      for (const [kind, deadlines] of sources) for (const record of deadlines.scan(account)) lane.dated.get(kind)!.push(record);
    }
    // Detached work of lanes gone (a tenant deleted) is still waited for by the sandbox clock's walk.
    for (const [key, lane] of previous) if (!lanes.has(key)) for (const [work, holds] of lane.detached) sandboxLane().detached.set(work, holds);
    byDue = createHeap<DueEntry>((e) => e.due);
    for (const lane of lanes.values()) refresh(lane);
  }
  /** A tenant that took a clock of its own: its lane, read from the state (what its old lane holds of it is skipped). */
  function adopt(key: string): Lane {
    const lane = emptyLane(key);
    lanes.set(key, lane);
    takeWorkOf(key, lane);
    refresh(lane);
    return lane;
  }
  /** Queues in `lane` the jobs and dated records of account `key`, read from the state. */
  function takeWorkOf(key: string, lane: Lane): void {
    for (const job of valuesOf(store.raw.jobs)) if (job.accountId === key) lane.queue.push(job);
    const account = store.raw.accounts[key];
    if (account) for (const [kind, deadlines] of sources) for (const record of deadlines.scan(account)) lane.dated.get(kind)!.push(record);
  }
  /** A tenant back on the sandbox clock: its work joins the sandbox clock's lane, and what its lane waited for too. */
  function release(key: string): void {
    const old = lanes.get(key);
    lanes.delete(key);
    const lane = sandboxLane();
    takeWorkOf(key, lane);
    if (old) for (const [work, holds] of old.detached) lane.detached.set(work, holds);
    queued(lane, nextAt(lane));
  }
  function laneOf(key: string): Lane {
    if (epoch !== store.epoch) rebuild();
    return lanes.get(key) ?? (key === '' ? (rebuild(), lanes.get('')!) : adopt(key));
  }
  /** The lanes as they stand (rebuilt first when the state moved under them). */
  function allLanes(): Iterable<Lane> {
    if (epoch !== store.epoch) rebuild();
    return lanes.values();
  }
  function head(lane: Lane): Job | undefined {
    if (epoch !== store.epoch) rebuild();
    const stored = store.raw.jobs;
    const { queue } = lane;
    for (let first = queue.peek(); first; first = queue.peek()) {
      if (stored[first.id] === first && !dropped.has(first.id)) {
        const key = keyOf(first.accountId);
        if (key === lane.key) break;
        // Its tenant took a clock of its own since it was queued: it is in that clock's lane (read from the state).
        if (!lanes.has(key)) laneOf(key);
      }
      queue.pop();
    }
    return queue.peek();
  }
  /** A deadline queue's first date, past the records that wait no more, whose date moved (queued again) or whose clock is another lane's. */
  function firstDate(lane: Lane, kind: string): number {
    const deadlines = sources.get(kind)!;
    const queue = lane.dated.get(kind)!;
    for (let record = queue.peek(); record; record = queue.peek()) {
      const at = queue.peekKey()!;
      if (deadlines.dueAt(record) === at && !givenUp.has(record)) {
        const key = keyOf(deadlines.accountOf(record));
        if (key === lane.key) return at;
        if (!lanes.has(key)) laneOf(key);
      }
      queue.pop();
    }
    return Infinity;
  }
  /** When the next job or deadline of a lane falls due (Infinity: nothing waits). */
  function nextAt(lane: Lane): number {
    let at = head(lane)?.dueAt ?? Infinity;
    for (const kind of sources.keys()) at = Math.min(at, firstDate(lane, kind));
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
  function runDeadline(kind: string, record: object): void {
    const unit = store.begin('job');
    try {
      store.run(unit, () => sources.get(kind)!.run(record));
    } catch (err) {
      store.rollback(unit);
      givenUp.add(record);
      log(`scheduler: deadline ${kind} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return;
    }
    store.commit(unit).catch((err) => log(`scheduler: deadline ${kind} was undone: ${String(err)}`));
  }

  /** Runs what falls due first in a lane (a job before a deadline of the same instant); returns an async handler's promise. */
  function runNext(lane: Lane): Promise<unknown> | undefined {
    const job = head(lane);
    let at = job?.dueAt ?? Infinity;
    let from: string | undefined;
    for (const kind of sources.keys()) {
      const date = firstDate(lane, kind);
      if (date < at) {
        at = date;
        from = kind;
      }
    }
    if (from !== undefined) {
      runDeadline(from, lane.dated.get(from)!.pop()!);
      return undefined;
    }
    lane.queue.pop();
    return runOne(job!);
  }

  /** Runs what is due in a lane at or before `until`, at its clock as it stands; returns the promises of async handlers. */
  function runDue(lane: Lane, until: number): Promise<unknown>[] {
    const pending: Promise<unknown>[] = [];
    while (nextAt(lane) <= until) {
      const p = runNext(lane);
      if (p) pending.push(p);
    }
    return pending;
  }

  const NONE: Promise<unknown>[] = [];
  /**
   * Runs what is due on every clock by its own now. Each request asks: it reads the first entry of byDue, so nothing
   * is allocated and no lane is visited when nothing is due.
   */
  function runAllDue(): Promise<unknown>[] {
    if (epoch !== store.epoch) rebuild();
    const realNow = clocks.sandbox.realMs();
    let first = firstDue();
    if (!first || first.due > realNow) return NONE;
    // The lanes whose time came (each once: what they schedule due at once runs on the next turn, through kick()).
    const due: Lane[] = [];
    for (; first && first.due <= realNow; first = firstDue()) {
      byDue.pop();
      // Its entries are spent (what it queues meanwhile gives it new ones; refresh() after its run, one again).
      setDue(first.lane, Infinity);
      due.push(first.lane);
    }
    let pending: Promise<unknown>[] | undefined;
    for (const lane of due) {
      if (lane.key !== '' && !clocks.owns(lane.key)) {
        lanes.delete(lane.key); // its account is gone; what it detached is waited for by nobody now
        continue;
      }
      const now = lane.clock.nowMs();
      if (nextAt(lane) <= now) (pending ??= []).push(...runDue(lane, now));
      refresh(lane);
    }
    return pending ?? NONE;
  }

  /**
   * Every move of the clock stays in its range, whoever asks (the clock routes say so first, with the field they took;
   * a story's step lands here): past year 9999 the days that the walk and the views count stop being dates.
   */
  function withinRange(target: number): void {
    if (!inClockRange(target)) throw validationError([{ field: 'clock', message: `would move to epoch ms ${target}; the clock stays within ${CLOCK_RANGE_TEXT}` }]);
  }

  /** Walks a lane's clock through each due instant up to `until`, running that instant's jobs and awaiting their async work. */
  async function runThrough(lane: Lane, until: number): Promise<void> {
    const { clock } = lane;
    for (;;) {
      for (let at = nextAt(lane); at <= until; at = nextAt(lane)) {
        const held = holding(lane, at);
        if (held) {
          await Promise.all(held); // what it schedules (a retry due at its instant) runs in its turn
          continue;
        }
        if (at > clock.nowMs()) clock.set(at, clock.frozen);
        const pending = runDue(lane, at);
        refresh(lane);
        if (pending.length > 0) await Promise.all(pending);
      }
      if (lane.detached.size === 0) return;
      // What the detached work schedules once done (a retry) is walked too.
      await Promise.all(lane.detached.keys());
    }
  }

  /** The detached work of a lane to wait for before running what falls due at `at`, if any. */
  function holding(lane: Lane, at: number): Promise<unknown>[] | undefined {
    let held: Promise<unknown>[] | undefined;
    for (const [work, holds] of lane.detached) if (holds <= at) (held ??= []).push(work);
    return held;
  }
  function detach(work: Promise<unknown>, holds = Infinity, accountId?: string) {
    const { detached } = laneOf(keyOf(accountId));
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
      runAllDue();
    });
  }

  /** Something was queued in `lane` for `at` (on its clock): run it soon, or re-arm the timer when it comes first. */
  function queued(lane: Lane, at: number) {
    const due = realDue(lane, at);
    if (due === -Infinity) kick();
    if (due >= lane.due) return;
    setDue(lane, due);
    if (due !== -Infinity && firstDue()?.lane === lane) arm();
  }

  /** The timer waits for the first thing due, in real time, of the clocks that run (a frozen clock waits for a move). */
  function arm() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!running) return;
    if (epoch !== store.epoch) rebuild();
    const wait = (firstDue()?.due ?? Infinity) - clocks.sandbox.realMs();
    if (wait === Infinity) return;
    timer = setTimeout(
      () => {
        runAllDue();
        arm();
      },
      Math.min(Math.max(wait, 0), 60_000),
    );
    timer.unref();
  }

  /** The lane of the clock that `accountId` runs on (the sandbox clock's without one). */
  const laneFor = (accountId?: string) => laneOf(keyOf(accountId));

  return {
    on(kind, handler) {
      handlers.set(kind, handler);
    },
    schedule(spec) {
      const lane = laneFor(spec.accountId);
      const job: Job = { id: ids.uuid(), kind: spec.kind, dueAt: spec.dueAt, accountId: spec.accountId, ref: spec.ref };
      store.state.jobs[job.id] = job;
      if (countEpoch === store.epoch) count++;
      lane.queue.push(job);
      queued(lane, job.dueAt);
      return job.id;
    },
    adopt(accountId) {
      if (epoch === store.epoch && clocks.owns(accountId)) adopt(accountId);
    },
    release(accountId) {
      if (epoch === store.epoch && !clocks.owns(accountId)) release(accountId);
    },
    deadlines(kind, deadlines) {
      sources.set(kind, deadlines as Deadlines<object>);
      epoch = -1; // the next look at the lanes reads this kind's records from the state
    },
    dated(kind, record) {
      const deadlines = sources.get(kind)!;
      const raw = rawOf(record);
      const lane = laneFor(deadlines.accountOf(raw));
      lane.dated.get(kind)!.push(raw);
      queued(lane, deadlines.dueAt(raw) ?? Infinity);
    },
    unschedule(id) {
      // The queue skips a job that is no longer the state's when it comes to the top.
      remove(id);
    },
    anyDue() {
      for (const lane of allLanes()) if (nextAt(lane) <= lane.clock.nowMs()) return true;
      return false;
    },
    catchUp() {
      const pending = runAllDue();
      return pending.length === 0 ? Promise.resolve() : Promise.all(pending);
    },
    async advance(ms, accountId) {
      const lane = laneFor(accountId);
      const { clock } = lane;
      const target = clock.nowMs() + ms;
      withinRange(target);
      await runThrough(lane, target);
      // Never backwards: real time spent awaiting attempts, or a concurrent advance, may have carried it past target.
      clock.set(Math.max(target, clock.nowMs()), clock.frozen);
      refresh(lane);
      arm();
    },
    async setClock(ms, frozen, accountId) {
      withinRange(ms);
      const lane = laneFor(accountId);
      if (ms > lane.clock.nowMs()) await runThrough(lane, ms);
      lane.clock.set(ms, frozen);
      refresh(lane);
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
