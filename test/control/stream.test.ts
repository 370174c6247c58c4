// GET /_sandbox/stream (sandbox.md 4.9): one SSE message per change, each kind, the accountId filter, the admin
// token (header or ?token=), keep-alive comments, and no listener left behind by a client that goes away.
import { connect as connectTo } from 'node:net';
import { afterEach, expect, onTestFinished, test } from 'vitest';
import { DEFAULT, failEachWrite, startHarness, type Harness } from '../helpers/harness';
import { at } from '../foundation/support';
import { startReceiver, type Receiver } from '../helpers/receiver';
import type { SandboxOptions } from '../../src/config';
import type { UnitHooks } from '../../src/store/unit';

interface Sse {
  event: string;
  data: any;
}

/** Reads a stream's messages as they come; next(pred) resolves with the first message (from the start) matching. */
function reader(res: Response) {
  const messages: Sse[] = [];
  const comments: string[] = [];
  let waiters: Array<() => void> = [];
  let buffer = '';
  const body = res.body!.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    for (;;) {
      const { done, value } = await body.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        if (data.length) messages.push({ event, data: JSON.parse(data.join('\n')) });
        const w = waiters;
        waiters = [];
        w.forEach((f) => f());
      }
    }
  })();
  const until = <T>(check: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const test = () => {
        const found = check();
        if (found !== undefined) resolve(found);
        else waiters.push(test);
      };
      test();
    });
  return {
    messages,
    comments,
    next: (pred: (m: Sse) => boolean) => until(() => messages.find(pred)),
    comment: (text: string) => until(() => (comments.includes(text) ? text : undefined)),
    cancel: async () => {
      await body.cancel();
      await pump;
    },
  };
}

const open: Array<{ cancel(): Promise<void> }> = [];
let receiver: Receiver | undefined;
afterEach(async () => {
  for (const r of open.splice(0)) await r.cancel();
  await receiver?.close();
  receiver = undefined;
});

async function connect(h: Harness, query = '', headers: Record<string, string> = {}) {
  const res = await h.sb.app.request(`/_sandbox/stream${query}`, { headers });
  expect(res.status, res.status === 200 ? '' : await res.text()).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const r = reader(res);
  open.push(r);
  await r.comment('connected'); // subscribed from here on
  return r;
}

async function started(options: SandboxOptions = {}) {
  return startHarness(options);
}

test('a charge created, paid and its event, then a clock move and a reset, each arrive as their own message', async () => {
  const h = await started();
  const s = await connect(h);
  const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'stream' } });
  const id = created.body.id as string;
  expect(await s.next((m) => m.event === 'transaction' && m.data.id === id)).toEqual({ event: 'transaction', data: { accountId: DEFAULT.accountId, id, type: 'payment', status: 'pending' } });

  await h.control('POST', `/transactions/${id}/pay`);
  expect((await s.next((m) => m.event === 'transaction' && m.data.id === id && m.data.status === 'completed')).data.type).toBe('payment');
  const fee = await s.next((m) => m.event === 'transaction' && m.data.type === 'fee');
  expect(fee.data).toMatchObject({ accountId: DEFAULT.accountId, status: 'completed' });
  const event = await s.next((m) => m.event === 'payment_completed');
  expect(event.data).toMatchObject({ event: 'payment_completed', eventId: id, accountId: DEFAULT.accountId, subAccount: null, data: { transactionId: id, amount: 10, status: 'completed' } });

  await h.advance(60);
  expect((await s.next((m) => m.event === 'clock')).data).toEqual({ now: '2026-03-10T12:01:00.000Z', frozen: true });

  await h.control('PUT', '/clock', { frozen: false });
  expect((await s.next((m) => m.event === 'clock' && m.data.frozen === false)).data.now).toEqual(expect.any(String));

  await h.control('POST', '/reset');
  expect(await s.next((m) => m.event === 'reset')).toEqual({ event: 'reset', data: {} });
});

test('a request that answers an error sends nothing: a pay failing at any of its writes is never on the stream', async () => {
  const hooks: UnitHooks = { failWrite: null };
  const h = await started({ testHooks: hooks });
  const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'undone' } });
  const id = created.body.id as string;
  const s = await connect(h);
  const failures = await failEachWrite(hooks, () => h.control('POST', `/transactions/${id}/pay`), async (_res, n) => {
    // The next change's message comes after anything the failed request could have sent: nothing of it is there.
    await h.advance(1);
    await s.next((m) => m.event === 'clock' && m.data.now === at(n));
    // The request itself is logged (event: request, with its 500); nothing it would have changed is sent.
    expect(s.messages.filter((m) => m.event !== 'clock' && m.event !== 'request'), `write #${n} failed: ${JSON.stringify(s.messages)}`).toEqual([]);
  });
  expect(failures).toBeGreaterThan(5); // the fee, the ledger, the event: each write failed in turn
  expect((await s.next((m) => m.event === 'transaction' && m.data.id === id)).data.status).toBe('completed');
});

