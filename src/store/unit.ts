// Units of work (sandbox.md 2.8: every request, control action, job and delivery outcome is all-or-nothing; STYLE.md
// habit 16). Inside a unit, the state is handed out as Proxy views: every set/delete goes through a trap that writes
// the raw object, appends (target, key, had, old) to the unit's undo log and marks the *record* it belongs to as
// changed. A unit that throws is undone by replaying its log backwards; one that succeeds yields its change set: the
// changed records with their values at commit time, which the journal appends as one line. Nothing at a call site
// guards anything: whatever throws, wherever, leaves the state as it was.
//
// Records (the unit of the journal, each one upserted or deleted whole):
//   [key]                               top-level fields: clock, signingKey, version, and `accounts`/`jobs` when replaced
//   ['accounts', id]                    a whole account (created, deleted)
//   ['accounts', id, field]             an account's scalar/object field (name, fees, limits...) and array collections
//   ['accounts', id, coll, key]         one entry of a keyed collection (transactions, wallets, deliveries...)
//   ['accounts', id, coll, index]       an element appended to an array collection (ledger, events...), when only
//                                       appended; any other change in an array marks the whole array
//   ['jobs', id]                        one job
//
// Rules: a proxy is cached per target (WeakMap), so identity holds across reads; a value assigned through a proxy is
// unwrapped (deeply, for new objects that carry proxies read from the state), so the raw state never holds a proxy. A
// view hands out its raw object as its RAW property (no second WeakMap from views to objects: a WeakMap entry cost as
// much as the view itself); a push onto a viewed array is one recorded write per element, as an assignment past the
// end would be (Array.prototype.push through the traps also read and wrote `length`).
// While no unit is open anywhere, the store hands out raw objects (reads stay as fast as before).
//
// The current unit is a module-level variable, set by runInUnit() for one synchronous call and put back when it
// returns: never left behind for whatever runs next, and no async hook (AsyncLocalStorage cost every promise of the
// process a hook on Node 20 while any unit was open, about 5 % of a create's CPU). A request's writes happen in
// synchronous stretches after its awaits (body, token, the QR image): the request's unit is current while each of its
// middleware and handlers starts (wire/request-unit.ts runs every route handler's synchronous part in it), and a handler
// that writes after an await of its own runs that part with inRequestUnit(). A write through a view while no unit is
// current throws (nothing is written): a stretch that was not put in its unit fails loudly instead of changing the
// state unrecorded. So that an object read after an await (the guard's account) records the writes later made
// through it, the store hands out views while any unit is open. Two units that interleave writes to the same record
// across an await would undo each other's values; the verbs never do that, and the scheduler runs each job in its
// own unit.

import { WEIGHED_FIELDS, entryWeight, fieldWeight } from './weight';

export type Path = (string | number)[];

/** Which record a write into an object belongs to. */
type Level =
  | { t: 'root' }
  | { t: 'accounts' }
  | { t: 'account'; id: string; key: string }
  | { t: 'map'; base: Path; key: string }
  | { t: 'array'; base: Path; key: string }
  | { t: 'inside'; record: Path; key: string; entry?: object };

/** Account fields that are collections keyed by id (each entry is its own record). */
export const KEYED_COLLECTIONS = new Set(['transactions', 'wallets', 'deliveries', 'balanceBlocks', 'idempotency', 'paymentLinks', 'staticQrs', 'cobs', 'locs', 'lotesCobV', 'recs', 'locrecs', 'solicrecs', 'cobrs']);

export type UnitKind = 'request' | 'job' | 'delivery' | 'system' | 'read';

export class Unit {
  /** Flat undo log: target, key, had, old; four slots per write. */
  readonly undo: unknown[] = [];
  /** Changed records by joined path. */
  readonly records = new Map<string, Path>();
  writes = 0;
  open = true;
  /** What waits for the unit to be committed (news of its changes); dropped when it is rolled back. */
  readonly onCommit: Array<() => void> = [];
  /** Begun and not yet ended (counted in unitsOpen). */
  live = false;
  /** The sandbox clock as the unit began (the store puts it back when the unit is rolled back). */
  clockBefore: unknown = undefined;
  /** Stored transactions this unit added (less those it removed), counted into `tally` as it writes; undone with it. */
  held = 0;
  /** The weight (./weight.ts) this unit added, less what it released: counted into `tally` the same way. */
  heldBytes = 0;
  constructor(
    readonly kind: UnitKind,
    readonly hooks: UnitHooks,
    /** Whether its changed records are kept (for a journal line): a store without a data file only needs the undo log. */
    readonly journaled = true,
    /** Its store's count of stored transactions and their weight (sandbox.md 6.1 --max-records), kept as writes add and remove them. */
    readonly tally: Tally | null = null,
  ) {}
}

