// How a delivery attempt's POST goes out. By default over keep-alive connections of the sandbox's own: undici's Agent
// (the HTTP/1.1 client under Node's fetch, driven through its low-level dispatch, not its fetch) for http:// URLs,
// node:https's agent for https:// ones (and node:http's for a URL with credentials in it). Node's fetch (undici's WHATWG
// layer: Request, Headers, web streams for both bodies) cost about four times the CPU of node:http per delivery, and
// node:http's ClientRequest, agent and parser about twice undici's dispatch (measured alternating, 20 attempts at a
// time, three runs: 170-221 against 78-111 us; an HTTP/1.1 client of our own on node:net took 78-109). A fetch given to
// createSandbox({ fetch }) is used as given (tests count, hold or fake attempts with it). Either way an attempt is one
// request: nothing is retried here (retries are the dispatcher's, on the sandbox clock), redirects are never followed,
// and an answer's status, Location and the body's first RESPONSE_SNIPPET bytes are all an attempt reads. What cuts an
// attempt short (its time-out, the sandbox closing) is a Stop, not an AbortSignal: an AbortController, its EventTarget
// and the listener node:http adds to the signal cost about as much per delivery as the request's own head. Each URL is
// parsed once (the last URL_CACHE of them kept), not at every attempt.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import { extended } from '../lib/objects';

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
 * How long an idle connection to an http:// receiver waits for the next attempt: below the 5 s a Node server keeps an
 * idle connection, so that the receiver does not close it under an attempt (a receiver's Keep-Alive: timeout=N hint,
 * less 1 s, when shorter: undici reads the hint itself).
 */
const IDLE_MS = 4_000;
/** The longest body read (and dropped past the snippet) for an http:// connection to be kept, and its longest pause. */
const DRAIN_MAX = 64 * 1024;
const DRAIN_MS = 10_000;
/** How many parsed URLs postWithHttp keeps (a CI suite's endpoints; past that the cache starts again). */
const URL_CACHE = 256;

/** Where an http:// attempt goes, as undici's dispatch takes it. */
interface Plain {
  origin: string;
  path: string;
}

/** A Post over undici (http://) and node:http(s), with keep-alive connections of its own (at most `sockets` per host); close() drops them. */
export function postWithHttp(sockets: number): { post: Post; close(): void } {
  const http = new HttpAgent({ keepAlive: true, maxSockets: sockets });
  let https: Promise<{ agent: HttpsAgent; request: typeof httpRequest }> | undefined;
  let httpsAgent: HttpsAgent | undefined;
  const httpsRequest = () =>
    (https ??= import('node:https').then((m) => ({ agent: (httpsAgent = new m.Agent({ keepAlive: true, maxSockets: sockets })), request: m.request as typeof httpRequest })));
  // undici is loaded at the first http:// attempt, not at start-up (its index, fetch and WebSocket layers included,
  // takes about 150 ms once; its public entry rather than an internal module path that a release may move).
  let plain: UndiciAgent | undefined;
  let loading: Promise<UndiciAgent> | undefined;
  let closed = false;
  const plainAgent = () =>
    (loading ??= import('undici').then(({ Agent }) => {
      plain = new Agent({
        connections: sockets,
        keepAliveTimeout: IDLE_MS,
        keepAliveMaxTimeout: IDLE_MS,
        keepAliveTimeoutThreshold: 1_000,
        // Waiting for the answer is the attempt's time-out (a Stop), not a timer of undici's. Once the snippet is in
        // the attempt is over, and the rest of a longer body is read and dropped so that the connection can carry the
        // next one, unless it is longer than DRAIN_MAX or pauses DRAIN_MS (then the connection is closed). Stopping
        // the exchange instead (undici's abort) would have undici open a connection for nothing in its place.
        headersTimeout: 0,
        bodyTimeout: DRAIN_MS,
        maxResponseSize: DRAIN_MAX,
      });
      if (closed) void plain.destroy().catch(() => {});
      return plain;
    }));
  /** Each URL's request options (host, port, path...), as node:http would read them from the URL at every request. */
  const targets = new Map<string, { secure: boolean; options: RequestOptions; plain?: Plain }>();
  const targetOf = (url: string) => {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      const options = urlToHttpOptions(parsed) as RequestOptions;
      const plain = parsed.protocol === 'http:' && !parsed.username && !parsed.password ? { origin: parsed.origin, path: `${parsed.pathname || '/'}${parsed.search}` } : undefined;
      target = { secure: parsed.protocol === 'https:', options, ...(plain ? { plain } : {}) };
      if (targets.size >= URL_CACHE) targets.clear();
      targets.set(url, target);
    }
    return target;
  };
  const send = (request: typeof httpRequest, agent: HttpAgent, options: RequestOptions, headers: Record<string, string>, body: string, stop: Stop) =>
    new Promise<Answer>((resolve, reject) => {
      if (stop.stopped) return reject(stop.reason);
      const req = request(extended(options, { method: 'POST', headers: extended(headers, { 'Content-Length': String(Buffer.byteLength(body)) }), agent }));
      stop.onStop((reason) => req.destroy(reason instanceof Error ? reason : new Error(String(reason))));
      req.once('response', (res) => {
        const text = readSnippet(res);
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, text: () => text });
      });
      req.on('error', reject);
      req.end(body);
    });
  const dispatch = (agent: UndiciAgent, to: Plain, headers: Record<string, string>, body: string, stop: Stop) =>
    new Promise<Answer>((resolve, reject) => {
      if (stop.stopped) return reject(stop.reason);
      agent.dispatch({ origin: to.origin, path: to.path, method: 'POST', headers, body }, new Exchange(resolve, reject, stop, headers));
    });
  const post: Post = (url, headers, body, stop) => {
    let target: { secure: boolean; options: RequestOptions; plain?: Plain };
    try {
      target = targetOf(url);
    } catch (err) {
      return Promise.reject(err);
    }
    const to = target.plain;
    if (to) return plain ? dispatch(plain, to, headers, body, stop) : plainAgent().then((agent) => dispatch(agent, to, headers, body, stop));
    if (!target.secure) return send(httpRequest, http, target.options, headers, body, stop);
    return httpsRequest().then(({ agent, request }) => send(request, agent, target.options, headers, body, stop));
  };
  return {
    post,
    close() {
      closed = true;
      void plain?.destroy(failure('ECONNRESET', 'the sandbox closed')).catch(() => {});
      http.destroy();
      httpsAgent?.destroy();
    },
  };
}

