// How a delivery attempt's POST goes out. By default over keep-alive connections of the sandbox's own: a small HTTP/1.1
// client on node:net for http:// URLs (below), node:https's agent for https:// ones (and node:http's for a URL with
// credentials in it). Node's fetch (undici's WHATWG layer: Request, Headers, web streams for both bodies) cost about
// four times the CPU of node:http per delivery, and node:http three times that client's. A fetch given to
// createSandbox({ fetch }) is used as given (tests count, hold or fake attempts with it). Either way an attempt is one
// request: nothing is retried here (retries are the dispatcher's, on the sandbox clock), redirects are never followed,
// and only the first RESPONSE_SNIPPET bytes of an answer are read before the connection is let go. What cuts an
// attempt short (its time-out, the sandbox closing) is a Stop, not an AbortSignal: an AbortController, its EventTarget
// and the listener node:http adds to the signal cost about as much per delivery as the request's own head. Each URL is
// parsed once (the last URL_CACHE of them kept), not at every attempt.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { urlToHttpOptions } from 'node:url';

/** How much of a receiver's answer the delivery log keeps (sandbox.md 5: the response's first 2 KB). */
export const RESPONSE_SNIPPET = 2048;

/** What came back, as soon as the status line and headers are in; `text()` reads the body's first bytes and never rejects. */
export interface Answer {
  status: number;
  location: string | null;
  text(): Promise<string>;
}

/**
 * What cuts an attempt short, once: stop(reason) calls what was registered with onStop (at once when already stopped).
 * The reason is kept for the attempt to tell a time-out from a close.
 */
export class Stop {
  stopped = false;
  reason: unknown = undefined;
  #listeners: Array<(reason: unknown) => void> | undefined;
  stop(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
  }
  onStop(listener: (reason: unknown) => void): void {
    if (this.stopped) listener(this.reason);
    else (this.#listeners ??= []).push(listener);
  }
}

/** Sends one POST; rejects when no HTTP answer came (the error's `code` or `cause.code` says why) or `stop` was called. */
export type Post = (url: string, headers: Record<string, string>, body: string, stop: Stop) => Promise<Answer>;

/** The fetch of createSandbox() when none is given: looked up at the first call, so start-up does not load undici. */
export const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/** A Post over an injected fetch. */
export function postWithFetch(fetchFn: typeof fetch): Post {
  return async (url, headers, body, stop) => {
    const controller = new AbortController();
    stop.onStop((reason) => controller.abort(reason));
    const res = await fetchFn(url, { method: 'POST', headers, body, redirect: 'manual', signal: controller.signal });
    return { status: res.status, location: res.headers.get('location'), text: () => snippet(res) };
  };
}

/** Up to RESPONSE_SNIPPET bytes of a fetch Response's body, then lets the connection go. Never throws. */
async function snippet(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_SNIPPET) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    /* a body cut short is still an answer: keep what came */
  } finally {
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET).toString('utf8');
}

/** The first bytes of a node:http answer; a longer body is cut off by closing its connection. Never rejects. */
function readSnippet(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET).toString('utf8'));
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_SNIPPET) {
        res.destroy(); // the rest is not read: this connection is not reused
        done();
      }
    });
    res.on('end', done);
    res.on('error', done); // a body cut short is still an answer: keep what came
    res.on('close', done);
  });
}

/**
 * How long a socket of the plain client waits idle for the next attempt: below the 5 s a Node server keeps an idle
 * connection, so that the receiver does not close it under an attempt (a receiver's Keep-Alive: timeout=N hint,
 * less 1 s, when shorter).
 */
const IDLE_MS = 4_000;
/** How many parsed URLs postWithHttp keeps (a CI suite's endpoints; past that the cache starts again). */
const URL_CACHE = 256;