/** A store's count of the records it holds (every account's stored transactions) and what they weigh (./weight.ts). */
export interface Tally {
  records: number;
  bytes: number;
}

/** Adds `sign` times one entry of the keyed collection `coll` to `into`. */
export function tallyEntry(into: Tally, coll: string, entry: unknown, sign: number): void {
  if (coll === 'transactions') into.records += sign;
  into.bytes += sign * entryWeight(coll, entry);
}

/** What a collection was found to hold without listing it (./as-read.ts), or undefined. */
type Known = (collection: object) => Tally | undefined;

/** Adds `sign` times what one keyed collection holds (entries of `coll`) to `into`. */
function addCollection(into: Tally, coll: string, collection: unknown, sign: number, known?: Known): void {
  if (collection === null || typeof collection !== 'object') return;
  const counted = known?.(collection);
  if (counted) {
    into.records += sign * counted.records;
    into.bytes += sign * counted.bytes;
    return;
  }
  const entries = collection as Record<string, unknown>;
  for (const key in entries) tallyEntry(into, coll, entries[key], sign);
}

/** Adds `sign` times what one (raw) account holds to `into`. */
function addAccount(into: Tally, account: unknown, sign: number, known?: Known): void {
  if (account === null || typeof account !== 'object') return;
  for (const coll of KEYED_COLLECTIONS) addCollection(into, coll, (account as Record<string, unknown>)[coll], sign, known);
}

/**
 * What a state holds: counted once, at a start or a reset, and then kept by every unit's writes. `known` gives what a
 * collection holds when the read of a data file counted it.
 */
export function tallyOf(state: { accounts: Record<string, unknown> }, known?: Known): Tally {
  const tally: Tally = { records: 0, bytes: 0 };
  for (const id of Object.keys(state.accounts)) addAccount(tally, state.accounts[id], 1, known);
  return tally;
}

/** The records a state holds (every account's stored transactions). */
export const countRecords = (state: { accounts: Record<string, unknown> }): number => tallyOf(state).records;

/** The change the write being made brings to the tally (tallyChange fills it; one object, reused). */
const delta: Tally = { records: 0, bytes: 0 };

/**
 * How a write changes the tally, into `delta` (false when it changes nothing), worked out before the write is applied:
 * an entry of a keyed collection added, replaced or removed; an account (or one of its keyed collections) added,
 * replaced or removed; a whole `accounts` swapped; a weighed field of an entry written.
 */
function tallyChange(level: Level, target: object, key: PropertyKey, deleting: boolean, had: boolean, old: unknown, value: unknown): boolean {
  delta.records = 0;
  delta.bytes = 0;
  switch (level.t) {
    case 'map': {
      const coll = level.base[2] as string | undefined;
      if (coll === undefined) return false;
      if (had) {
        if (coll === 'transactions') delta.records--;
        delta.bytes -= entryWeight(coll, old);
      }
      if (!deleting) {
        if (coll === 'transactions') delta.records++;
        delta.bytes += entryWeight(coll, value);
      }
      return true;
    }
    case 'accounts':
      if (had) addAccount(delta, old, -1);
      if (!deleting) addAccount(delta, value, 1);
      return true;
    case 'account':
      if (typeof key !== 'string' || !KEYED_COLLECTIONS.has(key)) return false;
      if (had) addCollection(delta, key, old, -1);
      if (!deleting) addCollection(delta, key, value, 1);
      return true;
    case 'root':
      if (key !== 'accounts') return false;
      if (had && old) for (const id of Object.keys(old)) addAccount(delta, (old as Record<string, unknown>)[id], -1);
      if (!deleting && value) for (const id of Object.keys(value)) addAccount(delta, (value as Record<string, unknown>)[id], 1);
      return true;
    case 'inside':
      // Only a weighed field of the entry itself (a cob's infoAdicionais revised): not a key of that name deeper down.
      if (target !== level.entry || typeof key !== 'string' || !WEIGHED_FIELDS.has(key)) return false;
      delta.bytes = (deleting ? 0 : fieldWeight(value)) - (had ? fieldWeight(old) : 0);
      return true;
    default:
      return false;
  }
}

