// Records each request to the faces and the control API in the request log (services/request-log.ts, sandbox.md 14).
// The app's first middleware calls it (app.ts), so it sees the answer every layer made (errors, faults, a failed commit,
// a refused Host). Per request it costs a few property reads and one pass over the request's headers: bodies are the
// strings the body middleware read and the route answered (never serialised again; a body over the cap is not looked
// at) and the query are kept as they are: the log masks them when an entry is read.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Context } from 'hono';
import type { Deps } from '../../deps';
import { nowOf } from '../../services/clocks';
import { isoTime } from '../../lib/iso';
import { credentialOfClientId, findApiKey } from '../../services/secrets';
import { requestIdOf, type KeptBody, type KeptEntry, type RequestFace, type RequestHead, type RequestLog } from '../../services/request-log';
import { MASK } from '../../services/request-mask';
import type { Caller } from '../env';
import { JSON_TYPE, parsedBody, parsedText } from './body';

export const DEFAULT_BODY_CAP = 64 * 1024;
/** The control API's own reads that would only log themselves: the log, the stream, the console's fragment, health. */
const UNLOGGED_CONTROL = /^\/_sandbox\/(?:stream|console|health|requests(?:\/|$)|accounts\/[^/]+\/requests$)/;

const SLASH = 47;
const LOWER_V = 118;
const DIGIT_ONE = 49;
const DIGIT_TWO = 50;

/**
 * The versioned face a path is on: '/v1' or '/v2', the path itself or one under it. Told by characters: `startsWith`
 * on a request's path (a slice of its URL) ran some 220 instructions a call.
 */
function versionedFaceOf(path: string): 'v1' | 'v2' | undefined {
  if (path.charCodeAt(1) !== LOWER_V || (path.length !== 3 && path.charCodeAt(3) !== SLASH)) return undefined;
  const digit = path.charCodeAt(2);
  return digit === DIGIT_TWO ? 'v2' : digit === DIGIT_ONE ? 'v1' : undefined;
}

/** The face a path is on, undefined when the log keeps no such request. */
function faceOf(path: string): RequestFace | undefined {
  const versioned = versionedFaceOf(path);
  if (versioned) return versioned;
  if (path.startsWith('/api-pix/') || path === '/api-pix') return 'api-pix';
  if (path.startsWith('/_sandbox/') && !UNLOGGED_CONTROL.test(path)) return 'control';
  return undefined;
}

/**
 * A Content-Type header's media type, lower-case, without parameters, and whether it is JSON: one per distinct header,
 * so that the entries a ring holds share the string (each string an entry keeps is one more object for the collector
 * to copy) and a request tests no pattern.
 */
type Media = { type: string; json: boolean };
const mediaTypes = new Map<string, Media>();
const JSON_MEDIA: Media = { type: 'application/json', json: true };
function mediaOf(contentType: string): Media {
  // What the app's own answers carry, without a look-up.
  if (contentType === 'application/json') return JSON_MEDIA;
  let media = mediaTypes.get(contentType);
  if (media === undefined) {
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    media = { type, json: JSON_TYPE.test(type) };
    if (mediaTypes.size < 64) mediaTypes.set(contentType, media);
  }
  return media;
}

/**
 * A body as the log keeps it: JSON under the cap as it was sent, else its size and type. Nothing is masked or measured
 * here (the log does both when the entry is read): `size` -1 is not known yet, `valid` says the text is known to parse.
 */
function keptBody(contentType: string, text: string | undefined, size: number, cap: number, valid: boolean): KeptBody {
  // No bytes, told by the length or by the text read (a bodiless request without a Content-Length).
  if ((size === 0 && !text) || text === '') return NONE;
  const { type, json } = mediaOf(contentType);
  // A text of more than a third of the cap in characters may be over it in bytes.
  if (size > cap || (size < 0 && text !== undefined && text.length * 3 > cap && (size = Buffer.byteLength(text)) > cap)) return { kind: 'omitted', contentType: type || 'none', size, reason: `over the ${Math.round(cap / 1024)} KB cap` };
  if (!json || text === undefined) return { kind: 'omitted', contentType: type || 'none', size: size < 0 && text !== undefined ? Buffer.byteLength(text) : size, reason: json ? 'not read' : 'not JSON' };
  return valid && type === 'application/json' && size < 0 ? text : { kind: 'raw', contentType: type, size, text, valid };
}

