// The request log (sandbox.md 14): what each request to the faces (and, apart, to the control API) was and what it got,
// kept in memory, never in --data. Invariants:
// - bounded: one ring of `capacity` entries per account and one sandbox-wide ring (requests no account could be named
//   for, and every control API request); an entry's bodies are capped before they get here (wire/middleware/request-log.ts);
// - an entry is in at most two rings (a control request naming an account: its ring and the sandbox's), its strings
//   shared by both (its answer's bytes are in each ring's arena, the newest's still the string it was sent as), and
//   is found by id while a ring holds it: its id is its sequence number, and a ring is in the order requests were
//   answered, nearly that order (Ring.positionOf), so a look-up is a binary search per ring. No index by id: a map of
//   every entry costs each request more (it points from old objects to new ones, which the young generation's
//   collector then walks) than look-ups ever would;
// - what a ring keeps of an entry is small: every object a ring holds is one more for the collector to copy, so an
//   entry has no object of its own (numbers and slots, see Ring) and shares what repeats (the media type, its head
//   while the app sends the same request again (RequestHead), the unchanged answer of a resource polled), and a read's
//   entry names no ids (it made nothing); the RequestEntry a reader gets is built when it is read, and its query's and
//   bodies' secrets masked then: a request pays nothing to mask, and no reader ever sees an unmasked secret;
// - reset forgets everything; deleting an account forgets its ring. Ids keep counting, so an old id or cursor never
//   names a newer entry.
import { randomBytes } from 'node:crypto';
import { validationError } from '../domain/errors';
import { maskedJson, maskedQuery } from './request-mask';

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

/**
 * A body as a ring keeps it, before masking: secrets are masked, and a size not known is measured, when the entry is
 * read (Ring.at), so that a request pays for neither. A bare string is `application/json` text known to parse, whose
 * size is its length in bytes; `raw` is other JSON (`valid` false: not known to parse), `size` -1 when not known yet.
 */
export type KeptBody = Exclude<LoggedBody, { kind: 'json' }> | string | { kind: 'raw'; contentType: string; size: number; text: string; valid: boolean };

/** A kept body as a reader sees it: masked and measured. */
function loggedBody(body: KeptBody): LoggedBody {
  if (typeof body === 'string') body = { kind: 'raw', contentType: 'application/json', size: -1, text: body, valid: true };
  if (body.kind !== 'raw') return body;
  const { contentType, text } = body;
  const size = body.size < 0 ? Buffer.byteLength(text) : body.size;
  const masked = maskedJson(text, body.valid);
  return masked === undefined ? { kind: 'omitted', contentType, size, reason: 'not valid JSON' } : { kind: 'json', contentType, size, text: masked };
}

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
  traceId: string;
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

/**
 * What an entry's request was that the requests before it most often were too: its face, method, path and query, who
 * sent it, the headers kept and what its checks warned. The recorder hands one object over for as long as they stay
 * the same (an app polling a resource, or making charge after charge), and every entry in between points to it:
 * the ring keeps one slot of an entry for all of it, not eight. Its query is as sent (masked when the entry is read).
 */
export type RequestHead = Pick<RequestEntry, 'face' | 'method' | 'path' | 'query' | 'accountId' | 'credentialId' | 'headers' | 'warnings'>;

/**
 * An entry as the middleware hands it over: no id (it is `req_` and the seq), the duration in whole tenths of a
 * millisecond, bodies not yet masked (KeptBody). The ring copies it into its slots and lets it go.
 */
export type KeptEntry = Pick<RequestEntry, 'seq' | 'status' | 'idempotencyKey' | 'replayed' | 'ids'> & {
  head: RequestHead;
  tenths: number;
  request: KeptBody;
  answer: KeptBody;
};

