// The state and where it lives. One plain JSON-serializable object, addressed by account (tenancy is part of the
// address). Every change happens inside a unit of work (./unit.ts): a request, a job, a delivery outcome; a unit that
// throws leaves nothing behind, and the change set of one that succeeds is what is written. Memory by default; with a
// data file (./disk.ts), each unit's change set is one journal line, appended and fsync'd before the answer that
// reports it (group commit: the lines queued while a write runs share the next write and fsync), and folded into the
// snapshot in the background. A line that cannot be written undoes its unit (and every later one not yet on disk):
// the request answers 503 STORAGE_UNAVAILABLE, reads go on, the next write tries again.
import { closeSync, existsSync, fdatasync, fstatSync, ftruncateSync, openSync, realpathSync, renameSync, statSync, unlinkSync, write as fsWrite } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { TextFile } from 'lowdb/node';
import { builtin } from '../lib/builtin';
import type { ClockState } from '../lib/clock';
import type { Account } from '../domain/types';
import { SandboxError } from '../domain/errors';
import { Unit, type Tally, type UnitHooks, type UnitKind, changeSet, currentUnit, tallyOf, runInUnit, undo, unitBegun, unitEnded, unitsOpen, view } from './unit';
import { JOURNAL_FORMAT, holdReplaced, journalLine, journalOf, loadDataFile, oldJournalOf, serializeInSlices, snapshotWriter } from './disk';
import { loadStateChecks, shapeProblem } from './checks';
import type { AsRead } from './as-read';
import { acquireLock, type FileLock } from './lock';
import { foldThread } from './fold-thread';
import { type Job, type State, emptyState, upgrade } from './state';

/** node:fs/promises, loaded when a data file is folded or rebuilt (a start in memory needs none of it). */
const fsp = builtin<typeof import('node:fs/promises')>('node:fs/promises');

export interface ClockBinding {
  snapshot(): ClockState;
  restore(state: ClockState): void;
}

export interface Store {
  /**
   * While any unit of work is open: a view that records every change into the current unit (and throws on a write
   * while none is current); otherwise the raw state (read-only by convention).
   */
  readonly state: State;
  /** The raw state, never recorded (for readers that must not pay for the view). */
  readonly raw: State;
  readonly persistent: boolean;
  account(id: string): Account;
  findAccount(id: string): Account | undefined;
  /** Resolves once every change committed so far is on disk (at once in memory). */
  flush(): Promise<void>;
  /** Swap the whole state (reset), as one change of the current unit. */
  replace(next: State): void;
  /** Starts a unit of work; run code in it with run(), then commit() or rollback(). */
  begin(kind: UnitKind): Unit;
  /** Runs `fn`'s synchronous part with `unit` current: its writes (until its first await) are the unit's. */
  run<T>(unit: Unit | undefined, fn: () => T): T;
  /** Ends a unit that succeeded: resolves once its change set is on disk (rejects 503 STORAGE_UNAVAILABLE after undoing it). */
  commit(unit: Unit): Promise<void>;
  /** Ends a unit that failed: every change it made is undone. */
  rollback(unit: Unit): void;
  /** Runs `fn` as one unit of its own (synchronous work: a job, a delivery outcome, start-up); returns its durability. */
  atomically<T>(kind: UnitKind, fn: () => T): { result: T; durable: Promise<void> };
  /** Ties the sandbox clock in: its snapshot is saved with each change, and restored when a unit that moved it fails. */
  bindClock(clock: ClockBinding): void;
  /** Bumped whenever changes are undone or the state is replaced (the scheduler then re-reads its jobs). */
  readonly epoch: number;
  /** Test hooks (fault injection); never set in production. */
  readonly hooks: UnitHooks;
  /**
   * What background compaction has done: folds done and abandoned, how many of them ran in a thread of their own, the
   * last one's duration and its longest synchronous stretch on the event loop.
   */
  readonly compaction?: { runs: number; abandoned: number; offThread: number; lastMs: number; lastLongestSliceMs: number };
  /**
   * Inside a unit: holds `fn` until the unit is committed (and on disk), drops it if the unit is undone, and returns
   * true. Outside any unit: returns false (the caller goes ahead at once).
   */
  afterCommit(fn: () => void): boolean;
  /** Waits for the journal, folds it into the snapshot and lets the lock go (data file only). */
  close(): Promise<void>;
  /** The records held: every account's stored transactions (sandbox.md 6.1), kept as units write them. */
  readonly records: number;
  /** What the records weigh (./weight.ts), kept the same way: the sandbox's byte budget is counted in it. */
  readonly bytes: number;
}

