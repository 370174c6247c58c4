// Tenants with a clock of their own (sandbox.md 4.6), and what a test reads of one tenant's history.
import { expect } from 'vitest';
import type { Harness } from '../helpers/harness';

export interface Tenant {
  id: string;
  token: string;
}

/** Creates a tenant (its own clock unless `clock` is null) with an endpoint at `hook`, and takes a token for it. */
export async function newTenant(h: Harness, name: string, opts: { clock?: Record<string, unknown> | null; hook?: string } = {}): Promise<Tenant> {
  const res = await h.control('POST', '/accounts', {
    name,
    ...(opts.clock === null ? {} : { clock: opts.clock ?? {} }),
    ...(opts.hook ? { webhooks: [{ url: opts.hook }] } : {}),
  });
  expect(res.status, res.text).toBe(201);
  const { clientId, clientSecret } = res.body.credentials[0];
  const auth = await h.api('POST', '/v2/auth', { body: { client_id: clientId, client_secret: clientSecret } });
  expect(auth.status, auth.text).toBe(200);
  return { id: res.body.id, token: auth.body.access_token };
}

export async function chargeOf(h: Harness, t: Tenant, expiresIn: number, description = 'tenant clock'): Promise<string> {
  const res = await h.api('POST', '/v2/pix', { token: t.token, body: { amount: 10, description, expiresIn } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

export const advanceTenant = (h: Harness, t: Tenant | string, seconds: unknown) => h.control('POST', `/accounts/${typeof t === 'string' ? t : t.id}/clock/advance`, { seconds });

export async function clockOf(h: Harness, t: Tenant | string) {
  const res = await h.control('GET', `/accounts/${typeof t === 'string' ? t : t.id}/clock`);
  expect(res.status, res.text).toBe(200);
  return res.body as { now: string; frozen: boolean; own: boolean };
}

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

async function items(h: Harness, path: string): Promise<any[]> {
  const res = await h.control('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

/**
 * What happened to a tenant, without its generated ids: its charges (by description), its events and its deliveries
 * with every attempt's time, and its clock.
 */
export async function historyOf(h: Harness, t: Tenant) {
  const txs = await items(h, `/accounts/${t.id}/transactions`);
  const events = await items(h, `/accounts/${t.id}/events`);
  const deliveries = await items(h, `/accounts/${t.id}/deliveries`);
  return {
    clock: await clockOf(h, t),
    transactions: txs.map((x) => [String(x.description).replace(UUIDS, '<id>'), x.status, x.createdAt, x.updatedAt]).sort((a, b) => String(a).localeCompare(String(b))),
    events: events.map((e) => [e.event, e.createdAt]).sort((a, b) => String(a).localeCompare(String(b))),
    deliveries: deliveries.map((d) => [d.event, d.state, d.nextAttemptAt, (d.attempts as { at: string }[]).map((a) => a.at)]).sort((a, b) => String(a).localeCompare(String(b))),
  };
}
