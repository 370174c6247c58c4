// The request log (sandbox.md 14): what each request to the faces (and, apart, to the control API) was and what it got,
// kept in memory, never in --data. Invariants:
// - bounded: one ring of `capacity` entries per account and one sandbox-wide ring (requests no account could be named
//   for, and every control API request); an entry's bodies are capped before they get here (wire/middleware/request-log.ts);
// - an entry is in at most two rings (a control request naming an account: its ring and the sandbox's), the same object
//   in both, and is found by id while a ring holds it: its id is its sequence number, and each ring is in that order,
//   so a look-up is a binary search per ring. No index by id: a map of every entry costs each request more (it points
//   from old objects to new ones, which the young generation's collector then walks) than look-ups ever would;
// - reset forgets everything; deleting an account forgets its ring. Ids keep counting, so an old id or cursor never
//   names a newer entry.
import type { Store } from '../store/store';
import { validationError } from '../domain/errors';

export const DEFAULT_REQUEST_LOG_SIZE = 1000;
/** Requests to these faces are logged; `control` is the sandbox's own API. */
export const REQUEST_FACES = ['v2', 'v1', 'api-pix', 'control'] as const;
export type RequestFace = (typeof REQUEST_FACES)[number];

/** A body as logged: its JSON text (secrets masked), or why it is not there. */
export type LoggedBody =
  | { kind: 'none' }
  | { kind: 'json'; contentType: string; size: number; text: string }
  /** Not JSON, binary, over the cap, or not valid JSON: only its size (bytes; -1 unknown) and type. */
  | { kind: 'omitted'; contentType: string; size: number; reason: string };

export interface RequestEntry {
  id: string;
  seq: number;
  /** On the clock of the account it is logged under (the sandbox clock for the others), epoch ms. */
  atMs: number;
  /** Real time, epoch ms. */
  wallMs: number;
  face: RequestFace;
  method: string;
  path: string;
  /** '' or the query string with its '?'. */
  query: string;
  status: number;
  durationMs: number;
  accountId: string | null;
  /** The credential (v2, API Pix) or API key (v1) id the request was authorised with, or whose client id it sent. */
  credentialId: string | null;
  idempotencyKey: string | null;
  replayed: boolean;
  traceId: string | null;
  /** Some of the request's headers as [name, value, ...], lower-case names, secrets masked. */
  headers: string[];
  request: LoggedBody;
  answer: LoggedBody;
  /** Ids of what it created or changed: the id of a 2xx answer, its Location's last segment. */
  ids: string[];
  warnings: string[];
}

export interface RequestFilter {
  /** '4xx', '201', or 'failed' (400 and up). */
  status?: string;
  method?: string;
  /** A path prefix. */
  path?: string;
  face?: RequestFace;
  /** Entries at or after this sandbox instant (epoch ms). */
  sinceMs?: number;
}

export const STATUS_PATTERN = /^(?:[1-5](?:xx|\d\d)|failed)$/;

