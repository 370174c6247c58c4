// A sandbox (frozen clock, default fixtures) whose default endpoint points at a fresh real receiver, both closed when
// the test finishes; and the few calls webhook tests repeat.
import { createHmac } from 'node:crypto';
import { expect, onTestFinished } from 'vitest';
import type { SandboxOptions } from '../../src/config';
import { DEFAULT, startHarness, type Harness } from './harness';
import { startReceiver, type Receiver } from './receiver';

export async function withReceiver(options: SandboxOptions = {}): Promise<{ h: Harness; receiver: Receiver }> {
  const receiver = await startReceiver();
  const h = await startHarness({ webhookUrl: `${receiver.url}/hook`, ...options });
  onTestFinished(async () => {
    await h.sb.close();
    await receiver.close();
  });
  return { h, receiver };
}

/** Creates a PIX charge (as the main account, or as `subAccount`) and returns its id. */
export async function newCharge(h: Harness, opts: { subAccount?: string; body?: Record<string, unknown> } = {}): Promise<string> {
  const res = await h.v2('POST', '/pix', { body: { amount: 100, description: 'webhook test', ...opts.body }, ...(opts.subAccount ? { subAccount: opts.subAccount } : {}) });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** Runs a control action (pay, expire...) on a transaction and checks it was accepted. */
export async function act(h: Harness, id: string, action: string) {
  const res = await h.control('POST', `/transactions/${id}/${action}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function deliveries(h: Harness, query = ''): Promise<any[]> {
  const res = await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

export const at = (t0: string, seconds: number) => new Date(Date.parse(t0) + seconds * 1000).toISOString();

/** The signature computed here, independently of the sandbox's code, over the bytes the receiver got. */
export const hmac = (secret: string, raw: Buffer) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
