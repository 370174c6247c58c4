// The request log (sandbox.md 14): what each request to the faces (and, apart, to the control API) was and what it got,
// kept in memory, never in --data. Invariants:
// - bounded: one ring of `capacity` entries per account and one sandbox-wide ring (requests no account could be named
//   for, and every control API request); an entry's bodies are capped before they get here (wire/middleware/request-log.ts);
// - an entry is in at most two rings (a control request naming an account: its ring and the sandbox's), what is kept
//   of it the same object in both, and is found by id while a ring holds it: its id is its sequence number, and each
//   ring is in that order, so a look-up is a binary search per ring. No index by id: a map of every entry costs each
//   request more (it points from old objects to new ones, which the young generation's collector then walks) than
//   look-ups ever would;
// - what a ring keeps of an entry is small (Kept): every object a ring holds is one more for the collector to copy,
//   so a kept entry has as few as it can and shares what repeats (the media type, the list of headers an app sends
//   every time, the path and unchanged answer of a resource polled), and a read's entry names no ids (it made
//   nothing); the RequestEntry a reader gets is built when it is read;
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

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * What a ring keeps of an entry, with as few objects as it can (see the invariants): no id (it is `req_` and the seq),
 * no times (the ring keeps them in an array of doubles: a number field holding a time is one more object each), the
 * duration in whole tenths of a millisecond, and an unmasked `application/json` answer as its bare text.
 */
type Kept = Omit<RequestEntry, 'id' | 'atMs' | 'wallMs' | 'durationMs' | 'answer'> & { tenths: number; answer: LoggedBody | string };

function kept(e: RequestEntry): Kept {
  const a = e.answer;
  const answer = a.kind === 'json' && a.contentType === 'application/json' && a.size === a.text.length ? a.text : a;
  const { seq, face, method, path, query, status, accountId, credentialId, idempotencyKey, replayed, traceId, headers, request, ids, warnings } = e;
  return { seq, face, method, path, query, status, tenths: Math.round(e.durationMs * 10), accountId, credentialId, idempotencyKey, replayed, traceId, headers, request, answer, ids, warnings };
}

function entryOf(k: Kept, atMs: number, wallMs: number): RequestEntry {
  const { tenths, answer, ...rest } = k;
  return { ...rest, id: requestIdOf(k.seq), atMs, wallMs, durationMs: tenths / 10, answer: typeof answer === 'string' ? { kind: 'json', contentType: 'application/json', size: answer.length, text: answer } : answer };
}

class Ring {
  private items: (Kept | undefined)[] = [];
  /** [atMs, wallMs] of the entry at each position; grows with the ring up to its capacity. */
  private times = new Float64Array(16);
  private next = 0;
  private size = 0;
  constructor(readonly capacity: number) {}
  /** Adds what it keeps of `entry` (shared with another ring when given), returning that. */
  push(entry: RequestEntry, shared?: Kept): Kept {
    const k = shared ?? kept(entry);
    // An app sends the same headers request after request: the entry shares the list of the one before when they
    // are equal, so a turning ring keeps one list, not one per entry.
    // So is an app polling one resource: its path, and its answer while it has not changed.
    const before = this.size === 0 ? undefined : this.items[(this.next - 1 + this.capacity) % this.capacity];
    if (before) {
      if (sameStrings(before.headers, k.headers)) k.headers = before.headers;
      if (before.path === k.path) {
        k.path = before.path;
        if (typeof k.answer === 'string' && before.answer === k.answer) k.answer = before.answer;
      }
    }
    if (this.next * 2 >= this.times.length) {
      const grown = new Float64Array(Math.min(this.times.length * 2, this.capacity * 2));
      grown.set(this.times);
      this.times = grown;
    }
    this.items[this.next] = k;
    this.times[this.next * 2] = entry.atMs;
    this.times[this.next * 2 + 1] = entry.wallMs;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
    return k;
  }
  private at(position: number): RequestEntry {
    return entryOf(this.items[position]!, this.times[position * 2]!, this.times[position * 2 + 1]!);
  }
  /** The entry of sequence number `seq`, if this ring holds it. */
  find(seq: number): RequestEntry | undefined {
    let lo = 0;
    let hi = this.size - 1; // positions from the oldest
    const oldest = (this.next - this.size + this.capacity) % this.capacity;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const position = (oldest + mid) % this.capacity;
      const s = this.items[position]!.seq;
      if (s === seq) return this.at(position);
      if (s < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
  /** Newest first: each entry's seq and a way to have all of it (built only for the entries a page takes). */
  *newest(): Generator<{ seq: number; entry: () => RequestEntry; kept: Kept; atMs: number }> {
    for (let i = 1; i <= this.size; i++) {
      const position = (this.next - i + this.capacity) % this.capacity;
      yield { seq: this.items[position]!.seq, kept: this.items[position]!, atMs: this.times[position * 2]!, entry: () => this.at(position) };
    }
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

function matches(e: Kept, atMs: number, f: RequestFilter): boolean {
  if (f.face !== undefined && e.face !== f.face) return false;
  if (f.method !== undefined && e.method !== f.method) return false;
  if (f.path !== undefined && !e.path.startsWith(f.path)) return false;
  if (f.sinceMs !== undefined && atMs < f.sinceMs) return false;
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
      let k: Kept | undefined;
      if (entry.accountId !== null) {
        // A request that deleted its account (or came after) starts no ring for it.
        if (store.findAccount(entry.accountId)) {
          let ring = rings.get(entry.accountId);
          if (!ring) rings.set(entry.accountId, (ring = new Ring(capacity)));
          k = ring.push(entry);
        } else entry.accountId = null;
      }
      if (sandboxWide || entry.accountId === null) sandbox.push(entry, k);
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
          if (e.seq >= before || !matches(e.kept, e.atMs, filter)) continue;
          if (items.length === limit) {
            more = true;
            break;
          }
          items.push(e.entry());
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