export interface StoreOptions {
  hooks?: UnitHooks;
  log?: (line: string) => void;
  /** Fold the journal into the snapshot once it passes this many bytes (and half the snapshot's size). Default 8 MiB. */
  compactAfterBytes?: number;
}

interface Pending {
  body: string;
  unit: Unit;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const storageUnavailable = (why: string, fix = 'Free disk space or fix the permissions, then send the request again') =>
  new SandboxError('STORAGE_UNAVAILABLE', `The change could not be written to the data file (${why}), so it was not made. ${fix}; reads keep working.`);
const REBUILDING = 'The sandbox is writing a fresh snapshot and journal at the path: send the request again in a moment';

/** Runs `fn` after a turn of the event loop, and keeps the longest such synchronous stretch in `slices`. */
async function stretch<T>(slices: { longestMs: number }, fn: () => T): Promise<T> {
  await new Promise((r) => setImmediate(r));
  const started = performance.now();
  try {
    return fn();
  } finally {
    slices.longestMs = Math.max(slices.longestMs, performance.now() - started);
  }
}

function writeAll(fd: number, buf: Buffer, position: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = 0;
    const step = () =>
      fsWrite(fd, buf, done, buf.length - done, position + done, (err, n) => {
        if (err) return reject(err);
        done += n;
        if (done < buf.length) step();
        else fdatasync(fd, (e) => (e ? reject(e) : resolve()));
      });
    step();
  });
}

/**
 * The real path of a data file: symlinks resolved (of the file, or of its directory when the file does not exist yet),
 * so the lock, the snapshot and the journal are the same files whichever link a process was given (sandbox.md 11).
 */
export function realDataPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return join(realpathSync(dirname(resolve(file))), basename(file));
    } catch {
      return resolve(file);
    }
  }
}

