// A fetch that trusts one extra CA (sandbox.fetch under `https: true`). Node's global fetch cannot be given a CA
// without an undici Agent of the same major version as the undici inside that Node (20, 22 and 24 differ), so this
// sends through node:https, which takes `ca` on every Node, and returns a standard Response (body streamed).
// Redirects are not followed: the sandbox's API answers none that a client must follow.
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

const NULL_BODY = new Set([101, 204, 205, 304]);

export function fetchTrusting(ca: string): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const req = new Request(input, init);
    if (new URL(req.url).protocol !== 'https:') return globalThis.fetch(req);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = Object.fromEntries(req.headers);
      if (body) headers['content-length'] = String(body.byteLength);
      const out = httpsRequest(req.url, { method: req.method, headers, ca, signal: req.signal }, (res) => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const one of [value ?? []].flat()) answer.append(name, one);
        const status = res.statusCode ?? 502;
        const stream = NULL_BODY.has(status) || req.method === 'HEAD' ? (res.resume(), null) : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, statusText: res.statusMessage, headers: answer }));
      });
      out.on('error', reject);
      out.end(body);
    });
  };
}