const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

/** Header names (RFC 9110 tokens) and values (no control character but tab) that may be written as they are. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSAFE_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * undici's error as node:http's would read (the delivery log and the README name these): a connection that ends
 * before an answer is `socket hang up` (ECONNRESET), an answer that is not HTTP an HPE_ code with node's `Parse Error`
 * wording, a header that may not be written `Invalid character in header content` (ERR_INVALID_CHAR). The socket's own
 * errors (ECONNREFUSED, ECONNRESET...) come through as they are.
 */
function asNodeError(err: Error & { code?: string }, headers: Record<string, string>): Error {
  const code = err.code ?? '';
  // 'other side closed', 'closed'; not 'bad response' (an unasked 100 Continue, which undici refuses)
  if (code === 'UND_ERR_SOCKET' && /closed$/.test(err.message)) return failure('ECONNRESET', 'socket hang up');
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return failure('HPE_HEADER_OVERFLOW', 'Parse Error: Header overflow');
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') return failure('ECONNRESET', 'the sandbox closed');
  if (code.startsWith('HPE_')) return failure(code, `Parse Error: ${/\((.*)\)$/.exec(err.message)?.[1] ?? err.message}`);
  if (code === 'UND_ERR_INVALID_ARG') {
    for (const name in headers) if (!TOKEN.test(name) || UNSAFE_VALUE.test(headers[name]!)) return failure('ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
  }
  return err;
}

/**
 * One attempt's exchange, as undici's dispatch drives it: resolves with the answer once its status and headers are in
 * (1xx answers skipped) and keeps the body's first RESPONSE_SNIPPET bytes (the answer's text() has them as soon as
 * they are in; undici reads the rest). A Stop aborts it: before the answer the attempt rejects with the stop's reason; after,
 * the answer keeps the body as far as it came.
 */
class Exchange implements Dispatcher.DispatchHandlers {
  #abort: ((err?: Error) => void) | undefined;
  #answered = false;
  #ended = false;
  #chunks: Buffer[] = [];
  #kept = 0;
  #finish: (text: string) => void = () => {};

  constructor(
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (err: unknown) => void,
    private readonly stop: Stop,
    private readonly headers: Record<string, string>,
  ) {
    stop.onStop((reason) => this.#cut(reason instanceof Error ? reason : new Error(String(reason))));
  }

  #cut(reason: Error): void {
    if (this.#ended) return;
    if (this.#answered) this.#end();
    else {
      this.#ended = true;
      this.reject(reason);
    }
    this.#abort?.(reason);
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#finish(Buffer.concat(this.#chunks).subarray(0, RESPONSE_SNIPPET).toString('utf8'));
  }

  onConnect(abort: (err?: Error) => void): void {
    this.#abort = abort;
    if (this.stop.stopped) abort(this.stop.reason instanceof Error ? this.stop.reason : new Error(String(this.stop.reason)));
  }

  onHeaders(status: number, raw: Buffer[]): boolean {
    if (status < 200 || this.#ended) return true; // 100 Continue and the like: the answer is the next head
    let location: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.length === 8 && name.toString('latin1').toLowerCase() === 'location') {
        const value = raw[i + 1]!.toString('latin1');
        location = location === null ? value : `${location}, ${value}`;
      }
    }
    this.#answered = true;
    const text = new Promise<string>((r) => (this.#finish = r));
    this.resolve({ status, location, text: () => text });
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#ended) return true; // the rest of a long body: read to its end (or DRAIN_MAX) and dropped
    this.#chunks.push(chunk);
    this.#kept += chunk.length;
    if (this.#kept >= RESPONSE_SNIPPET) this.#end();
    return true;
  }

  onComplete(): void {
    this.#end();
  }

  onError(err: Error): void {
    if (this.#answered) return this.#end(); // a body cut short is still an answer: keep what came
    if (this.#ended) return;
    this.#ended = true;
    this.reject(asNodeError(err, this.headers));
  }
}