// A ring keeps no object of an entry's own (see the invariants): its numbers go in a Float64Array, NUMBERS a position,
// and what is not a number in STRIDE slots of one flat array. An object kept for each request is what the request
// log cost most: V8 allocates it straight into the old generation once it sees them all survive, and the collector
// then carries every one until the ring turns.
const SEQ = 0;
const AT = 1;
const WALL = 2;
const STATUS = 3;
const TENTHS = 4;
const REPLAYED = 5;
/** An answer kept in the ring's arena: where its bytes start in the chunk its slot holds, and how many. */
const ANSWER_AT = 6;
const ANSWER_BYTES = 7;
const NUMBERS = 8;
const HEAD = 0;
const IDEMPOTENCY_KEY = 1;
const REQUEST = 2;
const ANSWER = 3;
const IDS = 4;
const STRIDE = 5;

/**
 * Where a ring keeps the text of the answers it holds: UTF-8 bytes in chunks outside the JS heap, written in the ring's
 * order. A string kept until its ring turns is what a create's entry cost most (the young generation's collector
 * copies it twice before the old one holds it); bytes in a chunk cost it nothing. A slot holds its answer's Chunk,
 * which counts the entries whose answer is in it: once none is, the chunk is written again when the one being
 * written is full. A new chunk is memory the kernel has to hand over a page at a time (about a page fault every two
 * creates, each answer carrying its QR image), and one the collector has to free again later; a turning ring so
 * allocates none. A ring holds its answers' bytes and at most two chunks more.
 */
class Chunk {
  /** Entries whose answer is in these bytes. */
  users = 0;
  constructor(readonly bytes: Buffer) {}
}
class Arena {
  private chunk: Chunk | undefined;
  /** A chunk no entry points to any more, to be written next. */
  private spare: Chunk | undefined;
  private used = 0;
  /** Where the text last put starts in its chunk, and its length in bytes. */
  at = 0;
  bytes = 0;
  /** Writes `text` (at most 64 KB: the body cap); returns the chunk it is in (see `at` and `bytes`), counting one more user. */
  put(text: string): Chunk {
    const most = text.length * 3;
    let chunk = this.chunk;
    if (!chunk || this.used + most > chunk.bytes.length) {
      // 16 KB for a ring's first answers, growing to 256 KB for a busy one.
      const size = Math.max(most, Math.min((chunk?.bytes.length ?? 8192) * 2, 256 * 1024));
      const spare = this.spare;
      this.spare = undefined;
      chunk = this.chunk = spare && spare.bytes.length >= size ? spare : new Chunk(Buffer.allocUnsafeSlow(size));
      this.used = 0;
    }
    this.at = this.used;
    this.bytes = chunk.bytes.write(text, this.used);
    this.used += this.bytes;
    chunk.users++;
    return chunk;
  }
  /** One more entry points to the bytes of `chunk` (an answer the same as the one before). */
  share(chunk: Chunk): void {
    chunk.users++;
  }
  /** An entry whose answer is in `chunk` has left the ring. */
  release(chunk: Chunk): void {
    if (--chunk.users === 0 && chunk !== this.chunk) this.spare = chunk;
  }
}

