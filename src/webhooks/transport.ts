// How a delivery attempt's POST goes out. By default through node:http (node:https for https URLs) with keep-alive
// agents of the sandbox's own: Node's fetch (undici's WHATWG layer: Request, Headers, web streams for both bodies)
// cost about four times the CPU of node:http per delivery, the largest part of an attempt. A fetch given to
// createSandbox({ fetch }) is used as given (tests count, hold or fake attempts with it). Either way an attempt is one
// request: nothing is retried here (retries are the dispatcher's, on the sandbox clock), redirects are never followed,
// and only the first RESPONSE_SNIPPET bytes of an answer are read before the connection is let go. What cuts an
// attempt short (its time-out, the sandbox closing) is a Stop, not an AbortSignal: an AbortController, its EventTarget
// and the listener node:http adds to the signal cost about as much per delivery as the request's own head. Each URL is
// parsed once (the last URL_CACHE of them kept), not at every attempt.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
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

/** How many parsed URLs postWithHttp keeps (a CI suite's endpoints; past that the cache starts again). */
const URL_CACHE = 256;

/** A Post over node:http(s) with keep-alive agents of its own (at most `sockets` per host); close() drops their sockets. */
export function postWithHttp(sockets: number): { post: Post; close(): void } {
  const http = new HttpAgent({ keepAlive: true, maxSockets: sockets });
  let https: Promise<{ agent: HttpsAgent; request: typeof httpRequest }> | undefined;
  let httpsAgent: HttpsAgent | undefined;
  const httpsRequest = () =>
    (https ??= import('node:https').then((m) => ({ agent: (httpsAgent = new m.Agent({ keepAlive: true, maxSockets: sockets })), request: m.request as typeof httpRequest })));
  /** Each URL's request options (host, port, path...), as node:http would read them from the URL at every request. */
  const targets = new Map<string, { secure: boolean; options: RequestOptions }>();
  const targetOf = (url: string) => {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { secure: parsed.protocol === 'https:', options: urlToHttpOptions(parsed) as RequestOptions };
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
    let target: { secure: boolean; options: RequestOptions };
    try {
      target = targetOf(url);
    } catch (err) {
      return Promise.reject(err);
    }
    if (!target.secure) return send(httpRequest, http, target.options, headers, body, stop);
    return httpsRequest().then(({ agent, request }) => send(request, agent, target.options, headers, body, stop));
  };
  return {
    post,
    close() {
      http.destroy();
      httpsAgent?.destroy();
    },
  };
}
