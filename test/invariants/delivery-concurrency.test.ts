// sandbox.md 4.10: delivery attempts run side by side (a bounded number in flight, each still limited by the timeout),
// so settling or advancing the clock takes about as long as the slowest attempt, not their sum. Measured in real time
// against receivers that accept and never answer; nothing sleeps.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_IN_FLIGHT } from '../../src/webhooks/dispatcher';
import { DEFAULT, startHarness, T0 } from '../helpers/harness';
import { paidCharge } from '../helpers/money';

const TIMEOUT_MS = 1000;
const servers: { server: Server; sockets: Set<Socket> }[] = [];

/** A server on port 0 that takes every request and never answers. */
async function silentServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer(() => {});
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ server, sockets });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const { server, sockets } of servers.splice(0)) {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function threeSilentEndpoints() {
  const h = await startHarness({ webhookTimeoutMs: TIMEOUT_MS });
  await h.control('DELETE', `/webhooks/${DEFAULT.webhookId}`);
  for (let i = 0; i < 3; i++) {
    const res = await h.control('POST', `/accounts/${DEFAULT.accountId}/webhooks`, { url: `${await silentServer()}/hook-${i}` });
    expect(res.status, res.text).toBe(201);
  }
  return h;
}

const timedOut = (d: { attempts: { error: string | null }[] }) => d.attempts.every((a) => a.error === `no answer within ${TIMEOUT_MS} ms`);

describe('delivery attempts run side by side', () => {
  test('settle() after a payment to 3 endpoints that never answer returns in about one timeout, not three', async () => {
    const h = await threeSilentEndpoints();
    await paidCharge(h);
    const started = performance.now();
    await h.sb.settle();
    const elapsed = performance.now() - started;
    const deliveries = (await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries`)).body.items;
    expect(deliveries).toHaveLength(3);
    expect(deliveries.every((d: { attempts: unknown[] }) => d.attempts.length === 1)).toBe(true);
    expect(deliveries.every(timedOut), JSON.stringify(deliveries)).toBe(true);
    expect(elapsed, `settle took ${Math.round(elapsed)} ms`).toBeLessThan(2 * TIMEOUT_MS);
  });

  test('one advance over payments at three instants (9 attempts that never get an answer) takes about one timeout, not three', async () => {
    const h = await threeSilentEndpoints();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { webhookRetrySchedule: [] }); // one attempt each
    for (const seconds of [10, 20, 30]) {
      // Paid by automation 10 s, 20 s and 30 s from now: three instants the advance walks through.
      expect((await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { autoPayAfterSeconds: seconds } })).status).toBe(200);
      expect((await h.v2('POST', '/pix', { body: { amount: 10, description: `paid after ${seconds} s` } })).status).toBe(201);
    }
    const started = performance.now();
    const advanced = await h.advance(60);
    await h.sb.settle();
    const elapsed = performance.now() - started;
    expect(advanced.status, advanced.text).toBe(200);
    const deliveries = (await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries`)).body.items;
    expect(deliveries).toHaveLength(9);
    expect(deliveries.every(timedOut), JSON.stringify(deliveries)).toBe(true);
    // Each attempt is recorded at the instant its event was made.
    expect(deliveries.map((d: { attempts: { at: string }[] }) => d.attempts[0]!.at).sort()).toEqual(
      [10, 20, 30].flatMap((s) => Array(3).fill(new Date(Date.parse('2026-03-10T12:00:00.000Z') + s * 1000).toISOString())),
    );
    expect(elapsed, `took ${Math.round(elapsed)} ms`).toBeLessThan(2 * TIMEOUT_MS);
  });

  test(`at most ${MAX_IN_FLIGHT} attempts send at once; the others wait for a slot and then get their own full timeout`, async () => {
    let active = 0;
    let peak = 0;
    // A receiver that never answers, seen from the sandbox's side: the fetch ends only when the sandbox aborts it.
    const fetch = (_url: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        active++;
        peak = Math.max(peak, active);
        init!.signal!.addEventListener('abort', () => {
          active--;
          reject(init!.signal!.reason);
        });
      });
    const h = await startHarness({ webhookTimeoutMs: 200, fetch: fetch as typeof globalThis.fetch });
    const endpoints = MAX_IN_FLIGHT + 8;
    for (let i = 0; i < endpoints; i++) await h.control('POST', `/accounts/${DEFAULT.accountId}/webhooks`, { url: `http://127.0.0.1:9/hook-${i}` });
    await h.control('DELETE', `/webhooks/${DEFAULT.webhookId}`);
    await paidCharge(h);
    await h.sb.settle();
    expect(peak).toBe(MAX_IN_FLIGHT);
    const deliveries = (await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries?limit=100`)).body.items;
    expect(deliveries).toHaveLength(endpoints);
    expect(deliveries.every((d: { attempts: { error: string | null }[] }) => d.attempts.length === 1 && d.attempts[0]!.error === 'no answer within 200 ms')).toBe(true);
  });

  test('a retry that waited for its previous attempt during an advance is a change of its own: its next retry survives a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-retry-'));
    try {
      const dataFile = join(dir, 'state.json');
      const url = `${await silentServer()}/hook`;
      const h = await startHarness({ dataFile, webhookUrl: url, webhookTimeoutMs: 300 });
      await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { webhookRetrySchedule: [1, 60] });
      h.sb.deps.scheduler.stop(); // the first attempt goes out in the advance, not on its own
      await paidCharge(h);
      await h.advance(2); // attempt 1 at T0 (no answer for 300 ms); the retry at T0 + 1 s waits for it, then goes
      const [delivery] = (await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries`)).body.items;
      expect(delivery.attempts.map((a: { at: string }) => a.at)).toEqual([T0, new Date(Date.parse(T0) + 1000).toISOString()]);
      await h.sb.close();

      const again = await startHarness({ dataFile, webhookUrl: url, webhookTimeoutMs: 300 });
      const jobs = Object.values(again.sb.deps.store.state.jobs).filter((j) => j.ref === delivery.id);
      expect(jobs.map((j) => j.dueAt)).toEqual([Date.parse(T0) + 61_000]);
      await again.sb.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