class Ring {
  private arena = new Arena();
  /** NUMBERS doubles a position; grows with the ring up to its capacity. */
  private numbers = new Float64Array(16 * NUMBERS);
  /** STRIDE slots a position, in slot order; grows (appending) on the ring's first lap. */
  private slots: unknown[] = [];
  private next = 0;
  private size = 0;
  /** The answer text of the entry before the newest, kept to tell whether the newest's is the same (see settle). */
  private lastAnswer: string | undefined;
  /** `traceIdOf`: the trace id the log gave the request of a seq. */
  constructor(
    readonly capacity: number,
    private readonly traceIdOf: (seq: number) => string,
  ) {}
  /**
   * The newest entry's answer stays in its slot as the string the app sent until the next push settles it here: into
   * the arena, or, when it is the same as the answer before (a resource polled), pointing to that one's bytes. By
   * then Node has flattened the string to write it, so telling the two apart is one comparison of flat bytes; on the
   * request's own path it cost flattening the answer once more.
   */
  private settle(newest: number): void {
    const slots = this.slots;
    const answer = slots[newest * STRIDE + ANSWER];
    if (typeof answer !== 'string') {
      this.lastAnswer = undefined;
      return;
    }
    const before = this.previous(newest);
    const n = this.numbers;
    const i = newest * NUMBERS;
    const head = slots[newest * STRIDE + HEAD] as RequestHead;
    const headBefore = slots[before * STRIDE + HEAD] as RequestHead;
    if (this.size > 1 && answer === this.lastAnswer && (head === headBefore || head.path === headBefore.path)) {
      const shared = slots[before * STRIDE + ANSWER] as Chunk;
      this.arena.share(shared);
      slots[newest * STRIDE + ANSWER] = shared;
      n[i + ANSWER_AT] = n[before * NUMBERS + ANSWER_AT]!;
      n[i + ANSWER_BYTES] = n[before * NUMBERS + ANSWER_BYTES]!;
    } else {
      slots[newest * STRIDE + ANSWER] = this.arena.put(answer);
      n[i + ANSWER_AT] = this.arena.at;
      n[i + ANSWER_BYTES] = this.arena.bytes;
    }
    this.lastAnswer = answer;
  }
  push(e: KeptEntry, atMs: number, wallMs: number): void {
    const slots = this.slots;
    // An app polling one resource shares (see settle) the answer of the entry before while it has not changed. A ring
    // of one holds no entry to share an answer with: its one answer stays the string it was sent as.
    if (this.size > 0 && this.capacity > 1) this.settle(this.previous(this.next));
    if ((this.next + 1) * NUMBERS > this.numbers.length) {
      const grown = new Float64Array(Math.min(this.numbers.length * 2, this.capacity * NUMBERS));
      grown.set(this.numbers);
      this.numbers = grown;
    }
    const n = this.numbers;
    const i = this.next * NUMBERS;
    n[i + SEQ] = e.seq;
    n[i + AT] = atMs;
    n[i + WALL] = wallMs;
    n[i + STATUS] = e.status;
    n[i + TENTHS] = e.tenths;
    n[i + REPLAYED] = e.replayed ? 1 : 0;
    const at = this.next * STRIDE;
    // What the entry this one replaces kept of its answer: its chunk has one user fewer.
    const leaving = this.size === this.capacity ? slots[at + ANSWER] : undefined;
    if (leaving instanceof Chunk) this.arena.release(leaving);
    slots[at + HEAD] = e.head;
    slots[at + IDEMPOTENCY_KEY] = e.idempotencyKey;
    slots[at + REQUEST] = e.request;
    slots[at + ANSWER] = e.answer;
    slots[at + IDS] = e.ids;
    if (++this.next === this.capacity) this.next = 0;
    if (this.size < this.capacity) this.size++;
  }
  /** The position before `position` (a modulo is a division, the costliest instruction of a push). */
  private previous(position: number): number {
    return position === 0 ? this.capacity - 1 : position - 1;
  }
  /** The answer of the entry at `position` as the middleware gave it (its text back from the arena). */
  private answerAt(position: number): KeptBody {
    const answer = this.slots[position * STRIDE + ANSWER];
    // The newest entry's answer is still the string the app sent (see settle), or a body that is not kept as bytes.
    if (!(answer instanceof Chunk)) return answer as KeptBody;
    const at = this.numbers[position * NUMBERS + ANSWER_AT]!;
    const bytes = this.numbers[position * NUMBERS + ANSWER_BYTES]!;
    return { kind: 'raw', contentType: 'application/json', size: bytes, text: answer.bytes.toString('utf8', at, at + bytes), valid: true };
  }
  seqAt(position: number): number {
    return this.numbers[position * NUMBERS + SEQ]!;
  }
  /** The entry at `position`, built now (its bodies masked). */
  at(position: number): RequestEntry {
    const n = this.numbers;
    const i = position * NUMBERS;
    const s = this.slots;
    const at = position * STRIDE;
    const head = s[at + HEAD] as RequestHead;
    return {
      id: requestIdOf(n[i + SEQ]!),
      seq: n[i + SEQ]!,
      atMs: n[i + AT]!,
      wallMs: n[i + WALL]!,
      face: head.face,
      method: head.method,
      path: head.path,
      query: maskedQuery(head.query),
      status: n[i + STATUS]!,
      durationMs: n[i + TENTHS]! / 10,
      accountId: head.accountId,
      credentialId: head.credentialId,
      idempotencyKey: s[at + IDEMPOTENCY_KEY] as string | null,
      replayed: n[i + REPLAYED] === 1,
      traceId: this.traceIdOf(n[i + SEQ]!),
      headers: head.headers,
      request: loggedBody(s[at + REQUEST] as KeptBody),
      answer: loggedBody(this.answerAt(position)),
      ids: s[at + IDS] as string[],
      warnings: head.warnings,
    };
  }
  /** Whether the entry at `position` passes `f`. */
  matches(position: number, f: RequestFilter): boolean {
    const head = this.slots[position * STRIDE + HEAD] as RequestHead;
    if (f.face !== undefined && head.face !== f.face) return false;
    if (f.method !== undefined && head.method !== f.method) return false;
    if (f.path !== undefined && !head.path.startsWith(f.path)) return false;
    if (f.sinceMs !== undefined && this.numbers[position * NUMBERS + AT]! < f.sinceMs) return false;
    if (f.status !== undefined) {
      const status = this.numbers[position * NUMBERS + STATUS]!;
      if (f.status === 'failed') return status >= 400;
      if (f.status.endsWith('xx')) return Math.floor(status / 100) === Number(f.status[0]);
      return status === Number(f.status);
    }
    return true;
  }
  /**
   * Where the entry of sequence number `seq` is, if this ring holds it: a binary search, the ring being in seq order but
   * for a request answered after later ones (a write waiting for the disk), then a scan from the newest.
   */
  positionOf(seq: number): number | undefined {
    let lo = 0;
    let hi = this.size - 1; // positions from the oldest
    const oldest = (this.next - this.size + this.capacity) % this.capacity;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const position = (oldest + mid) % this.capacity;
      const s = this.seqAt(position);
      if (s === seq) return position;
      if (s < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    for (const position of this.newest()) if (this.seqAt(position) === seq) return position;
    return undefined;
  }
  /** Positions, newest first. */
  *newest(): Generator<number> {
    for (let i = 1; i <= this.size; i++) yield (this.next - i + this.capacity) % this.capacity;
  }
  get length() {
    return this.size;
  }
}

export interface RequestLog {
  readonly capacity: number;
  /** The next entry's id and seq (taken when the request starts, so entries are ordered by arrival). */
  nextSeq(): number;
  /** The trace id of the request of `seq` (its X-Trace-Id): see traceIds. */
  traceIdOf(seq: number): string;
  /**
   * Keeps `entry` under its account (one that exists: the caller has looked it up, and names none for a request that
   * deleted its account or came after) and, if `sandboxWide` or it names no account, in the sandbox ring. False when
   * the log is off.
   */
  record(entry: KeptEntry, atMs: number, wallMs: number, sandboxWide: boolean): boolean;
  /** The entry of an id (req_42), or of the trace id the log gave its request. */
  get(id: string): RequestEntry | undefined;
  /** The entries of an account (null: the sandbox ring), newest first, filtered, `limit` after the `cursor` entry. */
  list(accountId: string | null, filter: RequestFilter, page: { limit: number; cursor?: string }): { items: RequestEntry[]; nextCursor: string | null };
  forgetAccount(accountId: string): void;
  clear(): void;
  /** Entries held, every ring together (each entry once). A method, not a getter (lib/objects.ts, Writable, says why). */
  held(): number;
}

export const requestIdOf = (seq: number) => `req_${seq}`;
const seqOf = (id: string) => (/^req_(\d{1,15})$/.test(id) ? Number(id.slice(4)) : undefined);

/**
 * A request's trace id (X-Trace-Id, an error's traceId) is a UUID in the version 4 layout: 74 random bits drawn when
 * the log is made, then the request's seq in the last 12 hex digits. So an entry keeps no trace id, and nothing parses
 * one back: it is made again from the seq when the entry is read. (Kept as a string until the ring turns, a trace id
 * per read was what the young generation's collector had to copy most; parsed into numbers, it cost a read more than
 * the rest of its entry.) Trace ids differ across sandboxes and restarts by the random part, within one by the seq.
 */
function traceIds(): { of: (seq: number) => string; seqOf: (traceId: string) => number | undefined } {
  const hex = randomBytes(10).toString('hex');
  const prefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[Number.parseInt(hex[16]!, 16) & 3]}${hex.slice(17, 20)}-`;
  return {
    of: (seq) => prefix + seq.toString(16).padStart(12, '0'),
    seqOf: (traceId) => (traceId.length === 36 && traceId.startsWith(prefix) && /^[0-9a-f]{12}$/.test(traceId.slice(24)) ? Number.parseInt(traceId.slice(24), 16) : undefined),
  };
}

export function createRequestLog(capacity = DEFAULT_REQUEST_LOG_SIZE): RequestLog {
  let seq = 0;
  const traces = traceIds();
  const traceIdOf = traces.of;
  let rings = new Map<string, Ring>();
  let sandbox = new Ring(Math.max(capacity, 1), traceIdOf);
  // The ring written last: an app's requests come one account after another, and this skips the map's look-up.
  let lastAccountId: string | undefined;
  let lastRing: Ring | undefined;
  return {
    capacity,
    nextSeq: () => ++seq,
    traceIdOf,
    record(entry, atMs, wallMs, sandboxWide) {
      if (capacity === 0) return false;
      const { accountId } = entry.head;
      if (accountId !== null) {
        let ring = accountId === lastAccountId ? lastRing : rings.get(accountId);
        if (!ring) rings.set(accountId, (ring = new Ring(capacity, traceIdOf)));
        lastAccountId = accountId;
        lastRing = ring;
        ring.push(entry, atMs, wallMs);
      }
      if (sandboxWide || accountId === null) sandbox.push(entry, atMs, wallMs);
      return true;
    },
    get(id) {
      const at = seqOf(id) ?? traces.seqOf(id);
      if (at === undefined) return undefined;
      for (const ring of [sandbox, ...rings.values()]) {
        const position = ring.positionOf(at);
        if (position !== undefined) return ring.at(position);
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
        // A page goes on after the entry its cursor names while the ring holds it (newest first is the order requests
        // were answered in), else from the first entry older than it.
        const after = cursor === undefined ? undefined : ring.positionOf(before);
        let onward = after === undefined;
        for (const position of ring.newest()) {
          if (!onward) {
            onward = position === after;
            continue;
          }
          if ((after === undefined && ring.seqAt(position) >= before) || !ring.matches(position, filter)) continue;
          if (items.length === limit) {
            more = true;
            break;
          }
          items.push(ring.at(position));
        }
      }
      return { items, nextCursor: more ? items[items.length - 1]!.id : null };
    },
    forgetAccount(accountId) {
      rings.delete(accountId);
      lastAccountId = lastRing = undefined;
    },
    clear() {
      lastAccountId = lastRing = undefined;
      rings = new Map();
      sandbox = new Ring(Math.max(capacity, 1), traceIdOf);
    },
    held() {
      const seqs = new Set<number>();
      for (const ring of [sandbox, ...rings.values()]) for (const position of ring.newest()) seqs.add(ring.seqAt(position));
      return seqs.size;
    },
  };
}
