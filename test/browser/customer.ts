// Shared by the checkout and payer page tests: make a charge and drive the sandbox from outside the page, through the
// same app the browser talks to (in process, so no second HTTP client is needed).
import { expect } from 'vitest';
import type { Site } from './support';

const FULL = { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' };

export async function call(site: Site, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await site.sb.app.request(path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

/** `call` that must succeed (a 2xx, else the test fails with the answer): its body. */
export async function callOk(site: Site, method: string, path: string, body?: unknown) {
  const res = await call(site, method, path, body);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
}

export interface Charge {
  id: string;
  pixCopyPaste: string;
  qrCodeBase64: string;
  expiresAt: string;
}

export async function createCharge(site: Site, over: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Charge> {
  const auth = await call(site, 'POST', '/v2/auth', FULL);
  expect(auth.status, auth.text).toBe(200);
  const res = await call(site, 'POST', '/v2/pix', { amount: 25.9, description: 'Pedido 1234', ...over }, { authorization: `Bearer ${auth.body.access_token}`, ...headers });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
