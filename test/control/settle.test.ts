// POST /_sandbox/settle (sandbox.md 4.10): answers once no job is due and no delivery attempt is in flight, or 504
// SETTLE_TIMEOUT naming what is still in flight. Receivers are real (127.0.0.1, port 0).
import { describe, expect, test } from 'vitest';
import { startHarness } from '../helpers/harness';
import { act, deliveries, newCharge, withReceiver } from '../helpers/webhooks';

describe('POST /_sandbox/settle', () => {
  test('answers {settled: true} at once when nothing is due or in flight (no body needed)', async () => {
    const h = await startHarness();
    const res = await h.api('POST', '/_sandbox/settle');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ settled: true });
  });

  test('answers only after the delivery of a payment made just before was attempted and recorded', async () => {
    const { h, receiver } = await withReceiver();
    const id = await newCharge(h);
    await act(h, id, 'pay');
    const res = await h.control('POST', '/settle', { timeoutMs: 5000 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ settled: true });
    // Settled means the receiver got it and the attempt is in the log, without waiting for anything else.
    expect(receiver.requests).toHaveLength(1);
    const [d] = await deliveries(h);
    expect(d).toMatchObject({ eventId: id, state: 'succeeded', attempts: [{ statusCode: 200, error: null }] });
  });

  test('waits for a failed attempt too, and leaves its retry for its time on the sandbox clock', async () => {
    const { h, receiver } = await withReceiver();
    receiver.answer(500);
    await act(h, await newCharge(h), 'pay');
    const res = await h.control('POST', '/settle');
    expect(res.status, res.text).toBe(200);
    const [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'pending', attempts: [{ statusCode: 500 }] });
    expect(d.nextAttemptAt).not.toBeNull();
  });

  test('answers 504 SETTLE_TIMEOUT naming the delivery still in flight when the receiver does not answer in time', async () => {
    // The receiver hangs; the sandbox's own webhook time-out (injected) is longer than the settle time-out.
    const { h, receiver } = await withReceiver({ webhookTimeoutMs: 5000 });
    receiver.answer('hang');
    await act(h, await newCharge(h), 'pay');
    await receiver.next(); // the attempt is in flight now
    const res = await h.control('POST', '/settle', { timeoutMs: 50 });
    expect(res.status, res.text).toBe(504);
    const [d] = await deliveries(h);
    expect(res.body).toMatchObject({
      statusCode: 504,
      error: 'GatewayTimeout',
      message: expect.stringContaining('Not settled within 50 ms'),
      details: { code: 'SETTLE_TIMEOUT', timeoutMs: 50, inFlight: [d.id], dueJobs: 0 },
    });
    expect(d).toMatchObject({ state: 'pending', attempts: [] });
  });

  test('settles once the hanging attempt times out on the webhook time-out, and records it as failed', async () => {
    const { h, receiver } = await withReceiver({ webhookTimeoutMs: 100 });
    receiver.answer('hang');
    await act(h, await newCharge(h), 'pay');
    const res = await h.control('POST', '/settle', { timeoutMs: 5000 });
    expect(res.status, res.text).toBe(200);
    const [d] = await deliveries(h);
    expect(d.attempts).toMatchObject([{ statusCode: null, error: 'no answer within 100 ms' }]);
  });

  test.each([
    [{ timeoutMs: 0 }, 'timeoutMs', 'must be at least 1'],
    [{ timeoutMs: 120_001 }, 'timeoutMs', 'must be at most 120000 (2 minutes)'],
    [{ timeoutMs: 1.5 }, 'timeoutMs', 'must be a whole number of milliseconds'],
  ])('refuses %j with 400 VALIDATION_ERROR on %s', async (body, field, message) => {
    const h = await startHarness();
    const res = await h.control('POST', '/settle', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ field, message }] });
  });

  test('needs X-Sandbox-Token when an admin token is set', async () => {
    const h = await startHarness({ adminToken: 'settle-admin-token' });
    expect((await h.api('POST', '/_sandbox/settle')).status).toBe(401);
    const ok = await h.api('POST', '/_sandbox/settle', { headers: { 'x-sandbox-token': 'settle-admin-token' } });
    expect(ok.status, ok.text).toBe(200);
  });

  test('is documented in /openapi.json with its 504', async () => {
    const h = await startHarness();
    const doc = (await h.api('GET', '/openapi.json')).body;
    const op = doc.paths['/_sandbox/settle'].post;
    expect(op.operationId).toBe('settleSandbox');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '504']));
  });
});