export interface UnitHooks {
  /** Test hook: the Nth recorded write of a unit of this kind throws (fault injection, never set in production). */
  failWrite?: { kind: UnitKind; n: number } | null;
  /**
   * Test hook: GET and HEAD requests, which run outside any unit (raw state, no recording cost), run in a 'read' unit
   * whose writes throw, so a test suite proves that no read changes the state.
   */
  strictReads?: boolean;
  /** Test hook: this many journal writes fail as a full disk would (ENOSPC); counts down. */
  failStorage?: number;
}

const proxies = new WeakMap<object, object>();
/** What a view answers with its raw object (plain objects have no such property). */
const RAW = Symbol('raw');

/** The unit the running synchronous stretch writes into (runInUnit), or undefined. */
let current: Unit | undefined;

export const currentUnit = (): Unit | undefined => (current && current.open ? current : undefined);

/** Runs `fn` (synchronously) with `unit` as the current unit; the one before is current again when it returns. */
export function runInUnit<T>(unit: Unit | undefined, fn: () => T): T {
  const before = current;
  current = unit;
  try {
    return fn();
  } finally {
    current = before;
  }
}

/** Makes `unit` current and returns the unit that was (for enterUnit/leaveUnit pairs on a hot path: no closure). */
export function enterUnit(unit: Unit | undefined): Unit | undefined {
  const before = current;
  current = unit;
  return before;
}
export function leaveUnit(before: Unit | undefined): void {
  current = before;
}

/** Units begun and not yet ended, in every sandbox of the process: while there are any, the store hands out views. */
let openUnits = 0;
export const unitsOpen = (): boolean => openUnits > 0;
export function unitBegun(): void {
  openUnits++;
}
/** Called once as each unit ends (commit or rollback), in whichever sandbox of the process. */
export function unitEnded(): void {
  openUnits--;
}

// A record's key in Unit.records is its path joined with NUL; a level keeps its own path's key, so a write marks its
// record with one string concatenation and allocates the path only the first time the unit changes that record.
const SEP = '\u0000';

/** Marks the record that a write of `key` into `target` (at `level`) changes; `append`: an element past the array's end. */
function mark(unit: Unit, level: Level, key: string, append: boolean, deleting: boolean, old: unknown, target: object) {
  const records = unit.records;
  switch (level.t) {
    case 'root':
      if (!records.has(key)) records.set(key, [key]);
      return;
    case 'accounts': {
      const k = `accounts${SEP}${key}`;
      if (!records.has(k)) records.set(k, ['accounts', key]);
      return;
    }
    case 'account': {
      const k = level.key + SEP + key;
      if (!records.has(k)) records.set(k, ['accounts', level.id, key]);
      return;
    }
    case 'map': {
      const k = level.key + SEP + key;
      if (!records.has(k)) records.set(k, [...level.base, key]);
      return;
    }
    case 'array': {
      if (key === 'length') {
        if (deleting) return;
        // Shrinking an array (splice, length = n) changes elements that had no write of their own: the whole array.
        if ((old as number) > (target as unknown[]).length && !records.has(level.key)) records.set(level.key, level.base);
        return; // growing: marked by the element writes (appends)
      }
      if (append) {
        const i = Number(key);
        const k = level.key + SEP + i;
        if (!records.has(k)) records.set(k, [...level.base, i]);
      } else if (!records.has(level.key)) records.set(level.key, level.base);
      return;
    }
    case 'inside':
      if (!records.has(level.key)) records.set(level.key, level.record);
  }
}

const inside = (record: Path): Level => ({ t: 'inside', record, key: record.join(SEP) });