/** Device and inode of a path (null when it is gone): a file deleted or replaced under a running sandbox is noticed. */
function identity(path: string): string | null {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}` : null;
}

/**
 * The store's getters, on the prototype of the store: on Node 20 an object literal with a getter is made in dictionary
 * mode, where every read of any of its properties (the store's methods, on every request) is a generic look-up.
 */
class StoreGetters {
  constructor(private readonly reads: { state(): State; raw(): State; epoch(): number; records(): number; bytes(): number }) {}
  get state() {
    return this.reads.state();
  }
  get raw() {
    return this.reads.raw();
  }
  get epoch() {
    return this.reads.epoch();
  }
  get records() {
    return this.reads.records();
  }
  get bytes() {
    return this.reads.bytes();
  }
}

export async function openStore(givenFile?: string, options: StoreOptions = {}): Promise<{ store: Store; loaded: boolean }> {
  const dataFile = givenFile === undefined ? undefined : realDataPath(givenFile);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const hooks: UnitHooks = options.hooks ?? {};
  const holder: { state: State } = { state: emptyState() };
  let loaded = false;
  let lock: FileLock | null = null;
  let fd = -1;
  /** Bytes of whole lines in the journal; a write goes there, and a failed one is cut back to it. */
  let size = 0;
  /** The last journal line written (and fsync'd). */
  let lastSeq = 0;
  let snapshotBytes = 0;
  /** What the read of the data file counted of each collection (./as-read.ts), for the first tally below. */
  let asRead: AsRead | undefined;
  // lowdb's TextFile (and node:fs/promises with it) is loaded with a data file only.
  const snapshot: TextFile | null = dataFile ? new (await import('lowdb/node')).TextFile(dataFile) : null;
  /** Identity (device:inode) of the snapshot and the lock as this process wrote them; the journal is its open fd. */
  const files: { snapshot: string | null; lock: string | null } = { snapshot: null, lock: null };
  /** Why writes are refused (a file deleted or replaced, being rebuilt, or taken by another process), or null. */
  let broken: string | null = null;
  /** True while this process renames a new snapshot into place (the data file's inode changes, and that is us). */
  let renaming = false;

  if (dataFile) {
    await loadStateChecks();
    lock = acquireLock(dataFile, log);
    try {
      const found = loadDataFile(dataFile);
      if (found) {
        holder.state = found.state;
        asRead = found.asRead;
        lastSeq = found.seq;
        size = found.journalBytes;
        snapshotBytes = found.snapshotBytes;
        for (const w of found.warnings) log(w);
        loaded = true;
      } else {
        const text = JSON.stringify({ ...holder.state, journalSeq: 0, journalFormat: JOURNAL_FORMAT });
        await snapshot!.write(text);
        snapshotBytes = text.length;
      }
      fd = openSync(journalOf(dataFile), 'a+');
      closeSync(fd);
      fd = openSync(journalOf(dataFile), 'r+');
      if (fstatSync(fd).size > size) ftruncateSync(fd, size); // a torn last line, ignored at load
      files.snapshot = identity(dataFile);
      files.lock = identity(lock.path);
    } catch (err) {
      if (fd >= 0) closeSync(fd);
      lock.release();
      throw err;
    }
  }

  let clockBinding: ClockBinding | null = null;
  let epoch = 0;
  /** The records held and their weight, counted once here and then by every unit's writes (./unit.ts tallyChange). */
  const tally: Tally = tallyOf(holder.state, asRead?.tally);
  asRead = undefined; // it holds the collections it counted
  /**
   * Units begun and not yet ended, with a data file (a snapshot slice waits while one of them has uncommitted writes).
   * An array (a few dozen at most), not a Set: a Set's deleted entries kept each ended unit, its undo log and change
   * records alive past two scavenges, so they were promoted and died in the old generation, leaving holes among the
   * stored records.
   */
  const active: Unit[] = [];
  /** Ends a unit's count once, whether it is committed or rolled back. */
  const ended = (unit: Unit) => {
    if (!unit.live) return;
    unit.live = false;
    if (dataFile) {
      const i = active.indexOf(unit);
      if (i >= 0) {
        active[i] = active[active.length - 1]!;
        active.pop();
      }
    }
    unitEnded();
  };
  const DONE = Promise.resolve();

  // Journal: lines waiting for the next write, the batch being written, and every unit's promise chained for flush().
  let queue: Pending[] = [];
  let inflight: Pending[] | null = null;
  let tail: Promise<void> = Promise.resolve();
  let closing = false;

  function pump() {
    if (inflight || queue.length === 0 || fd < 0) return;
    const batch = queue;
    queue = [];
    inflight = batch;
    let text = '';
    for (let i = 0; i < batch.length; i++) text += journalLine(lastSeq + 1 + i, batch[i]!.body);
    const buf = Buffer.from(text);
    const attempt =
      hooks.failStorage && hooks.failStorage > 0
        ? (hooks.failStorage--, Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write (test hook failStorage)'), { code: 'ENOSPC' })))
        : writeAll(fd, buf, size).then(() => {
            // On disk, but in the files at the path? A line in an unlinked journal would be lost at the next start.
            const gone = filesGone();
            if (gone) throw Object.assign(new Error(gone), { code: 'FILES_GONE' });
          });
    attempt.then(
      () => {
        size += buf.length;
        lastSeq += batch.length;
        inflight = null;
        for (const p of batch) {
          p.unit.undo.length = 0;
          p.resolve();
        }
        maybeCompact();
        pump();
      },
      (err: NodeJS.ErrnoException) => {
        inflight = null;
        try {
          ftruncateSync(fd, size); // a write cut short leaves no partial line behind
        } catch {
          /* the next write starts at `size` anyway and the load ignores a torn tail */
        }
        // Not on disk, so not kept: this batch and every later unit (they were built on it) are undone, newest first.
        const victims = [...batch, ...queue];
        queue = [];
        for (let i = victims.length - 1; i >= 0; i--) undo(victims[i]!.unit);
        epoch++;
        tainted = true;
        if (err.code === 'FILES_GONE') {
          broken = err.message;
          log(`pix-sandbox: ${err.message}; ${victims.length} change(s) undone and answered 503. Writes answer 503 STORAGE_UNAVAILABLE until a fresh snapshot and journal are written at ${dataFile!} (now being done); reads go on.`);
          for (const p of victims) p.reject(storageUnavailable(err.message, REBUILDING));
          void rebuild();
          return;
        }
        const why = err.code ? `${err.code}: ${err.message}` : String(err);
        log(`pix-sandbox: cannot write the journal ${journalOf(dataFile!)} (${why}); ${victims.length} change(s) undone and answered 503`);
        for (const p of victims) p.reject(storageUnavailable(err.code ?? err.message));
      },
    );
  }

  /** What of the data file, its journal or its lock was deleted or replaced since this process wrote it, or null. */
  function filesGone(): string | null {
    const file = dataFile!;
    const journal = fstatSync(fd);
    if (journal.nlink === 0 || identity(journalOf(file)) !== `${journal.dev}:${journal.ino}`) return `the journal ${journalOf(file)} was deleted or replaced while the sandbox ran`;
    if (!renaming && identity(file) !== files.snapshot) return `the data file ${file} was deleted or replaced while the sandbox ran`;
    if (identity(lock!.path) !== files.lock) return `the lock ${lock!.path} was deleted or replaced while the sandbox ran`;
    return null;
  }

  /**
   * After files were deleted or replaced: takes the lock again (unless another process holds it now: then writes stay
   * refused until this sandbox is restarted), writes the whole state as a fresh snapshot at the path and starts an
   * empty journal beside it. Writes are refused meanwhile (nothing waits in the queue), so the snapshot is one state.
   */
  let rebuilding: Promise<void> | null = null;
  function rebuild(): Promise<void> {
    return (rebuilding ??= (async () => {
      const file = dataFile!;
      try {
        if (compacting) await compacting;
        await tail;
        if (identity(lock!.path) !== files.lock) {
          try {
            lock = acquireLock(file, log);
          } catch (err) {
            broken = `another process holds ${file} now (${(err as Error).message.split('; lock file')[0]}); restart this sandbox with another --data file`;
            log(`pix-sandbox: ${broken}. Writes answer 503 STORAGE_UNAVAILABLE; reads go on.`);
            return;
          }
          files.lock = identity(lock.path);
        }
        const invalid = shapeProblem(holder.state);
        if (invalid) throw new Error(`the state does not have the shape of a sandbox state: ${invalid}`);
        const writer = await snapshotWriter(file);
        try {
          await serializeInSlices(holder.state, lastSeq, Infinity, noUncommittedWrites, { longestMs: 0 }, writer.write);
        } catch (err) {
          await writer.abandon();
          throw err;
        }
        renaming = true;
        try {
          await writer.commit();
        } finally {
          renaming = false;
        }
        const next = openSync(journalOf(file), 'w+');
        if (fd >= 0) closeSync(fd);
        fd = next;
        size = 0;
        try {
          unlinkSync(oldJournalOf(file));
        } catch {
          /* none */
        }
        files.snapshot = identity(file);
        broken = null;
        log(`pix-sandbox: wrote a fresh snapshot and journal at ${file} (up to entry ${lastSeq}); writes are accepted again.`);
      } catch (err) {
        log(`pix-sandbox: could not write a fresh snapshot at ${file} (${String(err)}); writes keep answering 503 STORAGE_UNAVAILABLE, it will be tried again at the next write.`);
      } finally {
        rebuilding = null;
      }
    })());
  }

  // Compaction: the snapshot is rewritten in the background once the journal passes a threshold, between two batches
  // (so every line up to lastSeq is on disk). The journal is rotated to FILE.journal.old first and deleted once the
  // snapshot is in place. As built, a thread of its own reads the snapshot and the journal lines up to lastSeq as
  // start-up would, checks them and writes the result (disk.ts foldFiles): lines on disk are never undone, so that is
  // the state at lastSeq, and the event loop only rotates and renames. Where there is no such thread (running from
  // source), and at a clean stop, the state in memory is serialized in slices (see serializeInSlices for why that is
  // a correct snapshot at lastSeq); if a unit is undone meanwhile, that snapshot is abandoned (it may hold the change).
  let compacting: Promise<void> | null = null;
  let tainted = false;
  const noUncommittedWrites = () => !active.some((u) => u.open && u.undo.length > 0);
  // Past this many journal bytes (by default 8 MiB, or half the snapshot when that is more, so folding stays a small
  // part of the writing), the journal is folded.
  const threshold = () => options.compactAfterBytes ?? Math.max(8 * 1024 * 1024, snapshotBytes / 2);
  const compactionStats = { runs: 0, abandoned: 0, offThread: 0, lastMs: 0, lastLongestSliceMs: 0 };
  const folder = foldThread();

  function maybeCompact() {
    if (compacting || closing || broken || !dataFile || size < threshold()) return;
    compacting = compact(8)
      .catch((err) => log(`pix-sandbox: could not fold the journal into ${dataFile} (${String(err)}); the journal keeps everything, it will be tried again`))
      .finally(() => (compacting = null));
  }

  async function compact(sliceMs: number): Promise<void> {
    const file = dataFile!;
    const started = performance.now();
    tainted = false;
    const seq = lastSeq;
    if (!existsSync(oldJournalOf(file))) {
      renameSync(journalOf(file), oldJournalOf(file));
      const next = openSync(journalOf(file), 'w+');
      closeSync(fd);
      fd = next;
      size = 0;
    }
    if (sliceMs !== Infinity) log(`pix-sandbox: folding the journal into ${file} (up to entry ${seq})`);
    const slices = { longestMs: performance.now() - started };
    // In the background, the fold runs in a thread of its own when the build has one (dist/fold-worker.js): this
    // thread only rotates the journal, starts the fold's thread (after a turn of the event loop) and renames the
    // result (asynchronously: replacing the old snapshot frees its blocks, tens of ms at 100k charges).
    const offThread = sliceMs === Infinity ? null : (await stretch(slices, () => ({ fold: folder.fold(file, seq) }))).fold;
    /** What puts the new snapshot (written to FILE.tmp) in place, and its size. */
    let put: () => Promise<void>;
    let bytes: number;
    if (offThread) {
      try {
        ({ bytes } = await offThread);
      } catch (err) {
        await fsp().rm(`${file}.tmp`, { force: true });
        compactionStats.abandoned++;
        throw new Error(`${(err as Error).message.replace(/\.$/, '')}; the snapshot was not replaced`);
      }
      put = () => fsp().rename(`${file}.tmp`, file);
    } else {
      const writer = await snapshotWriter(file);
      try {
        await serializeInSlices(holder.state, seq, sliceMs, noUncommittedWrites, slices, writer.write);
        await tail; // what was committed while slicing must be on disk (or undone) before the snapshot can be trusted
      } catch (err) {
        await writer.abandon();
        throw err;
      }
      if (tainted) {
        await writer.abandon();
        compactionStats.abandoned++;
        log(`pix-sandbox: a change was undone while folding the journal; this snapshot is dropped (the journal still has everything)`);
        return;
      }
      // The fold checks what it writes: a record that start-up would refuse never replaces a good snapshot.
      const invalid = shapeProblem(holder.state);
      if (invalid) {
        await writer.abandon();
        compactionStats.abandoned++;
        throw new Error(`the state does not have the shape of a sandbox state (${invalid}); the snapshot was not replaced and the journal keeps everything`);
      }
      put = () => writer.commit();
      bytes = writer.bytes;
    }
    // The snapshot goes into place; the check of the data file's identity does not take that for a replaced file.
    const replaced = await holdReplaced(file, files.snapshot);
    renaming = true;
    try {
      await put();
      void replaced.freed();
    } catch (err) {
      replaced.kept();
      throw err;
    } finally {
      files.snapshot = identity(file);
      renaming = false;
    }
    snapshotBytes = bytes;
    if (offThread) compactionStats.offThread++;
    compactionStats.lastLongestSliceMs = Math.round(slices.longestMs);
    await fsp().rm(oldJournalOf(file), { force: true });
    compactionStats.runs++;
    compactionStats.lastMs = Math.round(performance.now() - started);
    if (sliceMs !== Infinity) log(`pix-sandbox: folded into ${file} in ${compactionStats.lastMs} ms (${snapshotBytes} bytes; longest pause ${compactionStats.lastLongestSliceMs} ms)`);
  }

  const sameClock = (a: ClockState, b: ClockState) => a.offsetMs === b.offsetMs && a.frozenAt === b.frozenAt;

  const getters = new StoreGetters({
    state: () => (unitsOpen() ? view(holder.state) : holder.state),
    raw: () => holder.state,
    epoch: () => epoch,
    records: () => tally.records,
    bytes: () => tally.bytes,
  });
  const store: Store = Object.assign<StoreGetters, Omit<Store, keyof StoreGetters>>(getters, {
    persistent: dataFile !== undefined,
    findAccount: (id) => {
      const accounts = store.state.accounts;
      return Object.hasOwn(accounts, id) ? accounts[id] : undefined;
    },
    account(id) {
      const acc = store.findAccount(id);
      if (!acc) throw new SandboxError('ACCOUNT_NOT_FOUND', `No account with id '${id}'. List accounts with GET /_sandbox/accounts.`, { resource: 'account', id });
      return acc;
    },
    flush: () => tail,
    replace(nextState) {
      const unit = currentUnit();
      const next = tallyOf(nextState);
      const held = next.records - tally.records;
      const bytes = next.bytes - tally.bytes;
      if (unit) {
        unit.undo.push(holder, 'state', true, holder.state);
        for (const key of Object.keys(nextState)) unit.records.set(key, [key]);
        unit.held += held;
        unit.heldBytes += bytes;
      }
      tally.records += held;
      tally.bytes += bytes;
      holder.state = nextState;
      epoch++;
    },
    begin(kind) {
      const unit = new Unit(kind, hooks, dataFile !== undefined, tally);
      if (clockBinding) unit.clockBefore = clockBinding.snapshot();
      if (dataFile) active.push(unit);
      unit.live = true;
      unitBegun();
      return unit;
    },
    run: (unit, fn) => runInUnit(unit, fn),
    commit(unit) {
      if (clockBinding && unit.open) {
        const now = clockBinding.snapshot();
        if (!sameClock(now, holder.state.clock)) runInUnit(unit, () => (store.state.clock = now));
      }
      unit.open = false;
      ended(unit);
      const announce = () => {
        for (const fn of unit.onCommit.splice(0)) fn();
      };
      if (unit.records.size === 0 || !dataFile) {
        unit.undo.length = 0;
        if (unit.onCommit.length > 0) announce();
        return DONE;
      }
      if (broken) {
        // Files deleted or replaced: nothing is kept that cannot be on disk at the path (sandbox.md 11).
        undo(unit);
        epoch++;
        tainted = true;
        unit.onCommit.length = 0;
        if (!rebuilding && !broken.startsWith('another process')) void rebuild();
        return Promise.reject(storageUnavailable(broken, broken.startsWith('another process') ? 'Restart this sandbox with another --data file' : REBUILDING));
      }
      const body = JSON.stringify({ o: changeSet(holder.state, unit) });
      const done = new Promise<void>((resolve, reject) => queue.push({ body, unit, resolve, reject }));
      tail = done.catch(() => {});
      pump();
      return done.then(announce, (err: unknown) => {
        unit.onCommit.length = 0;
        throw err;
      });
    },
    afterCommit(fn) {
      const unit = currentUnit();
      if (!unit) return false;
      unit.onCommit.push(fn);
      return true;
    },
    rollback(unit) {
      unit.open = false;
      unit.onCommit.length = 0;
      ended(unit);
      if (unit.undo.length > 0) {
        undo(unit);
        epoch++;
        tainted = true;
      }
      const before = unit.clockBefore as ClockState | undefined;
      if (clockBinding && before && !sameClock(before, clockBinding.snapshot())) clockBinding.restore(before);
    },
    atomically(kind, fn) {
      const unit = store.begin(kind);
      let result: ReturnType<typeof fn>;
      try {
        result = runInUnit(unit, fn);
      } catch (err) {
        store.rollback(unit);
        throw err;
      }
      return { result, durable: store.commit(unit) };
    },
    bindClock(clock) {
      clockBinding = clock;
    },
    hooks,
    compaction: compactionStats,
    async close() {
      if (!dataFile || closing) return;
      closing = true;
      await tail;
      if (compacting) await compacting;
      folder.close();
      if (broken && !broken.startsWith('another process')) await rebuild();
      if (broken) {
        // Another process has the file now (or it cannot be written): nothing of this process goes there.
        if (fd >= 0) closeSync(fd);
        fd = -1;
        lock?.release();
        return;
      }
      try {
        // A clean stop folds everything into the snapshot; the journals are then empty and go.
        await compact(Infinity);
        if (!tainted) {
          closeSync(fd);
          fd = -1;
          unlinkSync(journalOf(dataFile));
        }
      } finally {
        if (fd >= 0) closeSync(fd);
        fd = -1;
        lock?.release();
      }
    },
  });
  return { store, loaded };
}

/** The state a data file holds (snapshot + journal), read without taking the lock: for tests and tools. */
export function readDataFile(file: string): State {
  const found = loadDataFile(file);
  if (!found) throw new Error(`No data file ${file}`);
  return found.state;
}