test('a charge created and paid at once is reported pending, then completed, in that order', async () => {
  const h = await started();
  const s = await connect(h);
  const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'quick' } });
  await h.control('POST', `/transactions/${created.body.id}/pay`);
  await s.next((m) => m.event === 'transaction' && m.data.id === created.body.id && m.data.status === 'completed');
  expect(s.messages.filter((m) => m.event === 'transaction' && m.data.id === created.body.id).map((m) => m.data.status)).toEqual(['pending', 'completed']);
});

test('a delivery attempt sends its delivery id, state and number of attempts', async () => {
  receiver = await startReceiver();
  const h = await started({ webhookUrl: receiver.url });
  const s = await connect(h);
  const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
  await h.control('POST', `/transactions/${created.body.id}/pay`);
  await h.sb.settle();
  const [d] = (await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries`)).body.items;
  expect(await s.next((m) => m.event === 'delivery')).toEqual({ event: 'delivery', data: { accountId: DEFAULT.accountId, deliveryId: d.id, state: 'succeeded', attempts: 1 } });
});

test('withdrawals and their moves are transactions on the stream', async () => {
  const h = await started();
  const s = await connect(h);
  const w = await h.v2('POST', '/withdrawals', { body: { amount: 20, pixKey: 'falha@pix-sandbox.test', pixKeyType: 'email', holderName: 'Ana', holderDocument: '00000000191', holderDocumentType: 'cpf' } });
  expect(w.status, w.text).toBe(201);
  const id = (w.body.id ?? w.body.withdrawalId ?? w.body.transactionId) as string;
  await s.next((m) => m.event === 'transaction' && m.data.id === id && m.data.type === 'withdrawal' && m.data.status === 'pending');
  await h.control('POST', `/transactions/${id}/fail`, { reason: 'no' });
  await s.next((m) => m.event === 'transaction' && m.data.id === id && m.data.status === 'failed');
});

test('?accountId= keeps only that account\'s changes, and still the clock', async () => {
  const h = await started();
  const other = await h.control('POST', '/accounts', { name: 'Other', balance: 5 });
  const mine = await connect(h, `?accountId=${other.body.id}`);
  const all = await connect(h);
  const charge = await h.v2('POST', '/pix', { body: { amount: 1, description: 'default account' } });
  await all.next((m) => m.event === 'transaction' && m.data.id === charge.body.id);
  await h.control('POST', `/accounts/${other.body.id}/adjustments`, { amount: 2 });
  await h.advance(1);
  await mine.next((m) => m.event === 'clock');
  // The unfiltered stream hears of the clock's request; the filtered one had the same batch, and must not.
  await all.next((m) => m.event === 'request' && m.data.path === '/_sandbox/clock/advance');
  expect(mine.messages.filter((m) => m.event !== 'request').map((m) => [m.event, m.data.accountId])).toEqual([
    ['transaction', other.body.id],
    ['clock', undefined],
  ]);
  // Logged requests too, those of this account only: not the default account's charge, nor the move of the sandbox
  // clock, a request no account could be named for (its clock message above reaches every stream).
  expect(mine.messages.filter((m) => m.event === 'request').map((m) => [m.data.path, m.data.accountId])).toEqual([
    [`/_sandbox/accounts/${other.body.id}/adjustments`, other.body.id],
  ]);
});

test('each logged request is sent as event: request, with its id, face, method, path, status and duration', async () => {
  const h = await started();
  const s = await connect(h);
  const charge = await h.v2('POST', '/pix', { body: { amount: 1, description: 'x' } });
  const m = await s.next((m) => m.event === 'request' && m.data.path === '/v2/pix');
  expect(m.data).toMatchObject({ accountId: DEFAULT.accountId, face: 'v2', method: 'POST', status: 201 });
  const entry = await h.control('GET', `/requests/${m.data.id}`);
  expect(entry.body.ids).toContain(charge.body.id);
  expect(typeof m.data.durationMs).toBe('number');
});

test('an unknown accountId is a 404 that says where to find account ids', async () => {
  const h = await started();
  const res = await h.api('GET', '/_sandbox/stream?accountId=nope');
  expect(res.status, res.text).toBe(404);
  expect(res.body.message).toContain('GET /_sandbox/accounts');
});

test.each([
  ['no token', '', {}, 401],
  ['a wrong ?token=', '?token=wrong', {}, 401],
  ['?token=', '?token=s3cret', {}, 200],
  ['the header', '', { 'x-sandbox-token': 's3cret' }, 200],
])('with an admin token set, the stream with %s answers %s', async (_, query, headers, status) => {
  const h = await started({ adminToken: 's3cret' });
  const res = await h.sb.app.request(`/_sandbox/stream${query}`, { headers });
  expect(res.status).toBe(status);
  if (status === 200) open.push(reader(res));
  else expect(await res.text()).toContain('X-Sandbox-Token');
});

test('?token= is taken only by the stream, not by other control routes', async () => {
  const h = await started({ adminToken: 's3cret' });
  expect((await h.api('GET', '/_sandbox/clock?token=s3cret')).status).toBe(401);
});

test('a comment line keeps the connection open at the configured interval', async () => {
  const h = await started({ streamKeepAliveMs: 20 });
  const s = await connect(h);
  await s.comment('keep-alive');
});

test('clients that go away, even in the middle of a burst of messages, leave no listener behind', async () => {
  const h = await started({ streamKeepAliveMs: 5 });
  const base = h.sb.deps.bus.listeners;
  const streams = await Promise.all(Array.from({ length: 20 }, () => connect(h)));
  expect(h.sb.deps.bus.listeners).toBe(base + 20);
  // A burst of changes in flight while every client hangs up.
  const burst = Array.from({ length: 10 }, (_, i) => h.v2('POST', '/pix', { body: { amount: 1 + i, description: `burst ${i}` } }));
  await streams[0]!.next((m) => m.event === 'transaction');
  await Promise.all(streams.map((s) => s.cancel()));
  open.length = 0;
  await Promise.all(burst);
  await h.advance(1); // more messages for the departed clients: nobody must be listening any more
  expect(h.sb.deps.bus.listeners).toBe(base);
  // And the sandbox still serves streams.
  const again = await connect(h);
  await h.advance(1);
  await again.next((m) => m.event === 'clock');
});

test('over a real socket, messages and keep-alive comments arrive written straight to the connection, and a client that hangs up leaves no listener', async () => {
  const h = await started({ streamKeepAliveMs: 20 });
  const url = await h.sb.listen({ port: 0, host: '127.0.0.1' });
  onTestFinished(() => h.sb.close());
  const base = h.sb.deps.bus.listeners;
  const controller = new AbortController();
  const res = await fetch(`${url}/_sandbox/stream`, { signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(res.headers.get('x-trace-id')).toEqual(expect.any(String)); // the head is the app's, middleware included
  const s = reader(res);
  await s.comment('connected');
  expect(h.sb.deps.bus.listeners).toBe(base + 1);
  const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'real socket' } });
  const id = created.body.id as string;
  expect(await s.next((m) => m.event === 'transaction' && m.data.id === id)).toEqual({ event: 'transaction', data: { accountId: DEFAULT.accountId, id, type: 'payment', status: 'pending' } });
  await s.comment('keep-alive');
  controller.abort();
  await s.cancel().catch(() => {});
  // The server sees the socket close on its next turn; a change then finds no listener.
  await at0(() => h.sb.deps.bus.listeners === base);
  expect(h.sb.deps.bus.listeners).toBe(base);
});

test('over a real socket the bytes on the wire are the chunks of the response, each message whole and in order', async () => {
  const h = await started();
  const url = new URL(await h.sb.listen({ port: 0, host: '127.0.0.1' }));
  onTestFinished(() => h.sb.close());
  const socket = connectTo(Number(url.port), '127.0.0.1');
  onTestFinished(() => void socket.destroy());
  let raw = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (c: Buffer) => {
    raw += c.toString('latin1');
    for (const w of waiters.splice(0)) w();
  });
  const until = async (ok: () => boolean) => {
    while (!ok()) await new Promise<void>((r) => waiters.push(r));
  };
  socket.write(`GET /_sandbox/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await until(() => raw.includes(': connected'));
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await h.v2('POST', '/pix', { body: { amount: 10 + i, description: 'raw socket' } })).body.id as string);
  await until(() => raw.includes(ids[2]!) && raw.endsWith('\n\n\r\n'));
  const cut = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, cut);
  expect(head).toMatch(/transfer-encoding: chunked/i);
  // Each chunk: its size in hex, CRLF, exactly that many bytes, CRLF; the messages sit whole inside chunks.
  let rest = raw.slice(cut + 4);
  let body = '';
  while (rest.length > 0) {
    const line = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, line), 16);
    expect(size).toBeGreaterThan(0);
    const chunk = rest.slice(line + 2, line + 2 + size);
    expect(rest.slice(line + 2 + size, line + 4 + size)).toBe('\r\n');
    expect(chunk.endsWith('\n\n')).toBe(true);
    body += chunk;
    rest = rest.slice(line + 4 + size);
  }
  const created = body.split('\n\n').filter((m) => m.startsWith('event: transaction')).map((m) => JSON.parse(m.split('\ndata: ')[1]!) as { id: string });
  expect(created.map((m) => m.id)).toEqual(ids);
});

/** Resolves once `ok()` holds, checking after each turn of the event loop (no timers, no sleeps). */
async function at0(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setImmediate(r));
}