function childLevel(level: Level, target: object, key: string): Level {
  switch (level.t) {
    case 'root':
      if (key === 'accounts') return { t: 'accounts' };
      if (key === 'jobs') return { t: 'map', base: ['jobs'], key: 'jobs' };
      return inside([key]);
    case 'accounts':
      return { t: 'account', id: key, key: `accounts${SEP}${key}` };
    case 'account': {
      const base = ['accounts', level.id, key];
      const value = (target as Record<string, unknown>)[key];
      if (KEYED_COLLECTIONS.has(key)) return { t: 'map', base, key: level.key + SEP + key };
      if (Array.isArray(value)) return { t: 'array', base, key: level.key + SEP + key };
      return { t: 'inside', record: base, key: level.key + SEP + key };
    }
    case 'map':
      return { t: 'inside', record: [...level.base, key], key: level.key + SEP + key, entry: (target as Record<string, object>)[key] };
    case 'array':
      return { t: 'inside', record: level.base, key: level.key };
    case 'inside':
      return level;
  }
}

/**
 * The raw object behind a view, or the value itself: for code that only reads (a view, a look-up), which then reads
 * plain objects instead of going through a trap per property. Shallow: unlike unwrap, it never walks a raw object (a
 * whole account, outside any unit) looking for views inside.
 */
export function rawOf<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  return ((value as { [RAW]?: T })[RAW] as T | undefined) ?? value;
}

/** The raw object behind a proxy, deeply for fresh objects that may carry proxies read from the state. */
export function unwrap<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const raw = (value as { [RAW]?: T })[RAW];
  if (raw) return raw;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v !== null && typeof v === 'object') value[i] = unwrap(v);
    }
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    for (const k of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== null && typeof v === 'object') (value as Record<string, unknown>)[k] = unwrap(v);
    }
  }
  return value;
}

const SET = 0;
const DELETE = 1;
const DEFINE = 2;

/** One write through a view: checked against the current unit, applied to the raw object, logged for undo, marked. */
function write(level: Level, target: object, key: PropertyKey, op: number, value: unknown): boolean {
  const unit = current;
  if (!unit || !unit.open) {
    // No current unit: code that runs after an await of a request (or outside any request) writes through a view. It
    // would not be undone with its unit nor written to the journal, so nothing is written.
    throw new Error(`a write of '${String(key)}' ran outside any unit of work: run the synchronous stretch that writes with store.run(unit, fn) (a route handler: inRequestUnit(c, fn) after its awaits)`);
  }
  if (unit.kind === 'read') throw new Error(`a read (GET/HEAD) wrote '${String(key)}': reads run outside units of work and must not change the state (test hook strictReads)`);
  unit.writes++;
  const fail = unit.hooks.failWrite;
  if (fail && fail.kind === unit.kind && fail.n === unit.writes) throw new Error(`injected fault: write #${unit.writes} of this ${unit.kind} (test hook failWrite)`);
  const had = Object.hasOwn(target, key);
  const old = had ? (target as Record<PropertyKey, unknown>)[key] : undefined;
  // An element written past the end grows the array by itself: its undo restores the length after deleting it.
  const past = !had && Array.isArray(target) && typeof key === 'string' && Number(key) >= target.length;
  if (past) unit.undo.push(target, 'length', true, (target as unknown[]).length);
  const append = past && Number.isInteger(Number(key));
  const counted = unit.tally !== null && level.t !== 'array' && tallyChange(level, target, key, op === DELETE, had, old, op === DEFINE ? (value as PropertyDescriptor).value : value);
  const ok = op === SET ? Reflect.set(target, key, value) : op === DELETE ? Reflect.deleteProperty(target, key) : Reflect.defineProperty(target, key, value as PropertyDescriptor);
  if (!ok) return false;
  if (counted) {
    unit.held += delta.records;
    unit.heldBytes += delta.bytes;
    unit.tally!.records += delta.records;
    unit.tally!.bytes += delta.bytes;
  }
  unit.undo.push(target, key, had, old);
  if (unit.journaled && typeof key !== 'symbol') mark(unit, level, key as string, append, op === DELETE, old, target);
  return true;
}

