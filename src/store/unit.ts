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
// unwrapped (deeply, for new objects that carry proxies read from the state), so the raw state never holds a proxy.
// Outside any unit, the store hands out raw objects (reads stay as fast as before). The current unit is carried by
// AsyncLocalStorage, so concurrent requests each write into their own unit. Two units that interleave writes to the
// same record across an await would undo each other's values; the verbs never do that (a request's writes happen in
// one synchronous stretch after its awaits: body, token), and the scheduler runs each job in its own unit.
import { AsyncLocalStorage } from 'node:async_hooks';

export type Path = (string | number)[];

/** Which record a write into an object belongs to. */
type Level =
  | { t: 'root' }
  | { t: 'accounts' }
  | { t: 'account'; id: string }
  | { t: 'map'; base: Path }
  | { t: 'array'; base: Path }
  | { t: 'inside'; record: Path };

/** Account fields that are collections keyed by id (each entry is its own record). */
export const KEYED_COLLECTIONS = new Set(['transactions', 'wallets', 'deliveries', 'balanceBlocks', 'idempotency', 'paymentLinks', 'staticQrs', 'cobs', 'locs']);

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
  constructor(
    readonly kind: UnitKind,
    readonly hooks: UnitHooks,
  ) {}
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

const als = new AsyncLocalStorage<Unit>();
const proxies = new WeakMap<object, object>();
const targets = new WeakMap<object, object>();

export const currentUnit = (): Unit | undefined => {
  const u = als.getStore();
  return u && u.open ? u : undefined;
};

export function runInUnit<T>(unit: Unit | undefined, fn: () => T): T {
  return als.run(unit as Unit, fn);
}

/**
 * When no unit is open anywhere in the process, AsyncLocalStorage stops tracking (on Node 20 it costs every promise of
 * the process a hook, about a quarter of a GET's throughput) until the next unit's run() turns it on again. Nothing
 * is lost: a continuation of a unit that has ended finds no open unit either way.
 */
let openUnits = 0;
export function unitBegun(): void {
  openUnits++;
}
/** Called once as each unit ends (commit or rollback), in whichever sandbox of the process. */
export function unitEnded(): void {
  if (--openUnits === 0) als.disable();
}

const join = (p: Path) => p.join('\u0000');

function mark(unit: Unit, record: Path) {
  const k = join(record);
  if (!unit.records.has(k)) unit.records.set(k, record);
}

function recordFor(level: Level, target: object, key: PropertyKey): Path | null {
  if (typeof key === 'symbol') return null;
  switch (level.t) {
    case 'root':
      return [key];
    case 'accounts':
      return ['accounts', key];
    case 'account':
      return ['accounts', level.id, key];
    case 'map':
      return [...level.base, key];
    case 'array': {
      const arr = target as unknown[];
      if (key === 'length') return null; // marked by the element writes (appends) or the whole array below
      const i = Number(key);
      if (Number.isInteger(i) && i >= arr.length) return [...level.base, i];
      return level.base;
    }
    case 'inside':
      return level.record;
  }
}

function childLevel(level: Level, target: object, key: string): Level {
  switch (level.t) {
    case 'root':
      if (key === 'accounts') return { t: 'accounts' };
      if (key === 'jobs') return { t: 'map', base: ['jobs'] };
      return { t: 'inside', record: [key] };
    case 'accounts':
      return { t: 'account', id: key };
    case 'account': {
      const base = ['accounts', level.id, key];
      const value = (target as Record<string, unknown>)[key];
      if (KEYED_COLLECTIONS.has(key)) return { t: 'map', base };
      if (Array.isArray(value)) return { t: 'array', base };
      return { t: 'inside', record: base };
    }
    case 'map':
      return { t: 'inside', record: [...level.base, key] };
    case 'array':
      return { t: 'inside', record: level.base };
    case 'inside':
      return level;
  }
}

/** The raw object behind a proxy, deeply for fresh objects that may carry proxies read from the state. */
export function unwrap<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const raw = targets.get(value as object);
  if (raw) return raw as T;
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

function write(level: Level, target: object, key: PropertyKey, apply: () => boolean, deleting: boolean): boolean {
  const unit = currentUnit();
  const record = recordFor(level, target, key);
  const had = Object.hasOwn(target, key);
  const old = had ? (target as Record<PropertyKey, unknown>)[key] : undefined;
  if (unit) {
    if (unit.kind === 'read') throw new Error(`a read (GET/HEAD) wrote '${String(key)}': reads run outside units of work and must not change the state (test hook strictReads)`);
    unit.writes++;
    const fail = unit.hooks.failWrite;
    if (fail && fail.kind === unit.kind && fail.n === unit.writes) throw new Error(`injected fault: write #${unit.writes} of this ${unit.kind} (test hook failWrite)`);
    // An element written past the end grows the array by itself: its undo restores the length after deleting it.
    if (Array.isArray(target) && !had && typeof key === 'string' && Number(key) >= target.length) unit.undo.push(target, 'length', true, target.length);
    if (!apply()) return false;
    unit.undo.push(target, key, had, old);
    if (record) mark(unit, record);
    else if (level.t === 'array' && key === 'length' && !deleting) {
      // Shrinking an array (splice, length = n) changes elements that had no write of their own: the whole array.
      if ((old as number) > (target as unknown[]).length) mark(unit, level.base);
    }
    return true;
  }
  // No open unit: a continuation that outlived its unit writes through a proxy it kept. Not recorded (the verbs
  // don't do this: the scheduler and the dispatcher open a unit for each piece of work).
  return apply();
}

function wrap<T extends object>(target: T, level: Level): T {
  const cached = proxies.get(target);
  if (cached) return cached as T;
  const handler: ProxyHandler<T> = {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, receiver);
      if (value === null || typeof value !== 'object' || typeof key === 'symbol') return value;
      return proxies.get(value as object) ?? wrap(value as object, childLevel(level, t, key));
    },
    set(t, key, value) {
      const raw = unwrap(value);
      return write(level, t, key, () => Reflect.set(t, key, raw), false);
    },
    deleteProperty(t, key) {
      if (!Object.hasOwn(t, key)) return true;
      return write(level, t, key, () => Reflect.deleteProperty(t, key), true);
    },
    defineProperty(t, key, desc) {
      const d = 'value' in desc ? { ...desc, value: unwrap(desc.value) } : desc;
      return write(level, t, key, () => Reflect.defineProperty(t, key, d), false);
    },
  };
  const proxy = new Proxy(target, handler);
  proxies.set(target, proxy);
  targets.set(proxy, target);
  return proxy;
}

/** The proxy view of the state root (for use inside a unit). */
export const view = <T extends object>(root: T): T => wrap(root, { t: 'root' });

/** Replays a unit's undo log backwards: the raw objects are as they were before it. */
export function undo(unit: Unit) {
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
