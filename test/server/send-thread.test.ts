// Deliveries leave from a worker thread (src/webhooks/send-thread.ts) when the sandbox runs from its build: these tests
// run the built package (npm test builds dist/ first), so the thread is the one sending (test/webhooks/ runs from the
// sources, where attempts go in line). A receiver gets the same requests, the delivery log records the same, and an
// attempt cut short here (its time-out, the sandbox closing) is cut in the thread too: its connection is closed.
import { createServer, type Socket } from 'node:net';
import { expect, onTestFinished, test } from 'vitest';
import { verifyWebhookSignature } from '../../src/webhooks/signature';
import { DEFAULT } from '../helpers/harness';
import { startReceiver } from '../helpers/receiver';

type Built = typeof import('../../src/index');
const DIST_INDEX = new URL('../../dist/index.js', import.meta.url);

async function builtSandbox(webhookUrl: string, webhookTimeoutMs?: number) {
  const { createSandbox } = (await import(DIST_INDEX.href)) as Built;
  const sb = await createSandbox({ log: () => {}, webhookUrl, ...(webhookTimeoutMs === undefined ? {} : { webhookTimeoutMs }) });
  onTestFinished(() => sb.close());
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await sb.app.request(`/_sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const paidCharge = async () => {
    const charge = await call('POST', `/accounts/${DEFAULT.accountId}/charges`, { amount: 10, description: 'sent from the thread' });
    expect(charge.status, JSON.stringify(charge.body)).toBe(201);
    expect((await call('POST', `/transactions/${charge.body.id}/pay`)).status).toBe(200);
    return charge.body.id as string;
  };
  const deliveries = async () => (await call('GET', `/accounts/${DEFAULT.accountId}/deliveries?limit=100`)).body.items as any[];
  return { sb, call, paidCharge, deliveries };
}

/** A receiver that reads requests and never answers; `closed` resolves when the sandbox closes its first connection. */
async function silentReceiver() {
  let received!: () => void;
  let closed!: () => void;
  const got = new Promise<void>((r) => (received = r));
  const gone = new Promise<void>((r) => (closed = r));
  const server = createServer((socket: Socket) => {
    socket.on('data', () => received());
    socket.on('close', () => closed());
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onTestFinished(() => void server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, received: got, closed: gone };
}

test('twenty payments at once: each delivery arrives once, signed over its bytes, and the log records it as sent', async () => {
  const receiver = await startReceiver();
  onTestFinished(() => receiver.close());
  const { call, paidCharge, deliveries } = await builtSandbox(`${receiver.url}/hook`);
  const ids = await Promise.all(Array.from({ length: 20 }, paidCharge));
  expect((await call('POST', '/settle')).status).toBe(200);
  expect(receiver.requests.map((r) => r.body.data.transactionId).sort()).toEqual([...ids].sort());
  for (const r of receiver.requests) expect(verifyWebhookSignature(r.raw, r.headers['x-service-signature'] as string, DEFAULT.webhookSecret)).toBe(true);
  const log = await deliveries();
  expect(log).toHaveLength(20);
  for (const d of log) {
    expect(d).toMatchObject({ state: 'succeeded', attempts: [{ statusCode: 200, error: null, responseBody: 'ok' }] });
    expect(receiver.requests.filter((r) => r.headers['x-service-webhook-id'] === d.id)).toHaveLength(1);
  }
});

test('an attempt with no answer in time fails with its time-out, and the thread closes its connection', async () => {
  const receiver = await silentReceiver();
  // The time-out runs from the attempt's send, so it also covers starting the thread and loading the HTTP client in
  // it (a few hundred ms on a busy machine): long enough for the request to reach the receiver first.
  const { call, paidCharge, deliveries } = await builtSandbox(receiver.url, 2000);
  await paidCharge();
  await receiver.received;
  expect((await call('POST', '/settle')).status).toBe(200);
  expect(await deliveries()).toMatchObject([{ state: 'pending', attempts: [{ statusCode: null, error: 'no answer within 2000 ms' }] }]);
  await receiver.closed; // never resolves (the test times out) if the attempt were left waiting in the thread
});

test('a close during an attempt ends it at once, and its connection with it', async () => {
  const receiver = await silentReceiver();
  const { sb, paidCharge } = await builtSandbox(receiver.url);
  await paidCharge();
  await receiver.received;
  await sb.close(); // the default time-out is 10 s: this does not wait for it
  await receiver.closed;
});
