// A real webhook receiver for tests: node:http on 127.0.0.1, port 0. It records each request's raw body bytes and
// headers, and answers as told: a status, or misbehaves (hangs, redirects, closes the socket, answers garbage).
// Tests wait for requests with next()/waitFor(); they never sleep.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Exactly the bytes that arrived. */
  raw: Buffer;
  body: any;
  /** performance.now() when the whole request had arrived. */
  at: number;
}

export type Behaviour = number | 'hang' | 'redirect' | 'close' | 'garbage';

export interface Receiver {
  url: string;
  requests: Received[];
  /** How the next requests are answered (default 200). A function decides per request. */
  answer(b: Behaviour | ((r: Received) => Behaviour)): void;
  /** The next request not yet taken by next(). */
  next(): Promise<Received>;
  /** Resolves once `n` requests have arrived in all. */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  let taken = 0;
  let waiters: Array<() => void> = [];
  let decide: (r: Received) => Behaviour = () => 200;
  const hanging: ServerResponse[] = [];

  const respond = (req: IncomingMessage, res: ServerResponse, b: Behaviour) => {
    if (b === 'hang') return void hanging.push(res);
    if (b === 'redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
    if (b === 'close') return void req.socket.destroy();
    if (b === 'garbage') return void req.socket.end('this is not HTTP at all\r\n\r\n');
    res.writeHead(b, { 'content-type': 'text/plain' }).end(b >= 200 && b < 300 ? 'ok' : `receiver says ${b}`);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, at: performance.now() };
      requests.push(r);
      const ready = waiters;
      waiters = [];
      for (const w of ready) w();
      respond(req, res, decide(r));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const until = (ok: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (ok() ? resolve() : waiters.push(check));
      check();
    });

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(b) {
      decide = typeof b === 'function' ? b : () => b;
    },
    async next() {
      const i = taken++;
      await until(() => requests.length > i);
      return requests[i]!;
    },
    async waitFor(n) {
      await until(() => requests.length >= n);
      return requests.slice(0, n);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