/**
 * A header of a response's headers as @hono/node-server keeps them (a record, tuples or Headers). A Headers is told by
 * its get(): `instanceof Headers` cost a read about 0.3 µs (Node's Headers is a global behind a getter).
 */
function headerIn(headers: unknown, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  if (Array.isArray(headers)) return (headers as [string, string][]).find(([k]) => k.toLowerCase() === name)?.[1];
  const record = headers as Record<string, string>;
  if (name in record) return record[name];
  // The routes write these names capitalised: found without a lower-cased copy of every key.
  const titled = TITLED[name];
  if (titled !== undefined && titled in record) return record[titled];
  for (const k in record) if (k.toLowerCase() === name) return record[k];
  return undefined;
}
const TITLED: Record<string, string> = { 'content-type': 'Content-Type', location: 'Location', 'idempotent-replayed': 'Idempotent-Replayed' };

let nodeCacheKey: symbol | null | undefined;
/** What @hono/node-server's lightweight Response keeps under a symbol: [status, body, headers]. */
type NodeCache = [number, unknown, unknown];
/** The NodeCache of an answer made on a real port: read without building a Response. */
function nodeCache(res: Response): NodeCache | undefined {
  if (nodeCacheKey === undefined) {
    const key = Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
    if (key) nodeCacheKey = key;
    else return undefined;
  }
  return nodeCacheKey ? ((res as unknown as Record<symbol, NodeCache>)[nodeCacheKey] ?? undefined) : undefined;
}

/** `headers`: where the answer's headers are, as headerIn reads them. */
type AnswerParts = { status: number; type: string; text: string | undefined; size: number; headers: unknown };

/** The answer's body text (JSON under the cap only), content type and the headers the log reads, of an answer on a real port. */
function cachedParts([status, body, headers]: NodeCache, cap: number): AnswerParts {
  const type = headerIn(headers, 'content-type') ?? (body === null ? '' : 'text/plain');
  if (typeof body === 'string') return body.length > cap ? { status, type, text: undefined, size: Buffer.byteLength(body), headers } : { status, type, text: body, size: -1, headers };
  if (body instanceof Uint8Array) return { status, type, text: undefined, size: body.byteLength, headers };
  return { status, type, text: undefined, size: body === null ? 0 : -1, headers };
}

/** The same of an answer in process (a WHATWG Response): its body read from a clone. */
async function answerPartsOf(res: Response, cap: number): Promise<AnswerParts> {
  const { headers, status } = res;
  const type = headers.get('content-type') ?? '';
  if (res.body === null) return { status, type, text: undefined, size: 0, headers };
  const length = headers.get('content-length') ?? undefined;
  if (!mediaOf(type).json || (length !== undefined && Number(length) > cap)) return { status, type, text: undefined, size: length === undefined ? -1 : Number(length), headers };
  const text = await res.clone().text();
  return text.length > cap ? { status, type, text: undefined, size: Buffer.byteLength(text), headers } : { status, type, text, size: -1, headers };
}

/**
 * The request body's text: what the JSON body middleware parsed (at once), else what another body reader cached, or
 * read now when nothing read it.
 */
function requestText(c: Context, size: number, cap: number): string | undefined | Promise<string | undefined> {
  if (size > cap) return undefined;
  return parsedText(c.req) ?? cachedText(c);
}
async function cachedText(c: Context): Promise<string | undefined> {
  const cache = c.req.bodyCache as { text?: Promise<string>; json?: Promise<unknown> };
  try {
    if (cache.text) return await cache.text;
    if (cache.json) return JSON.stringify(await cache.json);
    if (c.req.raw.bodyUsed) return undefined;
    return await c.req.text();
  } catch {
    return undefined;
  }
}

const NO_WARNINGS: string[] = [];
const NO_IDS: string[] = [];
const NO_HEADERS: string[] = [];
const NONE: KeptBody = { kind: 'none' };

const FIRST_ID = /^\s*\{\s*"(?:id|txid)"\s*:\s*"([^"\\]{1,120})"/;
const TXID = /"txid"\s*:\s*"([^"\\]{1,120})"/;
/** How the app's own answers to a change start (JSON.stringify of a resource whose first field is its id). */
const ID_FIELD = '{"id":"';