/** A Post over node:http(s) with keep-alive agents of its own (at most `sockets` per host); close() drops their sockets. */
export function postWithHttp(sockets: number): { post: Post; close(): void } {
  const http = new HttpAgent({ keepAlive: true, maxSockets: sockets });
  let https: Promise<{ agent: HttpsAgent; request: typeof httpRequest }> | undefined;
  let httpsAgent: HttpsAgent | undefined;
  const httpsRequest = () =>
    (https ??= import('node:https').then((m) => ({ agent: (httpsAgent = new m.Agent({ keepAlive: true, maxSockets: sockets })), request: m.request as typeof httpRequest })));
  const plain = rawHttp(sockets, IDLE_MS);
  /** Each URL's request options (host, port, path...), as node:http would read them from the URL at every request. */
  const targets = new Map<string, { secure: boolean; options: RequestOptions; raw?: Target }>();
  const targetOf = (url: string) => {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      const options = urlToHttpOptions(parsed) as RequestOptions;
      const raw =
        parsed.protocol === 'http:' && !parsed.username && !parsed.password
          ? { host: options.hostname!, port: Number(parsed.port || 80), authority: parsed.host, path: `${parsed.pathname || '/'}${parsed.search}` }
          : undefined;
      target = { secure: parsed.protocol === 'https:', options, ...(raw ? { raw } : {}) };
      if (targets.size >= URL_CACHE) targets.clear();
      targets.set(url, target);
    }
    return target;
  };
  const send = (request: typeof httpRequest, agent: HttpAgent, options: RequestOptions, headers: Record<string, string>, body: string, stop: Stop) =>
    new Promise<Answer>((resolve, reject) => {
      if (stop.stopped) return reject(stop.reason);
      const req = request({ ...options, method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent });
      stop.onStop((reason) => req.destroy(reason instanceof Error ? reason : new Error(String(reason))));
      req.once('response', (res) => {
        const text = readSnippet(res);
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, text: () => text });
      });
      req.on('error', reject);
      req.end(body);
    });
  const post: Post = (url, headers, body, stop) => {
    let target: { secure: boolean; options: RequestOptions; raw?: Target };
    try {
      target = targetOf(url);
    } catch (err) {
      return Promise.reject(err);
    }
    if (target.raw) return plain.post(target.raw, headers, body, stop);
    if (!target.secure) return send(httpRequest, http, target.options, headers, body, stop);
    return httpsRequest().then(({ agent, request }) => send(request, agent, target.options, headers, body, stop));
  };
  return {
    post,
    close() {
      plain.close();
      http.destroy();
      httpsAgent?.destroy();
    },
  };
}

// A plain http:// attempt goes over a client of our own on node:net: the request (head and body) is one write of one
// string, and the answer is read as far as its status, Location and the body's first RESPONSE_SNIPPET bytes need,
// with its length (Content-Length, chunked, or the connection's end) known so that a socket can carry the next
// attempt. node:http's ClientRequest, agent and parser cost about three times its CPU per delivery (a micro-bench: 194
// against 60 us), and a delivery is little more than that. Failures read as node:http's did: the socket's own errors
// (ECONNREFUSED, ECONNRESET...), `socket hang up` (ECONNRESET) when the connection ends before an answer, and an
// HPE_ code for an answer that is not HTTP. URLs with credentials in them go through node:http.

/** Header names (RFC 9110 tokens) and values (no CR, LF or NUL) that may be written as they are. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSAFE_VALUE = /[\r\n\0]/;
/** The most of an answer's head that is read; more is an error, as in node:http. */
const MAX_HEAD = 16 * 1024;

const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

interface Target {
  host: string;
  port: number;
  /** `host[:port]` for the Host header. */
  authority: string;
  path: string;
}

/** One origin's sockets: idle ones, how many exist, and the attempts waiting for one. */
interface Pool {
  idle: Socket[];
  open: number;
  waiting: Array<(socket: Socket | Error) => void>;
}