class Ring {
  private items: (RequestEntry | undefined)[];
  private next = 0;
  private size = 0;
  constructor(readonly capacity: number) {
    this.items = [];
  }
  /** Adds `entry`, returning the entry it pushed out, if any. */
  push(entry: RequestEntry): RequestEntry | undefined {
    const out = this.size === this.capacity ? this.items[this.next] : undefined;
    this.items[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
    return out;
  }
  /** The entry of sequence number `seq`, if this ring holds it. */
  find(seq: number): RequestEntry | undefined {
    let lo = 0;
    let hi = this.size - 1; // positions from the oldest
    const oldest = (this.next - this.size + this.capacity) % this.capacity;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = this.items[(oldest + mid) % this.capacity]!;
      if (e.seq === seq) return e;
      if (e.seq < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
  /** Newest first. */
  *newest(): Generator<RequestEntry> {
    for (let i = 1; i <= this.size; i++) yield this.items[(this.next - i + this.capacity) % this.capacity]!;
  }
  get length() {
    return this.size;
  }
}

export interface RequestLog {
  readonly capacity: number;
  /** The next entry's id and seq (taken when the request starts, so entries are ordered by arrival). */
  nextSeq(): number;
  /** Keeps `entry` under its account (when that account still exists) and, if `sandboxWide`, in the sandbox ring. */
  record(entry: RequestEntry, sandboxWide: boolean): RequestEntry | undefined;
  get(id: string): RequestEntry | undefined;
  /** The entries of an account (null: the sandbox ring), newest first, filtered, `limit` after the `cursor` entry. */
  list(accountId: string | null, filter: RequestFilter, page: { limit: number; cursor?: string }): { items: RequestEntry[]; nextCursor: string | null };
  forgetAccount(accountId: string): void;
  clear(): void;
  /** Entries held, every ring together (each entry once). */
  readonly held: number;
}

export const requestIdOf = (seq: number) => `req_${seq}`;
const seqOf = (id: string) => (/^req_(\d{1,15})$/.test(id) ? Number(id.slice(4)) : undefined);

function matches(e: RequestEntry, f: RequestFilter): boolean {
  if (f.face !== undefined && e.face !== f.face) return false;
  if (f.method !== undefined && e.method !== f.method) return false;
  if (f.path !== undefined && !e.path.startsWith(f.path)) return false;
  if (f.sinceMs !== undefined && e.atMs < f.sinceMs) return false;
  if (f.status !== undefined) {
    if (f.status === 'failed') return e.status >= 400;
    if (f.status.endsWith('xx')) return Math.floor(e.status / 100) === Number(f.status[0]);
    return e.status === Number(f.status);
  }
  return true;
}

export function createRequestLog(store: Pick<Store, 'findAccount'>, capacity = DEFAULT_REQUEST_LOG_SIZE): RequestLog {
  let seq = 0;
  let rings = new Map<string, Ring>();
  let sandbox = new Ring(Math.max(capacity, 1));
  return {
    capacity,
    nextSeq: () => ++seq,
    record(entry, sandboxWide) {
      if (capacity === 0) return undefined;
      if (entry.accountId !== null) {
        // A request that deleted its account (or came after) starts no ring for it.
        if (store.findAccount(entry.accountId)) {
          let ring = rings.get(entry.accountId);
          if (!ring) rings.set(entry.accountId, (ring = new Ring(capacity)));
          ring.push(entry);
        } else entry.accountId = null;
      }
      if (sandboxWide || entry.accountId === null) sandbox.push(entry);
      return entry;
    },
    get(id) {
      const at = seqOf(id);
      if (at === undefined) return undefined;
      const found = sandbox.find(at);
      if (found) return found;
      for (const ring of rings.values()) {
        const e = ring.find(at);
        if (e) return e;
      }
      return undefined;
    },
    list(accountId, filter, { limit, cursor }) {
      const ring = accountId === null ? sandbox : rings.get(accountId);
      let before = Infinity;
      if (cursor !== undefined) {
        const at = seqOf(cursor);
        if (at === undefined) throw validationError([{ field: 'cursor', message: `must be the nextCursor of a previous page (an entry id like req_42), got '${cursor.slice(0, 40)}'` }]);
        before = at;
      }
      const items: RequestEntry[] = [];
      let more = false;
      if (ring) {
        for (const e of ring.newest()) {
          if (e.seq >= before || !matches(e, filter)) continue;
          if (items.length === limit) {
            more = true;
            break;
          }
          items.push(e);
        }
      }
      return { items, nextCursor: more ? items[items.length - 1]!.id : null };
    },
    forgetAccount(accountId) {
      rings.delete(accountId);
    },
    clear() {
      rings = new Map();
      sandbox = new Ring(Math.max(capacity, 1));
    },
    get held() {
      const seqs = new Set<number>();
      for (const ring of [sandbox, ...rings.values()]) for (const e of ring.newest()) seqs.add(e.seq);
      return seqs.size;
    },
  };
}