/** An answer's own id: its first field (id, or txid on API Pix), else its txid on API Pix. */
function ownIdOf(face: RequestFace, text: string): string | undefined {
  // The app's own answers (a create's starts with its id) are read without a pattern: the same id FIRST_ID matches.
  if (text.startsWith(ID_FIELD)) {
    const end = text.indexOf('"', ID_FIELD.length);
    const length = end - ID_FIELD.length;
    if (length >= 1 && length <= 120 && text.lastIndexOf('\\', end) < ID_FIELD.length) return text.slice(ID_FIELD.length, end);
  }
  return (FIRST_ID.exec(text) ?? (face === 'api-pix' ? TXID.exec(text) : null))?.[1];
}

/** Ids a 2xx answer to a change names: its own id (see ownIdOf) and its Location's last segment. A read changes nothing. */
function idsOf(face: RequestFace, method: string, status: number, text: string | undefined, headers: unknown): string[] {
  if (status < 200 || status > 299 || method === 'GET' || method === 'HEAD') return NO_IDS;
  const ids: string[] = [];
  const own = text && ownIdOf(face, text);
  // A copy: the id is a slice of the answer, and would keep all of it alive as long as the entry.
  if (own) ids.push(` ${own}`.slice(1));
  const location = headerIn(headers, 'location');
  if (location !== undefined) {
    const query = location.indexOf('?');
    const end = query < 0 ? location.length : query;
    const last = location.slice(location.lastIndexOf('/', end - 1) + 1, end);
    if (last && last !== ids[0]) {
      const decoded = decodeURIComponent(last);
      if (decoded !== ids[0]) ids.push(decoded);
    }
  }
  return ids.length === 0 ? NO_IDS : ids;
}

const NOT_READ = 0;
const KEPT = 1;
const SECRET = 2;
/**
 * What the log does with a request header: the headers an entry keeps, as [name, value, name, value...], are what says
 * how the request was made (type, client, idempotency, sub-account) and which credential header it carried, masked.
 * Connection-level ones (host, accept-encoding...) are left out: every entry is held until its ring turns, and each
 * kept string costs the collector. A switch: a Map's look-up cost more, on every header of every request.
 */
function headerRole(name: string): number {
  switch (name) {
    case 'content-type':
    case 'accept':
    case 'user-agent':
    case 'idempotency-key':
    case 'x-sub-account':
    case 'origin':
      return KEPT;
    case 'authorization':
    case 'proxy-authorization':
    case 'x-api-key':
    case 'x-sandbox-token':
    case 'cookie':
      return SECRET;
    default:
      return NOT_READ;
  }
}

type SentHeaders = { kept: string[]; idempotencyKey: string | null; contentType: string };

/**
 * What the log reads of a request's headers, in one pass over them: on a real port over Node's own parsed record (a
 * WHATWG Headers' get() costs about a microsecond a name, and a look-up by name in the record, one per header the log
 * might keep, costs more than the pass), in process over a record of hono's. An app sends the same headers request
 * after request: while they are those of the list kept last (`memo`), that list is the request's too (entries never
 * change a list), and no list is built.
 */
function sentHeaders(record: IncomingHttpHeaders, memo: { last: string[] }): SentHeaders {
  const sent: SentHeaders = { kept: memo.last, idempotencyKey: null, contentType: '' };
  const last = memo.last;
  // The list being built once a header differs from the last; until then, how much of the last matched.
  let kept: string[] | undefined;
  let same = 0;
  for (const name in record) {
    const role = headerRole(name);
    if (role === NOT_READ) continue;
    const raw = record[name];
    if (raw === undefined) continue;
    const value = typeof raw === 'string' ? raw : raw.join(', ');
    if (name === 'idempotency-key') sent.idempotencyKey = value;
    else if (name === 'content-type') sent.contentType = value;
    const shown = role === SECRET ? MASK : value;
    if (kept === undefined) {
      if (same < last.length && last[same] === name && last[same + 1] === shown) {
        same += 2;
        continue;
      }
      kept = last.slice(0, same);
    }
    // One at a time: a push of two is a call to V8's builtin, of one inlined.
    kept.push(name);
    kept.push(shown);
  }
  if (kept === undefined && same < last.length) kept = last.slice(0, same);
  if (kept !== undefined) sent.kept = memo.last = kept;
  return sent;
}

/**
 * Whom a request no guard let through spoke for (refused before or by its guard: a body that is not JSON, a missing
 * permission): the account of its valid bearer token or API key, or of the client id it authenticated with.
 * Only what the sandbox verifies counts, so nobody can put entries into another tenant's log.
 */