function rawHttp(sockets: number, idleMs: number) {
  const pools = new Map<string, Pool>();
  let closed = false;

  const poolOf = (t: Target) => {
    const key = `${t.host}:${t.port}`;
    let pool = pools.get(key);
    if (!pool) pools.set(key, (pool = { idle: [], open: 0, waiting: [] }));
    return pool;
  };
  /** A socket leaves its pool for good (closed, or not to be used again). */
  const drop = (pool: Pool, socket: Socket) => {
    const i = pool.idle.indexOf(socket);
    if (i >= 0) pool.idle.splice(i, 1);
    if (!(socket as Socket & { dropped?: boolean }).dropped) {
      (socket as Socket & { dropped?: boolean }).dropped = true;
      pool.open--;
      socket.destroy();
    }
  };
  const connectTo = (t: Target, pool: Pool): Socket => {
    pool.open++;
    const socket = netConnect({ host: t.host, port: t.port, noDelay: true });
    socket.on('close', () => drop(pool, socket));
    socket.on('error', () => {}); // each attempt listens for its own; an idle socket's error only closes it
    socket.on('timeout', () => drop(pool, socket)); // idle too long: the receiver may close it under the next attempt
    return socket;
  };
  const acquire = (t: Target, pool: Pool): Promise<Socket> => {
    for (let s = pool.idle.pop(); s; s = pool.idle.pop()) {
      if (!s.destroyed) {
        s.setTimeout(0);
        s.ref();
        return Promise.resolve(s);
      }
    }
    if (pool.open < sockets) return Promise.resolve(connectTo(t, pool));
    return new Promise((resolve, reject) => pool.waiting.push((s) => (s instanceof Error ? reject(s) : resolve(s))));
  };
  /** An attempt is done with `socket`: the next waiting attempt takes it (or a new one), else it idles. */
  const release = (t: Target, pool: Pool, socket: Socket, reusable: boolean, idle = idleMs) => {
    if (!reusable || closed) drop(pool, socket);
    const next = pool.waiting.shift();
    if (next) {
      if (reusable && !closed && !socket.destroyed) return next(socket);
      return next(closed ? failure('ECONNRESET', 'the sandbox closed') : connectTo(t, pool));
    }
    if (reusable && !closed && !socket.destroyed) {
      socket.setTimeout(idle);
      socket.unref();
      pool.idle.push(socket);
    }
  };

  const post = (t: Target, headers: Record<string, string>, body: string, stop: Stop): Promise<Answer> => {
    let head = `POST ${t.path} HTTP/1.1\r\nHost: ${t.authority}\r\n`;
    for (const name in headers) {
      const value = headers[name]!;
      if (!TOKEN.test(name) || UNSAFE_VALUE.test(value)) return Promise.reject(failure('ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`));
      head += `${name}: ${value}\r\n`;
    }
    const request = `${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`;
    const pool = poolOf(t);
    if (stop.stopped) return Promise.reject(stop.reason);
    return acquire(t, pool).then(
      (socket) =>
        new Promise<Answer>((resolve, reject) => {
          if (stop.stopped) {
            release(t, pool, socket, true);
            return reject(stop.reason);
          }
          let answered = false;
          let finish: (text: string) => void = () => {};
          const text = new Promise<string>((r) => (finish = r));
          const snippet: Buffer[] = [];
          let kept = 0;
          let pending: Buffer | null = null; // bytes not yet parsed
          let status = 0;
          let reusable = false;
          let idle = idleMs;
          /** Body framing once the head is in: bytes left (Content-Length), chunked, or to the connection's end. */
          let left = -1;
          let chunked = false;
          let chunkData = 0; // chunked: bytes of the current chunk still to come
          let crlf = 0; // chunked: bytes of the CRLF after a chunk still to come
          let ended = false;
          const done = (reuse: boolean) => {
            if (ended) return;
            ended = true;
            socket.removeListener('data', onData);
            socket.removeListener('error', onError);
            socket.removeListener('end', onEnd);
            socket.removeListener('close', onEnd);
            finish(Buffer.concat(snippet).subarray(0, RESPONSE_SNIPPET).toString('utf8'));
            release(t, pool, socket, reuse, idle);
          };
          const fail = (err: Error) => {
            if (ended) return;
            if (answered) return done(false); // a body cut short is still an answer: keep what came
            ended = true;
            socket.removeListener('data', onData);
            socket.removeListener('end', onEnd);
            socket.removeListener('close', onEnd);
            release(t, pool, socket, false);
            reject(err);
          };
          const keep = (bytes: Buffer) => {
            if (kept >= RESPONSE_SNIPPET || bytes.length === 0) return;
            snippet.push(bytes);
            kept += bytes.length;
            if (kept >= RESPONSE_SNIPPET) done(false); // the rest is not read: this connection is not reused
          };
          const onBody = (bytes: Buffer) => {
            if (!chunked) {
              if (left < 0) return keep(bytes); // to the connection's end
              const take = Math.min(left, bytes.length);
              keep(bytes.subarray(0, take));
              left -= take;
              if (left === 0) done(reusable && take === bytes.length);
              return;
            }
            let at = 0;
            while (at < bytes.length && !ended) {
              if (chunkData > 0) {
                const take = Math.min(chunkData, bytes.length - at);
                keep(bytes.subarray(at, at + take));
                chunkData -= take;
                at += take;
                if (chunkData === 0) crlf = 2;
                continue;
              }
              if (crlf > 0) {
                const skip = Math.min(crlf, bytes.length - at);
                crlf -= skip;
                at += skip;
                continue;
              }
              // A size line (its extensions ignored), possibly split across reads.
              const rest: Buffer = pending ? Buffer.concat([pending, bytes.subarray(at)]) : bytes.subarray(at);
              pending = null;
              const eol = rest.indexOf('\r\n');
              if (eol < 0) {
                if (rest.length > 1024) return fail(failure('HPE_INVALID_CHUNK_SIZE', 'Parse Error: Invalid character in chunk size'));
                pending = Buffer.from(rest);
                return;
              }
              const sizeText = rest.subarray(0, eol).toString('latin1').split(';')[0]!.trim();
              if (!/^[0-9a-fA-F]+$/.test(sizeText)) return fail(failure('HPE_INVALID_CHUNK_SIZE', 'Parse Error: Invalid character in chunk size'));
              const size = parseInt(sizeText, 16);
              // The last chunk: reused only when nothing follows but its CRLF (no trailers, nothing pipelined).
              if (size === 0) return done(reusable && rest.subarray(eol + 2).toString('latin1') === '\r\n');
              chunkData = size;
              bytes = rest;
              at = eol + 2;
            }
          };
          const onHead = (bytes: Buffer): void => {
            const all = pending ? Buffer.concat([pending, bytes]) : bytes;
            pending = null;
            const cut = all.indexOf('\r\n\r\n');
            if (cut < 0) {
              if (all.length > MAX_HEAD) return fail(failure('HPE_HEADER_OVERFLOW', 'Parse Error: Header overflow'));
              pending = Buffer.from(all);
              return;
            }
            const lines = all.subarray(0, cut).toString('latin1').split('\r\n');
            const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]!);
            if (!m) return fail(failure('HPE_INVALID_CONSTANT', 'Parse Error: Expected HTTP/'));
            const code = Number(m[2]);
            const fields: Record<string, string> = {};
            for (let i = 1; i < lines.length; i++) {
              const line = lines[i]!;
              const colon = line.indexOf(':');
              if (colon <= 0) return fail(failure('HPE_INVALID_HEADER_TOKEN', 'Parse Error: Invalid header value char'));
              const name = line.slice(0, colon).trim().toLowerCase();
              const value = line.slice(colon + 1).trim();
              fields[name] = name in fields ? `${fields[name]}, ${value}` : value;
            }
            const rest = all.subarray(cut + 4);
            if (code >= 100 && code < 200) return rest.length > 0 ? onHead(rest) : undefined; // 100 Continue and the like
            status = code;
            const connection = (fields.connection ?? '').toLowerCase();
            reusable = m[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
            // A receiver's hint of how long it keeps an idle connection (Keep-Alive: timeout=N): given back 1 s early.
            const hint = /timeout=(\d+)/i.exec(fields['keep-alive'] ?? '');
            if (hint) idle = Math.min(idleMs, Number(hint[1]) * 1000 - 1000);
            if (idle <= 0) reusable = false;
            chunked = /(?:^|,)\s*chunked\s*$/i.test(fields['transfer-encoding'] ?? '');
            const length = fields['content-length'];
            if (chunked) left = -1;
            else if (length !== undefined) {
              if (!/^\d+$/.test(length)) return fail(failure('HPE_INVALID_CONTENT_LENGTH', 'Parse Error: Invalid character in Content-Length'));
              left = Number(length);
            } else left = -1;
            const bodiless = code === 204 || code === 304;
            if (!chunked && length === undefined && !bodiless) reusable = false; // its end is the connection's end
            answered = true;
            resolve({ status, location: fields.location ?? null, text: () => text });
            if (bodiless || left === 0) return done(reusable && rest.length === 0);
            if (rest.length > 0) onBody(rest);
          };
          const onData = (bytes: Buffer) => (answered ? onBody(bytes) : onHead(bytes));
          const onError = (err: Error) => fail(err);
          const onEnd = () => (answered && left < 0 && !chunked ? done(false) : fail(failure('ECONNRESET', 'socket hang up')));
          socket.on('data', onData);
          socket.on('error', onError);
          socket.on('end', onEnd);
          socket.on('close', onEnd);
          if (socket.destroyed) return fail(failure('ECONNRESET', 'socket hang up')); // closed while it was handed over
          stop.onStop((reason) => {
            if (ended) return;
            fail(reason instanceof Error ? reason : new Error(String(reason)));
          });
          socket.write(request);
        }),
    );
  };

  return {
    post,
    close() {
      closed = true;
      for (const pool of pools.values()) {
        for (const s of [...pool.idle]) drop(pool, s);
        for (const w of pool.waiting.splice(0)) w(failure('ECONNRESET', 'the sandbox closed'));
      }
    },
  };
}
