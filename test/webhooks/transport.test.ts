// The plain http:// client of the deliveries (src/webhooks/transport.ts) against receivers that answer in each way HTTP/1.1
// allows: what an attempt reads (status, Location, the body's first bytes) and whether the next attempt reuses the
// connection. Each test runs twice: in line, and through the delivery thread (src/webhooks/send-thread.ts with the
// built dist/send-worker.js: npm test builds dist/ first), which must answer the same. Deliveries end to end (headers,
// signatures, retries) are tested in the other files of this folder.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, onTestFinished, test } from 'vitest';
import { SendThread } from '../../src/webhooks/send-thread';
import { postWithHttp, RESPONSE_SNIPPET, Stop } from '../../src/webhooks/transport';

const WORKER = new URL('../../dist/send-worker.js', import.meta.url);
const thread = new SendThread(WORKER);
const CLIENTS: Array<[string, () => ReturnType<typeof postWithHttp>]> = [
  ['in line', () => postWithHttp(4)],
  ['through the delivery thread', () => thread.channel(4)],
];

/** A receiver on a raw socket: reads each request whole (head and Content-Length body), answers with the pieces given. */
async function cannedReceiver(answer: string[], closeAfter = false) {
  const requests: string[] = [];
  let connections = 0;
  const server = createServer((socket: Socket) => {
    connections++;
    let buffer = '';
    socket.on('data', async (c: Buffer) => {
      buffer += c.toString('latin1');
      const cut = buffer.indexOf('\r\n\r\n');
      if (cut < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(buffer.slice(0, cut))?.[1] ?? 0);
      if (buffer.length < cut + 4 + length) return;
      requests.push(buffer.slice(0, cut + 4 + length));
      buffer = buffer.slice(cut + 4 + length);
      for (const piece of answer) {
        socket.write(piece);
        await new Promise((r) => setImmediate(r)); // separate reads on the client's side
      }
      if (closeAfter) socket.end();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  onTestFinished(() => void server.close());
  return { url: `http://127.0.0.1:${port}/hooks/in?x=1`, port, requests, connections: () => connections };
}

test('the delivery thread is built (else the thread half of these tests would run in line)', () => {
  expect(existsSync(WORKER)).toBe(true);
});

describe.each(CLIENTS)('%s', (_, client) => {
  const long = 'x'.repeat(5000);
  const huge = 'y'.repeat(70 * 1024);
  test.each([
    ['Content-Length', ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'], false, 200, 'ok', null, 1],
    ['chunked, with a chunk extension, in pieces', ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r', '\n3;x=y\r\n!!!\r\n', '0\r\n\r\n'], false, 200, 'ok!!!', null, 1],
    ['no length: to the connection end', ['HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n\r\nboom'], true, 500, 'boom', null, 2],
    ['204 without a body', ['HTTP/1.1 204 No Content\r\n\r\n'], false, 204, '', null, 1],
    ['103 Early Hints first', ['HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n', 'HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n'], false, 201, '', null, 1],
    ['a body longer than the snippet: read to its end and dropped', [`HTTP/1.1 200 OK\r\nContent-Length: ${long.length}\r\n\r\n${long}`], false, 200, long.slice(0, RESPONSE_SNIPPET), null, 1],
    ['a body over 64 KB: the connection let go', [`HTTP/1.1 200 OK\r\nContent-Length: ${huge.length}\r\n\r\n${huge}`], false, 200, huge.slice(0, RESPONSE_SNIPPET), null, 2],
    ['a redirect', ['HTTP/1.1 302 Found\r\nLocation: http://elsewhere.test/x\r\nContent-Length: 0\r\n\r\n'], false, 302, '', 'http://elsewhere.test/x', 1],
    ['a keep-alive hint of 1 s: not kept', ['HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 0\r\n\r\n'], false, 200, '', null, 2],
    ['the head in pieces', ['HTTP/1.1 20', '0 OK\r\nContent-Le', 'ngth: 3\r\n\r', '\nabc'], false, 200, 'abc', null, 1],
  ])('an answer with %s: status, Location and body as sent, and the connection reused when it may be', async (_, answer, closeAfter, status, text, location, connections) => {
    const receiver = await cannedReceiver(answer as string[], closeAfter as boolean);
    const { post, close } = client();
    onTestFinished(close);
    for (let i = 0; i < 2; i++) {
      const res = await post(receiver.url, { 'Content-Type': 'application/json', 'X-Service-Event': 'payment_completed' }, `{"n":${i}}`, new Stop());
      expect({ status: res.status, location: res.location, text: await res.text() }).toEqual({ status, location, text });
      // undici takes a kept connection up again one turn of the event loop after its answer (having checked that the
      // receiver did not close it meanwhile); an attempt in that same turn would open another connection.
      await new Promise((r) => setImmediate(r));
    }
    expect(receiver.connections()).toBe(connections);
    expect(receiver.requests[1]).toBe(`POST /hooks/in?x=1 HTTP/1.1\r\nhost: 127.0.0.1:${receiver.port}\r\nconnection: keep-alive\r\nContent-Type: application/json\r\nX-Service-Event: payment_completed\r\ncontent-length: 7\r\n\r\n{"n":1}`);
  });

  test.each([
    ['is not HTTP', ['this is not HTTP at all\r\n\r\n'], /HPE_/],
    ['ends before an answer', [], /ECONNRESET: socket hang up/],
    ['answers 100 Continue unasked (undici refuses it; no Expect: 100-continue is ever sent)', ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'], /bad response/],
    ['sends a bad chunk size', ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'], null],
  ])('a receiver that %s: the attempt fails with the cause (or keeps the answer whose body was cut)', async (_, answer, error) => {
    const receiver = await cannedReceiver(answer as string[], true);
    const { post, close } = client();
    onTestFinished(close);
    const sent = post(receiver.url, {}, '{}', new Stop());
    if (error) await expect(sent.then(() => 'answered', (e: { code?: string; message: string }) => `${e.code}: ${e.message}`)).resolves.toMatch(error as RegExp);
    else expect((await sent).status).toBe(200);
  });

  test('a header value with a line break is refused before anything is sent', async () => {
    const receiver = await cannedReceiver(['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n']);
    const { post, close } = client();
    onTestFinished(close);
    await expect(post(receiver.url, { 'X-Evil': 'a\r\nX-Injected: 1' }, '{}', new Stop())).rejects.toThrow(/Invalid character in header content/);
    expect(receiver.connections()).toBe(0);
  });

  test('a stop (time-out or close) cuts an attempt that waits for its answer, with the stop reason', async () => {
    const receiver = await cannedReceiver([]); // never answers
    const { post, close } = client();
    onTestFinished(close);
    const stop = new Stop();
    const sent = post(receiver.url, {}, '{}', stop);
    await new Promise((r) => setImmediate(r));
    stop.stop(new Error('no answer within 10 ms'));
    await expect(sent).rejects.toThrow('no answer within 10 ms');
  });
});

test('the delivery thread starts at the first attempt and ends when its last channel closes; a later attempt starts another', async () => {
  const receiver = await cannedReceiver(['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok']);
  const own = new SendThread(WORKER);
  const [a, b] = [own.channel(4), own.channel(4)];
  expect(own.running).toBe(false);
  expect((await a.post(receiver.url, {}, '{}', new Stop())).status).toBe(200);
  expect(own.running).toBe(true);
  a.close();
  expect(own.running).toBe(true); // b is open
  b.close();
  expect(own.running).toBe(false);
  const c = own.channel(4);
  onTestFinished(c.close);
  const res = await c.post(receiver.url, {}, '{}', new Stop());
  expect({ status: res.status, text: await res.text(), running: own.running }).toEqual({ status: 200, text: 'ok', running: true });
});

test('a thread that fails ends its attempts as failures with the cause, and later attempts go in line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'send-worker-'));
  const broken = join(dir, 'send-worker.js');
  writeFileSync(broken, "import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => { throw new Error('boom'); });");
  const receiver = await cannedReceiver(['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok']);
  const { post, close } = new SendThread(pathToFileURL(broken)).channel(4);
  onTestFinished(close);
  await expect(post(receiver.url, {}, '{}', new Stop())).rejects.toMatchObject({ code: 'ERR_WORKER', message: 'the delivery thread stopped (boom)' });
  const res = await post(receiver.url, {}, '{}', new Stop());
  expect({ status: res.status, text: await res.text() }).toEqual({ status: 200, text: 'ok' });
  expect(receiver.requests).toHaveLength(1);
});