async function senderOf(deps: Deps, c: Context, face: RequestFace): Promise<{ accountId: string; credentialId: string } | undefined> {
  const authorization = c.req.header('authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) {
    try {
      const claims = await deps.tokens.verify(bearer[1]!);
      return { accountId: claims.accountId, credentialId: claims.credentialId };
    } catch {
      return undefined;
    }
  }
  const apiKey = face === 'v1' ? c.req.header('x-api-key')?.trim() : undefined;
  if (apiKey) {
    const found = findApiKey(deps, apiKey);
    return found && { accountId: found.account.id, credentialId: found.apiKey.id };
  }
  let clientId: string | undefined;
  if (face === 'v2' && c.req.path === '/v2/auth') clientId = (parsedBody(c.req) as { client_id?: unknown } | undefined)?.client_id as string | undefined;
  else if (face === 'api-pix') {
    const basic = /^Basic\s+(\S+)/i.exec(authorization);
    if (basic) clientId = decodeURIComponent(Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0]!);
  }
  if (typeof clientId !== 'string') return undefined;
  const found = credentialOfClientId(deps, clientId);
  return found && { accountId: found.account.id, credentialId: found.credential.id };
}

type Sender = { accountId: string; credentialId: string | null } | undefined;

/** What the app's first middleware calls to log a request (app.ts), which numbers every request as it starts. */
export interface RequestRecorder {
  /** The face a request is on (kept by the first middleware for record); undefined when the log keeps no such request. */
  faceOf(path: string): RequestFace | undefined;
  /**
   * Records the request of number `seq` (`face` from faceOf; `started` on performance.now()) once `c` has the answer
   * every layer made. When all its entry needs is at hand (most requests on a real port), the entry is kept at once.
   * Else it is kept after one wait for all that has to be waited for (who sent a request no guard let through, a body
   * no JSON middleware read, an answer in process), as a promise the answer waits for. Either way the entry is in the
   * log before anything can ask for it.
   */
  record(c: Context, face: RequestFace, seq: number, started: number): void | Promise<void>;
}

/**
 * The request log's recorder. Not a middleware of its own: each of Hono's layers, or a wrapper around one, costs a
 * request about as much as the log's work does (an async dispatch, a closure, a promise and its reaction). The app's
 * first middleware calls it instead, and answers what it throws itself (a Host the doors refuse) before it records,
 * as Hono would have; what a later layer throws Hono has already answered. `warningsOf` reads what the request's
 * checks warned (wire/validate.ts).
 */
