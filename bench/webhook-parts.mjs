// What bench/webhooks.mjs and bench/webhooks-ab.mjs share: the receiver of the deliveries, the client that makes the
// API calls, and reading a process's CPU time. Both the receiver and the client run in the bench's process, on the
// machine's 2 cores beside the sandbox they measure, so each is as cheap as it can be while doing the whole job:
// - the receiver reads each delivery off a real socket as HTTP/1.1 (request line, headers, a body of Content-Length
//   bytes), checks its X-Service-Signature (HMAC-SHA256 with Node's createHmac over the exact body bytes, compared with
//   the header) and parses the body as JSON before it answers 200; a request it cannot read that way (no
//   Content-Length, chunked) counts as bad and is answered 400. It parses the request head itself rather than through
//   node:http's server, whose IncomingMessage and ServerResponse streams cost about 40 % of the bench process's CPU per
//   delivery;
// - the client makes its calls over keep-alive connections with undici's dispatch (the sandbox's own transport for
//   deliveries), the answer's JSON parsed and a non-2xx thrown: node:http's ClientRequest costs about twice as much per
//   call, Node's fetch about four times.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Pool } from 'undici';

const HEAD_END = Buffer.from('\r\n\r\n');
const OK = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
const BAD = Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');

/**
 * Listens on 127.0.0.1 (a free port) for deliveries; `secretOf(path)` is the secret of the endpoint at that path.
 * `onDelivery({ path, eventId, signed })` is called for each request read whole, before its answer is written.
 */
export async function startReceiver(secretOf, onDelivery) {
  const stats = { received: 0, badSignatures: 0, unreadable: 0 };
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    let head;
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        if (!head) {
          const end = pending.indexOf(HEAD_END);
          if (end < 0) return;
          const lines = pending.toString('latin1', 0, end).split('\r\n');
          const headers = {};
          for (let i = 1; i < lines.length; i++) {
            const colon = lines[i].indexOf(':');
            headers[lines[i].slice(0, colon).trim().toLowerCase()] = lines[i].slice(colon + 1).trim();
          }
          const length = Number(headers['content-length']);
          if (headers['transfer-encoding'] !== undefined || !Number.isInteger(length)) {
            stats.unreadable++;
            socket.end(BAD);
            return;
          }
          head = { path: lines[0].split(' ')[1], headers, start: end + HEAD_END.length, length };
        }
        if (pending.length < head.start + head.length) return;
        const raw = pending.subarray(head.start, head.start + head.length);
        pending = pending.subarray(head.start + head.length);
        const { path, headers } = head;
        head = undefined;
        const expected = `sha256=${createHmac('sha256', secretOf(path) ?? '').update(raw).digest('hex')}`;
        const signed = headers['x-service-signature'] === expected;
        if (!signed) stats.badSignatures++;
        const { eventId } = JSON.parse(raw.toString('utf8'));
        stats.received++;
        socket.write(OK);
        onDelivery({ path, eventId, signed });
      }
    });
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stats,
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** API calls to `base` over at most `connections` keep-alive connections: call(method, path, body?, headers?) resolves with the JSON answer. */
export function apiClient(base, connections) {
  const pool = new Pool(base, { connections, pipelining: 1 });
  const call = (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      let status = 0;
      pool.dispatch(
        { method, path, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } },
        {
          onConnect() {},
          onHeaders(code) {
            status = code;
            return true;
          },
          onData(chunk) {
            chunks.push(chunk);
            return true;
          },
          onComplete() {
            const text = Buffer.concat(chunks).toString('utf8');
            if (status < 200 || status > 299) reject(new Error(`${method} ${path}: ${status} ${text}`));
            else resolve(JSON.parse(text));
          },
          onError: reject,
        },
      );
    });
  return { call, close: () => pool.destroy() };
}

/** Runs fn over items, n at a time. */
export async function inParallel(items, n, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** CPU time (user + system, ms) a process has used so far (Linux /proc; USER_HZ is 100). */
export function processCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
