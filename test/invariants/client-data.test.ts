// sandbox.md 2.8: what a client sends in metadata comes back key for key (`__proto__` and `constructor` included),
// through GET /v2/transactions/{id}, the events, the webhook bodies and a `--data` restart; an empty string where an
// id is expected is a validation error naming the field, not "absent" or "not found".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createSandbox } from '../../src/app';
import { DEFAULT, startHarness, T0 } from '../helpers/harness';

/** Written as text: a JS object literal would turn `__proto__` into the prototype instead of a key. */
const METADATA = '{"__proto__":{"x":1},"constructor":"c","toString":2,"hasOwnProperty":null,"k":"v"}';
const chargeText = `{"amount":10,"description":"order","metadata":${METADATA}}`;
const withdrawal = { amount: 10, pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Fulano', holderDocument: '52998224725', holderDocumentType: 'cpf' };

describe('metadata comes back key for key', () => {
  test('through GET /v2/transactions/{id}, the payment and refund events, and their webhook bodies', async () => {
    const bodies: string[] = [];
    const h = await startHarness({
      fetch: async (_url, init) => {
        bodies.push(String(init?.body));
        return new Response('ok', { status: 200 });
      },
    });
    await h.control('PATCH', `/webhooks/${DEFAULT.webhookId}`, { url: 'http://127.0.0.1:9/hook' });
    const created = await h.v2('POST', '/pix', { raw: chargeText, contentType: 'application/json' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect((await h.v2('GET', `/transactions/${id}`)).text).toContain(`"metadata":${METADATA}`);

    expect((await h.control('POST', `/transactions/${id}/pay`)).status).toBe(200);
    expect((await h.v2('POST', `/transactions/${id}/refund`, { body: {} })).status).toBe(201);
    await h.advance(2);
    await h.sb.settle();
    const events = await h.control('GET', `/accounts/${DEFAULT.accountId}/events`);
    expect(events.text.split(`"metadata":${METADATA}`)).toHaveLength(3); // payment_completed and refund_completed
    expect(bodies.filter((b) => b.includes(`"metadata":${METADATA}`)), bodies.join('\n')).toHaveLength(2);
  });

  test('across a restart on the same --data file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-meta-'));
    try {
      const file = join(dir, 'state.json');
      const first = await createSandbox({ log: () => {}, dataFile: file, clockStart: T0, freezeClock: true });
      const auth = await first.app.request('/v2/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }) });
      const { access_token: token } = (await auth.json()) as { access_token: string };
      const created = await first.app.request('/v2/pix', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: chargeText });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      await first.close();

      const second = await createSandbox({ log: () => {}, dataFile: file });
      const got = await second.app.request(`/v2/transactions/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(await got.text()).toContain(`"metadata":${METADATA}`);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an empty id is a validation error, not "absent"', () => {
  test.each([
    ['/pix', { amount: 10, description: 'x', projectId: '' }, 'projectId'],
    ['/pix', { amount: 10, description: 'x', pspCredentialId: '' }, 'pspCredentialId'],
    ['/withdrawals', { ...withdrawal, projectId: '' }, 'projectId'],
  ])('POST /v2%s with %j is 400 VALIDATION_ERROR naming the field', async (path, body, field) => {
    const h = await startHarness();
    const before = JSON.stringify(h.sb.deps.store.state.accounts);
    const res = await h.v2('POST', path, { body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields, res.text).toEqual([{ field, message: expect.stringContaining('must not be empty') }]);
    expect(JSON.stringify(h.sb.deps.store.state.accounts)).toBe(before);
  });
});
