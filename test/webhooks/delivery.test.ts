import { describe, expect, test } from 'vitest';
import { verifyWebhookSignature } from '../../src/index';
import { DEFAULT, T0 } from '../helpers/harness';
import { act, at, deliveries, hmac, newCharge, withReceiver } from '../helpers/webhooks';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('a delivery', () => {
  test('is a POST with the headers of 6.3 and a signature over the exact body bytes, made when the event was', async () => {
    const { h, receiver } = await withReceiver();
    const id = await newCharge(h, { body: { metadata: { loja: 'São Paulo ☕', nota: 'ação' } } });
    await act(h, id, 'pay');
    const r = await receiver.next();

    expect(r.method).toBe('POST');
    expect(r.path).toBe('/hook');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toBe('Service-Webhook/1.0');
    expect(r.headers['x-service-event']).toBe('payment_completed');
    expect(r.headers['x-service-webhook-id']).toMatch(UUID);
    expect(r.headers['x-service-timestamp']).toBe(String(Date.parse(T0)));
    // Signature checked independently of the sandbox's code, over the raw bytes received (non-ASCII included).
    expect(r.headers['x-service-signature']).toBe(hmac(DEFAULT.webhookSecret, r.raw));
    const event = h.sb.deps.store.state.accounts[DEFAULT.accountId]!.events[0]!;
    expect(r.raw.equals(Buffer.from(event.body, 'utf8'))).toBe(true);
    expect(verifyWebhookSignature(r.raw, r.headers['x-service-signature'] as string, DEFAULT.webhookSecret)).toBe(true);

    expect(r.body).toMatchObject({ event: 'payment_completed', eventId: id, timestamp: T0, subAccount: null, data: { transactionId: id, status: 'completed', metadata: { loja: 'São Paulo ☕' } } });
    expect(Object.keys(r.body)).toEqual(['event', 'eventId', 'timestamp', 'subAccount', 'data']);
  });

  test('goes out on a frozen clock with no further call: nobody advances the clock or sends another request', async () => {
    const { h, receiver } = await withReceiver();
    const id = await newCharge(h);
    await act(h, id, 'pay');
    const r = await receiver.next();
    expect(r.body.eventId).toBe(id);
    expect(h.sb.deps.clock.iso()).toBe(T0);
  });

  test('is logged with its attempt: time, status code, duration, no error, state succeeded', async () => {
    const { h, receiver } = await withReceiver();
    const id = await newCharge(h);
    await act(h, id, 'pay');
    const r = await receiver.next();
    await h.sb.settle();
    const [d] = await deliveries(h);
    expect(d).toMatchObject({
      id: r.headers['x-service-webhook-id'],
      event: 'payment_completed',
      eventId: id,
      subAccount: null,
      endpoint: { id: DEFAULT.webhookId, url: `${receiver.url}/hook` },
      state: 'succeeded',
      createdAt: T0,
      nextAttemptAt: null,
      replayOf: null,
      attempts: [{ at: T0, statusCode: 200, durationMs: expect.any(Number), error: null }],
    });
  });

  test('of payment_expired (control action expire) carries eventId payment_expired_<id>', async () => {
    const { h, receiver } = await withReceiver();
    const id = await newCharge(h);
    await act(h, id, 'expire');
    const r = await receiver.next();
    expect(r.headers['x-service-event']).toBe('payment_expired');
    expect(r.body).toMatchObject({ event: 'payment_expired', eventId: `payment_expired_${id}`, data: { transactionId: id, status: 'expired', feeAmount: 0, netAmount: 0 } });
  });

  test('of an expiry reached by advancing the clock has been attempted when the advance answers', async () => {
    const { h, receiver } = await withReceiver();
    const id = await newCharge(h, { body: { expiresIn: 300 } });
    const res = await h.advance(301);
    expect(res.status, res.text).toBe(200);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.body).toMatchObject({ eventId: `payment_expired_${id}`, timestamp: at(T0, 300) });
    expect(receiver.requests[0]!.headers['x-service-timestamp']).toBe(String(Date.parse(T0) + 300_000));
    expect((await deliveries(h))[0].state).toBe('succeeded');
  });

  test('goes to every endpoint that takes the event, each with its own delivery id and its own secret', async () => {
    const { h, receiver } = await withReceiver();
    const other = await h.control('POST', `/accounts/${DEFAULT.accountId}/webhooks`, { url: `${receiver.url}/other`, secret: 'whsec_other_endpoint_secret' });
    expect(other.status, other.text).toBe(201);
    await act(h, await newCharge(h), 'pay');
    const got = await receiver.waitFor(2);
    await h.sb.settle();
    const byPath = Object.fromEntries(got.map((r) => [r.path, r]));
    expect(Object.keys(byPath).sort()).toEqual(['/hook', '/other']);
    expect(byPath['/hook']!.headers['x-service-signature']).toBe(hmac(DEFAULT.webhookSecret, byPath['/hook']!.raw));
    expect(byPath['/other']!.headers['x-service-signature']).toBe(hmac('whsec_other_endpoint_secret', byPath['/other']!.raw));
    expect(byPath['/hook']!.headers['x-service-webhook-id']).not.toBe(byPath['/other']!.headers['x-service-webhook-id']);
    expect(byPath['/hook']!.raw.equals(byPath['/other']!.raw)).toBe(true);
    expect(receiver.requests).toHaveLength(2);
  });

  test('is not made for an endpoint without a URL (the default one until changed); the event is still recorded', async () => {
    const { h, receiver } = await withReceiver({ webhookUrl: undefined });
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    expect(await deliveries(h)).toEqual([]);
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}/events`)).body.total).toBe(1);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('routing', () => {
  // Endpoints: /hook (main, all kinds; the default one), /centro (loja-centro, all kinds), /norte (loja-norte, payment_expired only).
  test.each([
    ['the main account', undefined, 'pay', ['/hook'], null],
    ['a sub-account with its own endpoint', 'loja-centro', 'pay', ['/centro'], 'loja-centro'],
    ['a sub-account with its own endpoint, a kind it takes', 'loja-norte', 'expire', ['/norte'], 'loja-norte'],
    ["a sub-account whose endpoint does not take the kind: the main account's", 'loja-norte', 'pay', ['/hook'], 'loja-norte'],
  ])('an event of %s (%s, %s) goes to %j with subAccount %j', async (_what, subAccount, action, paths, expectedSub) => {
    const { h, receiver } = await withReceiver();
    for (const spec of [
      { url: `${receiver.url}/centro`, subAccount: 'loja-centro' },
      { url: `${receiver.url}/norte`, subAccount: 'loja-norte', events: ['payment_expired'] },
    ]) {
      const res = await h.control('POST', `/accounts/${DEFAULT.accountId}/webhooks`, spec);
      expect(res.status, res.text).toBe(201);
    }
    await act(h, await newCharge(h, subAccount ? { subAccount } : {}), action);
    await h.sb.settle();
    expect(receiver.requests.map((r) => r.path)).toEqual(paths);
    expect(receiver.requests[0]!.body.subAccount).toBe(expectedSub);
  });

  test('a sub-account without an endpoint of its own falls back to the main account, with subAccount set', async () => {
    const { h, receiver } = await withReceiver();
    await act(h, await newCharge(h, { subAccount: 'loja-norte' }), 'pay');
    const r = await receiver.next();
    expect(r.path).toBe('/hook');
    expect(r.body.subAccount).toBe('loja-norte');
  });

  test('an endpoint with events set receives only those kinds', async () => {
    const { h, receiver } = await withReceiver();
    await h.control('PATCH', `/webhooks/${DEFAULT.webhookId}`, { events: ['payment_expired'] });
    await act(h, await newCharge(h), 'pay');
    await act(h, await newCharge(h), 'expire');
    await h.sb.settle();
    expect(receiver.requests.map((r) => r.headers['x-service-event'])).toEqual(['payment_expired']);
  });

  test('only the originator is notified of a charge: split recipients are not', async () => {
    const { h, receiver } = await withReceiver();
    await h.control('POST', `/accounts/${DEFAULT.accountId}/webhooks`, { url: `${receiver.url}/centro`, subAccount: 'loja-centro' });
    await act(h, await newCharge(h, { body: { split: [{ subAccount: 'loja-centro', amount: 30 }] } }), 'pay');
    await h.sb.settle();
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
  });
});
