import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness } from '../helpers/harness';

const body = { amount: 10, description: 'Idempotent charge' };
const payments = (h: Awaited<ReturnType<typeof startHarness>>) =>
  Object.values(h.sb.deps.store.account(DEFAULT.accountId).transactions).filter((t) => t.type === 'payment');

describe('Idempotency-Key on POST /v2/pix', () => {
  test('a retry with the same key and body replays the first answer, marked Idempotent-Replayed', async () => {
    const h = await startHarness();
    const headers = { 'Idempotency-Key': 'order-0001-attempt' };
    const first = await h.v2('POST', '/pix', { body, headers });
    const again = await h.v2('POST', '/pix', { body: { description: 'Idempotent charge', amount: 10.0 }, headers });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(payments(h)).toHaveLength(1);
  });

  test('the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const h = await startHarness();
    const headers = { 'Idempotency-Key': 'order-0002-attempt' };
    await h.v2('POST', '/pix', { body, headers });
    const res = await h.v2('POST', '/pix', { body: { ...body, amount: 11 }, headers });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({ statusCode: 422, error: 'UnprocessableEntity', details: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(payments(h)).toHaveLength(1);
  });

  test('the same key from another wallet (X-Sub-Account) is a different request: 422', async () => {
    const h = await startHarness();
    const headers = { 'Idempotency-Key': 'order-0003-attempt' };
    await h.v2('POST', '/pix', { body, headers });
    const res = await h.v2('POST', '/pix', { body, headers, subAccount: 'loja-centro' });
    expect(res.status, res.text).toBe(422);
  });

  test('after 24 h of sandbox clock the key is forgotten and makes a new charge', async () => {
    const h = await startHarness();
    const headers = { 'Idempotency-Key': 'order-0004-attempt' };
    const first = await h.v2('POST', '/pix', { body: { ...body, expiresIn: 604800 }, headers });
    await h.advance(24 * 3600 - 1);
    const replay = await h.v2('POST', '/pix', { body: { ...body, expiresIn: 604800 }, headers });
    expect(replay.body.id).toBe(first.body.id);
    await h.advance(1);
    const fresh = await h.v2('POST', '/pix', { body: { ...body, expiresIn: 604800 }, headers });
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.body.id).not.toBe(first.body.id);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  test('a failed request is not remembered: the retry with the same key is a fresh attempt', async () => {
    const h = await startHarness();
    const headers = { 'Idempotency-Key': 'order-0005-attempt' };
    const failed = await h.v2('POST', '/pix', { body: { ...body, pspCredentialId: DEFAULT.institutionDown }, headers });
    expect(failed.status).toBe(503);
    const ok = await h.v2('POST', '/pix', { body, headers });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
  });

  test('concurrent requests with one key create one charge and all get its answer', async () => {
    const h = await startHarness();
    const token = await h.token();
    const headers = { 'Idempotency-Key': 'order-0006-attempt' };
    const results = await Promise.all(Array.from({ length: 10 }, () => h.api('POST', '/v2/pix', { body, headers, token })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(payments(h)).toHaveLength(1);
  });

  test.each([
    ['shorter than 8', 'short'],
    ['longer than 255', 'k'.repeat(256)],
  ])('a key %s is 400 naming Idempotency-Key', async (_n, key) => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body, headers: { 'Idempotency-Key': key } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields[0].field).toBe('Idempotency-Key');
  });

  test('GET /v2/transactions/{id} resolves the Idempotency-Key used at creation', async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body, headers: { 'Idempotency-Key': 'lookup-key-0001' } });
    const res = await h.v2('GET', '/transactions/lookup-key-0001');
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(created.body.id);
  });
});
