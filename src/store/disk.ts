// The data file on disk (sandbox.md 6). Three files beside each other:
//   FILE           the snapshot: the whole state as JSON (written to a temp file, then renamed, so a crash never
//                  leaves half of it), with `version` and `journalSeq`, the last journal line it includes; a
//                  collection of more than 200 entries has one entry a line. It is read and written in pieces
//                  (./pieces.ts, serializeInSlices): no string holds the whole file (docs/data.md);
//   FILE.journal   one JSON line per unit of work, {"n":seq,"c":"crc32","o":[[path,value]|[path], ...]}: record-level
//                  upserts and deletions (./unit.ts), appended and fsync'd before the answer that reports them goes out.
//                  `c` is the CRC-32 (8 hex digits) of the line without it ({"n":seq,"o":...}), so a flipped bit is
//                  caught; on replay each op is also checked against the snapshot's schema (./schema.ts checkOp);
//   FILE.lock      the process that has the file (./lock.ts).
// While a snapshot is being written the journal is rotated to FILE.journal.old; it is deleted once the snapshot is in
// place. Start-up loads the snapshot and replays the lines after its journalSeq, from .old then the journal; a fold in
// the background does the same up to the last line before it began, in a thread of its own (foldFiles).
import { existsSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from '../lib/crc32';
import { builtin } from '../lib/builtin';
import { STATE_VERSION, type State, upgrade } from './state';
import { loadStateChecks, shapeProblem, stateChecks } from './checks';
import { applyOp, type Path } from './unit';
import { type EntryHook, fileLines, PieceError, readSnapshotFile } from './pieces';
import { noteFirstRecord } from './first-records';
import { AsRead } from './as-read';

/** Journal lines carry a checksum since this format; a snapshot that says so refuses lines without one. */
export const JOURNAL_FORMAT = 2;

// Loaded when a data file is read or written (a start in memory needs none of them).
const v8 = builtin<typeof import('node:v8')>('node:v8');
const fsp = builtin<typeof import('node:fs/promises')>('node:fs/promises');
const timers = builtin<typeof import('node:timers/promises')>('node:timers/promises');
const open: typeof import('node:fs/promises').open = (...args) => fsp().open(...args);
const rename: typeof import('node:fs/promises').rename = (...args) => fsp().rename(...args);
const rm: typeof import('node:fs/promises').rm = (...args) => fsp().rm(...args);
const sleep = (ms: number, value: undefined, options: { ref: boolean }) => timers().setTimeout(ms, value, options);

type Crc = (text: string) => number;
/** zlib's CRC-32 where Node has it (20.15 and later, native), else ../lib/crc32; zlib is loaded at the first line. */
let crcOfText: Crc | undefined;
const pickCrc = (): Crc => {
  const zlib = builtin<{ crc32?: Crc }>('node:zlib')();
  return typeof zlib.crc32 === 'function' ? zlib.crc32.bind(zlib) : (text) => crc32(Buffer.from(text));
};
/** CRC-32 of a string's UTF-8 bytes. */
export const journalCrc: Crc = (text) => (crcOfText ??= pickCrc())(text);

/** One journal line (with its newline) for entry `seq` of a change set `body` ({"o":[...]}). */
export function journalLine(seq: number, body: string): string {
  const rest = body.slice(1);
  const crc = journalCrc(`{"n":${seq},${rest}`).toString(16).padStart(8, '0');
  return `{"n":${seq},"c":"${crc}",${rest}\n`;
}

const CHECKED_HEAD = /^\{"n":(\d+),"c":"([0-9a-f]{8})",/;

export const journalOf = (file: string) => `${file}.journal`;
export const oldJournalOf = (file: string) => `${file}.journal.old`;

export interface Loaded {
  state: State;
  /** The last journal line applied (or the snapshot's journalSeq). */
  seq: number;
  /** Bytes of FILE.journal up to its last whole line (a torn tail beyond it is cut off before appending). */
  journalBytes: number;
  snapshotBytes: number;
  warnings: string[];
  /** What the read learnt of the collections (./as-read.ts): what each holds, for the store's first count. */
  asRead: AsRead;
}

const fail = (file: string, what: string): never => {
  throw new Error(`The data file ${file} ${what}. It was left untouched: fix it, move it away (a fresh state is made only where no file exists), or give another --data file.`);
};

/**
 * Checks the value a snapshot holds (its shape only when `checkShape`: a fold checks the state it makes instead; not
 * again the collections `checked` as read). Throws an Error that names the file and the problem.
 */
export function checkSnapshot(file: string, parsed: unknown, checkShape = true, checked?: (collection: object) => boolean): State {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) fail(file, `holds ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`}, not a sandbox state object`);
  const version = (parsed as { version?: unknown }).version;
  if (version !== 1 && version !== STATE_VERSION) fail(file, `has state version ${JSON.stringify(version) ?? 'missing'}; this sandbox reads versions 1 and ${STATE_VERSION}`);
  const record = parsed as Record<string, unknown>;
  // Only collections a later version added are filled in; anything else missing or of the wrong type is reported.
  if (record.accounts !== null && typeof record.accounts === 'object' && !Array.isArray(record.accounts)) upgrade(record as unknown as State);
  else if (Array.isArray(record.jobs)) record.jobs = Object.fromEntries((record.jobs as { id: string }[]).map((j) => [j?.id, j]));
  const problem = checkShape ? shapeProblem(record, checked) : null;
  if (problem) fail(file, `does not have the shape of a sandbox state: ${problem}`);
  return record as unknown as State;
}

/** Reads FILE's snapshot in pieces (./pieces.ts) and checks it: the state, and the file's size in bytes. */
function readSnapshot(file: string, checkShape: boolean, asRead: AsRead, hook: EntryHook): { state: State; bytes: number } {
  let read: ReturnType<typeof readSnapshotFile>;
  try {
    read = readSnapshotFile(file, undefined, hook);
  } catch (err) {
    if (err instanceof PieceError) fail(file, `is not valid JSON (${err.message})`);
    throw new Error(`Cannot read the data file ${file}: ${(err as Error).message}`);
  }
  if (read === 'empty') return fail(file, 'is empty (0 bytes or only whitespace), not a sandbox state');
  return { state: checkSnapshot(file, read.value, checkShape, asRead.checked), bytes: read.bytes };
}

/** What replay carries from one journal file to the next. */
interface Replay {
  state: State;
  seq: number;
  /** Lines must carry a checksum: the snapshot says so, or an earlier line had one. */
  checked: boolean;
  /** Upserts skipped because their parent record was missing, until a later line makes or removes that parent. */
  orphans: Array<{ path: Path; where: string }>;
  warnings: string[];
  /** Makes a transaction record about to be stored share strings (stringSharer); none in a fold's kept state. */
  share?: (key: string, value: unknown) => void;
  /** Told of each collection a line writes inside (so what the read counted of it is counted again). */
  asRead?: AsRead;
}

/** Whether `prefix` is the start of (or all of) `path`. */
const startsWith = (path: Path, prefix: Path) => prefix.length <= path.length && prefix.every((p, i) => String(p) === String(path[i]));

/** What `state` holds at `path`, or undefined. */
function inside(state: State, path: Path): unknown {
  let node: unknown = state;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Applies the journal lines after `r.seq` from `path` to `r.state`. A last line cut short (a crash mid-append) is ignored
 * with a warning; any other bad line (not JSON, a wrong checksum, an op that does not fit the snapshot's schema, an
 * entry filed under another id) stops the start with its line number and what is wrong, and nothing is rewritten.
 */
function replay(path: string, r: Replay, until = Infinity): { bytes: number } {
  if (!existsSync(path)) return { bytes: 0 };
  const bad = (lineNo: number, what: string): never => {
    throw new Error(`The journal ${path} has a bad line ${lineNo}: ${what}. It was left untouched (and so was the data file): restore both from a copy, or move them away to start afresh.`);
  };
  let good = 0;
  let lineNo = 0;
  // Read a line at a time (./pieces.ts): a journal may be hundreds of MB, more than one string can hold.
  for (const { text: line, whole, next, restIsBlank } of fileLines(path)) {
    if (r.seq >= until) break;
    lineNo++;
    let entry: { n: number; c?: string; o: unknown[] } | null = null;
    try {
      entry = JSON.parse(line) as { n: number; c?: string; o: unknown[] };
      if (entry === null || typeof entry !== 'object' || typeof entry.n !== 'number' || !Array.isArray(entry.o) || !whole) entry = null;
    } catch {
      entry = null;
    }
    if (!entry) {
      if (!whole || restIsBlank()) {
        r.warnings.push(`pix-sandbox: the last line of ${path} (line ${lineNo}) is incomplete, left by a stop in the middle of a write; it was never answered, so it is ignored.`);
        break;
      }
      bad(lineNo, 'it is not a whole JSON journal entry {"n":..,"c":..,"o":[..]} (damaged before the end of the file)');
    }
    const head = CHECKED_HEAD.exec(line);
    if (head) {
      r.checked = true;
      const found = parseInt(head[2]!, 16);
      const expected = journalCrc(`{"n":${head[1]},${line.slice(head[0].length)}`);
      if (found !== expected) bad(lineNo, `its checksum is ${head[2]} but its content sums to ${expected.toString(16).padStart(8, '0')} (a changed byte or flipped bit)`);
    } else if (r.checked || entry!.c !== undefined) bad(lineNo, 'it carries no valid checksum ("c" right after "n"), as every line of this journal must');
    if (entry!.n > r.seq) {
      if (entry!.n !== r.seq + 1) bad(lineNo, `it skips from entry ${r.seq} to ${entry!.n}`);
      for (const op of entry!.o) {
        const problem = stateChecks().checkOp(op);
        if (problem) bad(lineNo, problem);
        const opPath = (op as unknown[])[0] as Path;
        // A line that makes or removes a record settles the lines before it that wrote under it while it was missing.
        if (r.orphans.length > 0) r.orphans = r.orphans.filter((o) => !startsWith(o.path, opPath));
        // Where the op writes: an upsert under a missing parent is skipped by applyOp; an entry of an account's collection
        // written or deleted makes what the read counted of that collection stale.
        const parent = inside(r.state, opPath.slice(0, -1));
        if ((op as unknown[]).length > 1 && (parent === null || typeof parent !== 'object')) r.orphans.push({ path: opPath, where: `${path} line ${lineNo}` });
        if (r.asRead && opPath.length === 4 && opPath[0] === 'accounts') r.asRead.changed(parent);
        if (r.share && opPath.length === 4 && (op as unknown[]).length > 1 && isTransactions(opPath.slice(0, 3))) r.share(String(opPath[3]), (op as unknown[])[1]);
        applyOp(r.state, op as unknown[]);
      }
      r.seq = entry!.n;
    }
    good = next;
  }
  return { bytes: good };
}

/**
 * JSON.parse makes a new string for every value, so 100,000 charges of one wallet hold 100,000 copies of its id.
 * Fields with few distinct values are made to share one string each (about 150 bytes less per stored charge), and a
 * record's id is its key's string (the key is kept anyway: 56 bytes less). Done to each record as it is read
 * (./pieces.ts EntryHook, and for a journal line's record), while it is young: the copies die before the garbage
 * collector moves them, where a pass over the state once loaded rewrote a million old objects (7 s at 1M here).
 */
function stringSharer() {
  const pool = new Map<string, string>();
  const share = (v: unknown) => {
    if (typeof v !== 'string') return v;
    const found = pool.get(v);
    if (found !== undefined) return found;
    pool.set(v, v);
    return v;
  };
  return (key: string, value: unknown) => {
    if (value === null || typeof value !== 'object') return;
    const t = value as Record<string, unknown>;
    if (t.id === key) t.id = key;
    for (const field of SHARED_FIELDS) if (field in t) t[field] = share(t[field]);
    const charge = t.charge as { pspCredentialId?: unknown } | undefined;
    if (charge !== null && typeof charge === 'object' && charge.pspCredentialId !== undefined) charge.pspCredentialId = share(charge.pspCredentialId);
  };
}
const SHARED_FIELDS = ['walletId', 'counterpartWalletId', 'projectId', 'type', 'status', 'paymentMethod', 'customerId', 'description'];
/** An account's transactions: where the hook shares strings (path ['accounts', id, 'transactions']). */
const isTransactions = (path: readonly (string | number)[]) => path.length === 3 && path[0] === 'accounts' && path[2] === 'transactions';

/** Loads FILE (+ its journals). Returns null when FILE does not exist (and no journal does either). */
export function loadDataFile(file: string): Loaded | null {
  if (!existsSync(file)) {
    if (existsSync(journalOf(file)) || existsSync(oldJournalOf(file)))
      throw new Error(`The data file ${file} is missing but its journal ${journalOf(file)} exists; it was left untouched. Restore the data file, or move the journal away to start afresh.`);
    return null;
  }
  const { state, r, bytes, snapshotBytes, asRead } = youngGenerationFor(statSync(file).size, () => readFiles(file, Infinity));
  return { state, seq: r.seq, journalBytes: bytes, snapshotBytes, warnings: r.warnings, asRead };
}

/** Snapshots from this size on are read with V8's young generation free to grow (youngGenerationFor). */
const YOUNG_GROWS_FROM = 256 << 20;

/**
 * Runs `fn` (reading a snapshot of `bytes` bytes) with V8's young generation sized for it. Every object of a state being
 * parsed survives its first scavenges, and V8 answers that by doubling the young generation up to its maximum (two 16
 * MiB semi-spaces), which it then keeps while the sandbox runs. Below YOUNG_GROWS_FROM it is kept at the size it has
 * (objects are promoted sooner, at no extra cost), since those 32 MiB would be about 180 bytes of RSS per stored charge
 * at 100k, for nothing. From there on it may grow: each scavenge also walks the list of every page the old generation
 * has, so with a young generation kept small the scavenges' cost grows with the square of the file (a 1M-charge file
 * took twice as long), while 32 MiB are a few percent of such a state. The default growth factor (2) is back
 * as soon as the state is read, for the requests.
 */
function youngGenerationFor<T>(bytes: number, fn: () => T): T {
  if (bytes >= YOUNG_GROWS_FROM) return fn();
  v8().setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return fn();
  } finally {
    v8().setFlagsFromString('--semi-space-growth-factor=2');
  }
}

/**
 * FILE's snapshot with its journal lines up to `until` replayed (FILE.journal.old, then FILE.journal), every check
 * made; the snapshot's shape is not checked when `checkShape` is false (the caller checks the result's).
 */
function readFiles(file: string, until: number, checkShape = true) {
  const share = stringSharer();
  const asRead = new AsRead();
  let last: object | null = null;
  const snapshot = readSnapshot(file, checkShape, asRead, (path, key, value, collection) => {
    asRead.entry(path, key, value, collection);
    if (!isTransactions(path)) return;
    share(key, value);
    // A collection's entries are read one after another: the first one seen is its first.
    if (collection !== last) noteFirstRecord((last = collection), key, value);
  });
  const state = snapshot.state as State & { journalSeq?: number; journalFormat?: number };
  const r: Replay = { state, seq: state.journalSeq ?? 0, checked: state.journalFormat === JOURNAL_FORMAT, orphans: [], warnings: [], share, asRead };
  delete state.journalSeq;
  delete state.journalFormat;
  const bytes = replayJournals(file, r, until);
  return { state: state as State, r, bytes, snapshotBytes: snapshot.bytes, asRead };
}

/** Replays FILE.journal.old, then FILE.journal, after `r.seq` and up to `until`; the bytes of FILE.journal's whole lines. */
function replayJournals(file: string, r: Replay, until: number): number {
  replay(oldJournalOf(file), r, until);
  const current = replay(journalOf(file), r, until);
  if (r.orphans.length > 0) {
    const o = r.orphans[0]!;
    throw new Error(
      `The journal at ${o.where} writes ${o.path.join('.')}, whose ${o.path.length > 2 ? `account ${String(o.path[1])}` : 'parent'} does not exist and is made by no later line (a changed id?). It was left untouched (and so was the data file): restore both from a copy, or move them away to start afresh.`,
    );
  }
  return current.bytes;
}

/**
 * A background fold, run off the event loop (./fold-worker.ts): FILE and its journal lines up to `seq` are read as
 * start-up reads them, with the checks start-up makes (each line's checksum and ops, no write under a missing record),
 * the result's shape is checked (as start-up checks the snapshot's, and as the fold in process checks what it writes),
 * and it is written to FILE.tmp and fsync'd. The caller renames it into place. The journal the sandbox goes on appending to
 * is read only up to `seq`, whose lines were on disk before the fold began.
 */
export async function foldFiles(file: string, seq: number, kept?: { current: KeptFold | null }): Promise<{ bytes: number }> {
  // In its thread the checks are loaded here (its lines are checked as they are replayed). Shapes are checked once, in
  // the state the fold writes (the snapshot it starts from passed the same check when written).
  await loadStateChecks();
  // The state this thread wrote last time, when that file is still the one at the path (same inode, size and mtime:
  // nothing replaced or changed it since): only the journal lines after it are replayed, with the same checks. A fold
  // that fails midway leaves nothing kept (the state may be half replayed).
  const last = kept?.current;
  if (kept) kept.current = null;
  let state: State;
  let at: number;
  if (last && last.file === file && last.stamp === stampOf(file)) {
    const r: Replay = { state: last.state, seq: last.seq, checked: true, orphans: [], warnings: [] };
    replayJournals(file, r, seq);
    ({ state, seq: at } = r);
  } else {
    const read = readFiles(file, seq, false);
    ({ state } = read);
    at = read.r.seq;
  }
  if (at !== seq) throw new Error(`the journals of ${file} end at entry ${at}, before entry ${seq}`);
  const problem = shapeProblem(state);
  if (problem) throw new Error(`the state does not have the shape of a sandbox state (${problem})`);
  const writer = await snapshotWriter(file);
  try {
    await serializeInSlices(state, seq, Infinity, () => true, { longestMs: 0 }, writer.write);
    await writer.finish();
  } catch (err) {
    await writer.abandon();
    throw err;
  }
  // FILE.tmp keeps its inode, size and mtime when the store renames it to FILE.
  if (kept) kept.current = { file, seq, state, stamp: stampOf(`${file}.tmp`) };
  return { bytes: writer.bytes };
}

/** What a fold's thread keeps between folds: the state it wrote to `file` up to `seq`, and that file's stamp. */
export interface KeptFold {
  file: string;
  seq: number;
  state: State;
  stamp: string | null;
}

/** Device, inode, size and mtime of a file (null when it is gone). */
function stampOf(path: string): string | null {
  const st = statSync(path, { throwIfNoEntry: false, bigint: true });
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}` : null;
}

/**
 * The snapshot at FILE, held open while a new one is renamed over it, so that its blocks can be freed a few MiB at a
 * time afterwards instead of all at once: a journal line's fdatasync waits for the file system's commit that frees
 * (and, mounted with discard, trims) them, and freeing a 66 MB snapshot (100k charges) at once held it up 30-60 ms;
 * in 4 MiB steps, no longer than on an idle disk. `identity` is the device:inode this process wrote: a file put there
 * by someone else is never touched. `freed()` after a successful rename; `kept()` when the old file stays in place.
 */
export async function holdReplaced(file: string, identity: string | null, afterMs = FREE_AFTER_MS): Promise<{ freed(): Promise<void>; kept(): void }> {
  const handle = process.platform === 'win32' || !identity ? null : await open(file, 'r+').catch(() => null);
  const close = () => void handle?.close().catch(() => {});
  return {
    kept: close,
    freed: () => (handle ? freeInSteps(handle, identity!, afterMs).finally(close) : Promise.resolve()),
  };
}

/** Bytes of a replaced snapshot freed per step, and the wait before the first (a reader that opened it reads on). */
const FREE_STEP = 4 << 20;
const FREE_AFTER_MS = 2000;

async function freeInSteps(handle: FileHandle, identity: string, afterMs: number): Promise<void> {
  try {
    await sleep(afterMs, undefined, { ref: false });
    const st = await handle.stat();
    // Only the file this process wrote, and only once no name links to it any more (a hard link keeps it whole).
    if (`${st.dev}:${st.ino}` !== identity || st.nlink !== 0) return;
    for (let size = st.size; size > 0; ) {
      size = Math.max(0, size - FREE_STEP);
      await handle.truncate(size);
      await sleep(5, undefined, { ref: false });
    }
  } catch {
    /* its blocks go when it is closed */
  }
}

/** Bytes of a snapshot written between two fdatasyncs of its temp file. */
const SYNC_EVERY = 4 << 20;

/**
 * Writes a snapshot the way lowdb's TextFile (steno) does, temp file then rename, so a crash leaves the old one whole;
 * but streamed: `fill` hands the text over in chunks. `commit` fsyncs and renames; `abandon` drops the temp file.
 */
export async function snapshotWriter(file: string) {
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w');
  let bytes = 0;
  let unsynced = 0;
  let closed = false;
  return {
    write: async (chunk: string) => {
      const buf = Buffer.from(chunk);
      bytes += buf.length;
      await handle.write(buf);
      // Written back a few MiB at a time: a journal line's fdatasync waits for the file system's commit, and one
      // fsync of a whole 66 MB snapshot (100k charges) held such a commit up 100-130 ms; with these steps, 20-36 ms.
      unsynced += buf.length;
      if (unsynced >= SYNC_EVERY) {
        unsynced = 0;
        await handle.datasync();
      }
    },
    get bytes() {
      return bytes;
    },
    /** fsync and close; the text is whole in FILE.tmp (commit() then only renames). */
    async finish() {
      if (closed) return;
      await handle.sync();
      closed = true;
      await handle.close();
    },
    async commit() {
      await this.finish();
      await rename(tmp, file);
    },
    async abandon() {
      if (!closed) {
        closed = true;
        await handle.close();
      }
      await rm(tmp, { force: true });
    },
  };
}

/**
 * Serializes `state` as a snapshot text in slices of about `sliceMs`, yielding to the event loop between them, so
 * requests go on while a big state is folded. The result is not one instant's state: records are read slice by slice
 * while units of work go on committing. It is still a correct snapshot at `seq`, because:
 * - every unit that commits after the snapshot started has a journal line after `seq`, which start-up replays;
 * - a line upserts or deletes whole records with their value at commit time, and replaying lines in order leaves each
 *   record with the value of the last line that touched it, whatever the snapshot held for it: replay converges;
 * - a record that no line after `seq` touches is the same in the snapshot as at `seq`, because the caller only lets a
 *   slice run when no unit has uncommitted writes, and abandons the snapshot if a committed unit is undone meanwhile.
 */
export async function serializeInSlices(state: State, seq: number, sliceMs: number, canRun: () => boolean, stats: { longestMs: number }, out: (chunk: string) => Promise<void>): Promise<void> {
  let parts: string[] = [];
  let pending = 0;
  let sliceStart = performance.now();
  const pause = async () => {
    // The text goes to the file as it is made, a megabyte or so at a time: a 100 MB state is never one string.
    const full = pending > 1 << 20;
    if (!full && performance.now() - sliceStart < sliceMs && canRun()) return;
    // A slice ends here; the event loop runs while the chunk is written, or for a turn.
    const writing = full ? drain() : new Promise((r) => setImmediate(r));
    stats.longestMs = Math.max(stats.longestMs, performance.now() - sliceStart);
    await writing;
    while (!canRun()) await new Promise((r) => setImmediate(r));
    sliceStart = performance.now();
  };
  const push = (text: string) => {
    parts.push(text);
    pending += text.length;
  };
  const drain = async () => {
    const chunk = parts.join('');
    parts = [];
    pending = 0;
    await out(chunk);
  };
  /** A value; a big collection entry by entry with pauses (an entry removed meanwhile is skipped, one added is replayed). */
  const emit = async (current: () => unknown) => {
    const value = current();
    if (value === null || typeof value !== 'object') {
      push(JSON.stringify(value) ?? 'null');
      return;
    }
    // The keys of a collection of 100,000 entries take one stretch of tens of ms to list: listed once, arrays not at all.
    const keys = Array.isArray(value) ? null : Object.keys(value);
    const count = keys ? keys.length : (value as unknown[]).length;
    if (count <= 200) {
      push(JSON.stringify(value));
      return;
    }
    push(keys ? '{' : '[');
    let first = true;
    for (let i = 0; i < count; i++) {
      if ((i & 255) === 0) await pause();
      const now = current() as Record<string | number, unknown> | undefined;
      const key = keys ? keys[i]! : i;
      if (!now || !Object.hasOwn(now, key)) continue;
      const entry = JSON.stringify(now[key]);
      if (entry === undefined) continue;
      // One entry a line: the file stays JSON, and line tools (head, grep, less) can read a big one.
      push(`${first ? '\n' : ',\n'}${keys ? `${JSON.stringify(key)}:` : ''}${entry}`);
      first = false;
    }
    push(keys ? '}' : ']');
  };
  push(`{"version":${STATE_VERSION},"journalSeq":${seq},"journalFormat":${JOURNAL_FORMAT},"clock":${JSON.stringify(state.clock)},"signingKey":${JSON.stringify(state.signingKey)},"jobs":`);
  await emit(() => state.jobs);
  push(',"accounts":{');
  let firstAccount = true;
  for (const accountId of Object.keys(state.accounts)) {
    await pause();
    const account = state.accounts[accountId] as unknown as Record<string, unknown> | undefined;
    if (!account) continue;
    push(`${firstAccount ? '' : ','}${JSON.stringify(accountId)}:{`);
    firstAccount = false;
    let firstField = true;
    for (const field of Object.keys(account)) {
      if (account[field] === undefined) continue;
      push(`${firstField ? '' : ','}${JSON.stringify(field)}:`);
      firstField = false;
      await emit(() => (state.accounts[accountId] as unknown as Record<string, unknown> | undefined)?.[field]);
    }
    push('}');
  }
  push('}}');
  stats.longestMs = Math.max(stats.longestMs, performance.now() - sliceStart);
  await drain();
}