export function requestRecorder(deps: Deps, log: RequestLog, warningsOf: (c: Context) => string[] | undefined, cap = DEFAULT_BODY_CAP): RequestRecorder {
  const headerMemo = { last: NO_HEADERS };
  /** The head of the entry kept last (see RequestHead): the next entry's too while nothing in it changes. */
  let lastHead: RequestHead = { face: 'control', method: '', path: '', query: '', accountId: null, credentialId: null, headers: NO_HEADERS, warnings: NO_WARNINGS };

  function record(c: Context, face: RequestFace, seq: number, started: number): void | Promise<void> {
    const tenths = Math.round((performance.now() - started) * 10);
    try {
      const req = c.req;
      const caller = c.get('caller') as (Caller & { apiKeyId?: string }) | undefined;
      const sender: Sender | Promise<Sender> = caller ? { accountId: caller.account.id, credentialId: caller.credential?.id ?? caller.apiKeyId ?? null } : face === 'control' ? undefined : senderOf(deps, c, face);
      const headers = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.headers ?? (Object.fromEntries(req.raw.headers) as IncomingHttpHeaders);
      const sent = sentHeaders(headers, headerMemo);
      // The request's body: its size (-1 not known) and text, or none (NaN).
      let size = NaN;
      let text: string | undefined | Promise<string | undefined>;
      const method = req.method;
      if (method !== 'GET' && method !== 'HEAD') {
        const declared = headers['content-length'];
        const length = declared === undefined ? -1 : Number(declared);
        const cached = req.bodyCache as { text?: unknown; json?: unknown };
        // In process a Request carries no Content-Length: whether it has a body is asked of it then.
        if (length > 0 || (length < 0 && (cached.text !== undefined || cached.json !== undefined || req.raw.body !== null))) {
          size = length;
          // Another type is not kept, but its size is told: from the text a body reader already read, if one did.
          if (mediaOf(sent.contentType).json || (length < 0 && cached.text !== undefined)) text = requestText(c, length, cap);
        }
      }
      const res = c.res;
      const cache = nodeCache(res);
      const answer = cache ? cachedParts(cache, cap) : answerPartsOf(res, cap);
      // All the entry needs is at hand on a real port (the answer Node's own) when who sent it is known and its body
      // was read by the JSON middleware, or it has none; else it is kept after one wait, which the answer waits for.
      if (sender instanceof Promise || text instanceof Promise || answer instanceof Promise) {
        return Promise.all([sender, text, answer]).then(
          ([s, t, a]) => keep(c, face, seq, tenths, s, sent, size, t, a),
          (err) => failed(c, err),
        );
      }
      keep(c, face, seq, tenths, sender, sent, size, text, answer);
    } catch (err) {
      failed(c, err);
    }
  }
  // The log must never change an answer.
  const failed = (c: Context, err: unknown) => deps.log(`request log: could not record ${c.req.method} ${c.req.path}: ${(err as Error)?.stack ?? String(err)}`);

  /** Builds the entry and hands it to the log. `size`: of the request's body, -1 not known, NaN no body. */
  function keep(c: Context, face: RequestFace, seq: number, tenths: number, sender: Sender, sent: SentHeaders, size: number, text: string | undefined, answer: AnswerParts): void {
    try {
      const req = c.req;
      const { method, path } = req;
      const { status } = answer;
      let accountId: string | null = null;
      let credentialId: string | null = null;
      if (sender) ({ accountId, credentialId } = sender);
      else if (face === 'control') {
        // Whom the control API's guard found the request names, before its route ran (control/principal.ts); a
        // request refused before the guard (a body that is not JSON, a Host the doors refuse) names none.
        const named = c.get('controlAccount') as string | null | undefined;
        if (named) accountId = named;
        // POST /_sandbox/accounts: the account it made.
        else if (path === '/_sandbox/accounts' && status === 201) accountId = c.res.headers.get('location')?.split('/').pop() ?? null;
      }
      const account = accountId === null ? undefined : deps.store.findAccount(accountId);
      // One reading of real time for both clocks (a clock read costs about 0.1 µs on a VM).
      const wallMs = deps.clock.realMs();
      const atMs = account ? nowOf(deps, account, wallMs) : deps.clock.at(wallMs);
      // A request that deleted its account (or came after) starts no ring for it.
      if (!account) accountId = null;
      // Kept as sent: the log masks it when the entry is read, as it does a body.
      const url = req.url;
      const at = url.indexOf('?');
      const query = at < 0 ? '' : url.slice(at);
      const headers = sent.kept;
      const warnings = warningsOf(c) ?? NO_WARNINGS;
      let head = lastHead;
      if (head.path !== path || head.accountId !== accountId || head.credentialId !== credentialId || head.method !== method || head.face !== face || head.query !== query || head.headers !== headers || head.warnings !== warnings) {
        head = lastHead = { face, method, path, query, accountId, credentialId, headers, warnings };
      }
      const { idempotencyKey } = sent;
      const entry: KeptEntry = {
        seq,
        status,
        tenths,
        head,
        idempotencyKey,
        // Only a request with a key can be a replay: the header is not looked for otherwise.
        replayed: idempotencyKey !== null && headerIn(answer.headers, 'idempotent-replayed') === 'true',
        request: Number.isNaN(size) ? NONE : keptBody(sent.contentType, text, size, cap, parsedBody(req) !== undefined),
        // The app's own JSON answers are JSON: not parsed again to know it.
        answer: keptBody(answer.type, answer.text, answer.size, cap, true),
        ids: idsOf(face, method, status, answer.text, answer.headers),
      };
      // The stream's news of it, built only when something listens (the console, a test kit's stream).
      if (log.record(entry, atMs, wallMs, face === 'control') && deps.bus.listeners > 0) {
        const news = { kind: 'request', id: requestIdOf(seq), face, method, path, status, durationMs: tenths / 10, at: isoTime(atMs) } as const;
        deps.bus.publish(accountId === null ? news : { ...news, accountId });
      }
    } catch (err) {
      failed(c, err);
    }
  }

  return { faceOf, record };
}