/** The traps of one view object: one instance per proxied object, its methods shared (no closures per proxy). */
class Trap implements ProxyHandler<object> {
  #push: ((...items: unknown[]) => number) | undefined;
  constructor(readonly level: Level) {}
  get(t: object, key: string | symbol) {
    if (key === RAW) return t;
    const value = (t as Record<PropertyKey, unknown>)[key];
    if (key === 'push' && value === Array.prototype.push) return (this.#push ??= this.#pushOnto(t as unknown[]));
    if (value === null || typeof value !== 'object' || typeof key === 'symbol') return value;
    return proxies.get(value) ?? wrap(value, childLevel(this.level, t, key));
  }
  /** push() on a viewed array: each element written past the end (one recorded write each, the length following). */
  #pushOnto(array: unknown[]) {
    return (...items: unknown[]): number => {
      for (const item of items) write(this.level, array, String(array.length), SET, unwrap(item));
      return array.length;
    };
  }
  set(t: object, key: PropertyKey, value: unknown) {
    return write(this.level, t, key, SET, unwrap(value));
  }
  deleteProperty(t: object, key: PropertyKey) {
    if (!Object.hasOwn(t, key)) return true;
    return write(this.level, t, key, DELETE, undefined);
  }
  defineProperty(t: object, key: PropertyKey, desc: PropertyDescriptor) {
    return write(this.level, t, key, DEFINE, 'value' in desc ? { ...desc, value: unwrap(desc.value) } : desc);
  }
}

function wrap<T extends object>(target: T, level: Level): T {
  const cached = proxies.get(target);
  if (cached) return cached as T;
  const proxy = new Proxy<T>(target, new Trap(level) as ProxyHandler<T>);
  proxies.set(target, proxy);
  return proxy;
}

/** The proxy view of the state root (for use inside a unit). */
const ROOT: Level = { t: 'root' };
export const view = <T extends object>(root: T): T => wrap(root, ROOT);

/** Replays a unit's undo log backwards: the raw objects are as they were before it. */
export function undo(unit: Unit) {
  if (unit.tally) {
    unit.tally.records -= unit.held;
    unit.tally.bytes -= unit.heldBytes;
  }
  unit.held = 0;
  unit.heldBytes = 0;
  const log = unit.undo;
  for (let i = log.length - 4; i >= 0; i -= 4) {
    const target = log[i] as Record<PropertyKey, unknown>;
    const key = log[i + 1] as PropertyKey;
    if (log[i + 2]) target[key] = log[i + 3];
    else delete target[key];
  }
  log.length = 0;
}

/**
 * The change set of a unit: one op per changed record, [path, value] (upsert) or [path] (gone), values read now.
 * Records inside a record that also changed are folded into it.
 */
export function changeSet(root: object, unit: Unit): unknown[] {
  const paths = [...unit.records.values()].sort(comparePaths);
  const ops: unknown[] = [];
  let last: Path | null = null;
  for (const p of paths) {
    if (last && isPrefix(last, p)) continue;
    last = p;
    const found = resolve(root, p);
    ops.push(found.present ? [p, found.value] : [p]);
  }
  return ops;
}

function comparePaths(a: Path, b: Path): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = String(a[i]);
    const y = String(b[i]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function isPrefix(a: Path, b: Path): boolean {
  if (a.length > b.length) return false;
  for (let i = 0; i < a.length; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

function resolve(root: object, path: Path): { present: boolean; value?: unknown } {
  let node: unknown = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, path[i]!)) return { present: false };
    node = (node as Record<string, unknown>)[path[i]!];
  }
  const last = path[path.length - 1]!;
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, last)) return { present: false };
  return { present: true, value: (node as Record<string | number, unknown>)[last] };
}

/**
 * Applies one op of a change set to a raw state (journal replay). An op under a parent that is gone is skipped: a
 * later op (the parent's deletion or upsert) settles it. Applying the ops of every line in order is idempotent.
 */
export function applyOp(root: object, op: unknown[]): void {
  const path = op[0] as Path;
  let node: unknown = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, path[i]!)) return;
    node = (node as Record<string, unknown>)[path[i]!];
  }
  if (node === null || typeof node !== 'object') return;
  const last = path[path.length - 1]!;
  if (op.length > 1) (node as Record<string | number, unknown>)[last] = op[1];
  else if (Array.isArray(node) && typeof last === 'number') node.length = Math.min(node.length, last);
  else delete (node as Record<string | number, unknown>)[last];
}
