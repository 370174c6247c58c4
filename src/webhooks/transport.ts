// How a delivery attempt's POST goes out. By default through node:http (node:https for https URLs) with keep-alive
// agents of the sandbox's own: Node's fetch (undici's WHATWG layer: Request, Headers, web streams for both bodies)
// cost about four times the CPU of node:http per delivery, the largest part of an attempt. A fetch given to
// createSandbox({ fetch }) is used as given (tests count, hold or fake attempts with it). Either way an attempt is one
// request: nothing is retried here (retries are the dispatcher's, on the sandbox clock), redirects are never followed,
// and only the first RESPONSE_SNIPPET bytes of an answer are read before the connection is let go.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';

/** How much of a receiver's answer the delivery log keeps (sandbox.md 5: the response's first 2 KB). */
export const RESPONSE_SNIPPET = 2048;

/** What came back, as soon as the status line and headers are in; `text()` reads the body's first bytes and never rejects. */
export interface Answer {
  status: number;
  location: string | null;
  text(): Promise<string>;
}

/** Sends one POST; rejects when no HTTP answer came (the error's `code` or `cause.code` says why). */
export type Post = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<Answer>;

/** The fetch of createSandbox() when none is given: looked up at the first call, so start-up does not load undici. */
export const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/** A Post over an injected fetch. */
export function postWithFetch(fetchFn: typeof fetch): Post {
  return async (url, headers, body, signal) => {
    const res = await fetchFn(url, { method: 'POST', headers, body, redirect: 'manual', signal });
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

/** A Post over node:http(s) with keep-alive agents of its own (at most `sockets` per host); close() drops their sockets. */
export function postWithHttp(sockets: number): { post: Post; close(): void } {
  const http = new HttpAgent({ keepAlive: true, maxSockets: sockets });
  let https: Promise<HttpsAgent> | undefined;
  let httpsAgent: HttpsAgent | undefined;
  const httpsRequest = () =>
    (https ??= import('node:https').then((m) => (httpsAgent = new m.Agent({ keepAlive: true, maxSockets: sockets })))).then(async (agent) => ({ agent, request: (await import('node:https')).request }));
  const post: Post = async (url, headers, body, signal) => {
    const target = new URL(url);
    const { agent, request } = target.protocol === 'https:' ? await httpsRequest() : { agent: http, request: httpRequest };
    return new Promise<Answer>((resolve, reject) => {
      const req = request(target, { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent, signal });
      req.once('response', (res) => {
        const text = readSnippet(res);
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, text: () => text });
      });
      req.on('error', reject);
      req.end(body);
    });
  };
  return {
    post,
    close() {
      http.destroy();
      httpsAgent?.destroy();
    },
  };
}
