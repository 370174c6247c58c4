import { describe, expect, test } from 'vitest';
import { DEFAULT, T0, startHarness } from '../helpers/harness';
import { act, at, deliveries, hmac, newCharge, withReceiver } from '../helpers/webhooks';

const ACCOUNT = DEFAULT.accountId;

describe('registering endpoints (POST /_sandbox/accounts/{id}/webhooks)', () => {
  test('answers 201 with a generated whsec_ secret, which no other answer shows', async () => {
    const h = await startHarness();
    const res = await h.control('POST', `/accounts/${ACCOUNT}/webhooks`, { url: 'http://127.0.0.1:9/hooks' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), url: 'http://127.0.0.1:9/hooks', subAccount: null, events: [], createdAt: T0, secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32}$/) });

    const list = await h.control('GET', `/accounts/${ACCOUNT}/webhooks`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((w: { id: string }) => w.id)).toEqual([DEFAULT.webhookId, res.body.id]);
    expect(list.text).not.toContain('secret');
    expect((await h.control('GET', `/accounts/${ACCOUNT}`)).text).not.toContain(res.body.secret);
  });

  test('keeps a given secret and signs deliveries with it; a sub-account endpoint takes that sub-account', async () => {
    const { h, receiver } = await withReceiver();
    const res = await h.control('POST', `/accounts/${ACCOUNT}/webhooks`, { url: `${receiver.url}/centro`, subAccount: 'loja-centro', secret: 'my-own-secret-123', events: ['payment_completed'] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ subAccount: 'loja-centro', events: ['payment_completed'], secret: 'my-own-secret-123' });
    await act(h, await newCharge(h, { subAccount: 'loja-centro' }), 'pay');
    const r = await receiver.next();
    expect(r.path).toBe('/centro');
    expect(r.headers['x-service-signature']).toBe(hmac('my-own-secret-123', r.raw));
  });

  test.each([
    ['a URL that is not http(s)', { url: 'ftp://127.0.0.1/hooks' }, 'url', /http\(s\) URL/],
    ['something that is not a URL', { url: 'hooks please' }, 'url', /http\(s\) URL/],
    ['no url', {}, 'url', /required/],
    ['an unknown event kind', { url: 'http://127.0.0.1:9/', events: ['payment_done'] }, 'events[0]', /must be one of payment_completed/],
    ['a secret shorter than 8', { url: 'http://127.0.0.1:9/', secret: 'short' }, 'secret', /at least 8/],
    ['an unknown sub-account', { url: 'http://127.0.0.1:9/', subAccount: 'loja-sul' }, 'subAccount', /'loja-sul' is not a sub-account of this account; use one of: loja-centro, loja-norte, loja-fechada/],
  ])('refuses %s with 400 VALIDATION_ERROR naming the field', async (_what, body, field, message) => {
    const h = await startHarness();
    const res = await h.control('POST', `/accounts/${ACCOUNT}/webhooks`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields).toEqual([{ field, message: expect.stringMatching(message) }]);
    expect((await h.control('GET', `/accounts/${ACCOUNT}/webhooks`)).body.items).toHaveLength(1);
  });

  test('an unknown sub-account in POST /_sandbox/accounts webhooks is a 400 naming webhooks[i].subAccount', async () => {
    const h = await startHarness();
    const res = await h.control('POST', '/accounts', { webhooks: [{ url: null }, { url: 'http://127.0.0.1:9/', subAccount: 'nope' }] });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields).toEqual([{ field: 'webhooks[1].subAccount', message: expect.stringContaining("'nope' is not a sub-account") }]);
  });

  test('an unknown account is a 404', async () => {
    const h = await startHarness();
    const res = await h.control('POST', '/accounts/00000000-0000-4000-8000-000000000000/webhooks', { url: 'http://127.0.0.1:9/' });
    expect(res.status, res.text).toBe(404);
    expect(res.body.details.code).toBe('ACCOUNT_NOT_FOUND');
  });
});

describe('changing and deleting endpoints', () => {
  test('PATCH points the default endpoint somewhere; its deliveries are signed with the known default secret', async () => {
    const { h, receiver } = await withReceiver({ webhookUrl: undefined });
    const res = await h.control('PATCH', `/webhooks/${DEFAULT.webhookId}`, { url: `${receiver.url}/now-here` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: DEFAULT.webhookId, url: `${receiver.url}/now-here`, subAccount: null, events: [], createdAt: T0 });
    await act(h, await newCharge(h), 'pay');
    const r = await receiver.next();
    expect(r.path).toBe('/now-here');
    expect(r.headers['x-service-signature']).toBe(hmac('whsec_sandbox_default_secret', r.raw));
  });

  test('a pending retry goes to the URL the endpoint has at the time of the retry', async () => {
    const { h, receiver } = await withReceiver();
    receiver.answer((r) => (r.path === '/hook' ? 500 : 200));
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    await h.control('PATCH', `/webhooks/${DEFAULT.webhookId}`, { url: `${receiver.url}/fixed` });
    await h.advance(5);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook', '/fixed']);
    expect((await deliveries(h))[0]).toMatchObject({ state: 'succeeded', endpoint: { url: `${receiver.url}/fixed` } });
  });

  test('a pending retry of an endpoint set back to no URL is a failed attempt that says so', async () => {
    const { h, receiver } = await withReceiver();
    receiver.answer(500);
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    await h.control('PATCH', `/webhooks/${DEFAULT.webhookId}`, { url: null });
    await h.advance(5);
    const [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'pending', nextAttemptAt: at(T0, 35) });
    expect(d.attempts[1]).toMatchObject({ at: at(T0, 5), statusCode: null, error: expect.stringContaining('has no URL; set one with PATCH /_sandbox/webhooks/') });
  });

  test('DELETE removes an endpoint; its pending delivery ends failed at its next attempt, saying why', async () => {
    const { h, receiver } = await withReceiver();
    receiver.answer(500);
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    const del = await h.control('DELETE', `/webhooks/${DEFAULT.webhookId}`);
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ id: DEFAULT.webhookId, deleted: true });
    expect((await h.control('GET', `/accounts/${ACCOUNT}/webhooks`)).body.items).toEqual([]);
    await h.advance(5);
    expect(receiver.requests).toHaveLength(1);
    expect((await deliveries(h))[0]).toMatchObject({ state: 'failed', nextAttemptAt: null, attempts: [{ statusCode: 500 }, { statusCode: null, error: 'the endpoint was deleted' }] });
  });

  test.each([
    ['PATCH', { url: 'http://127.0.0.1:9/' }],
    ['DELETE', undefined],
  ])('%s of an unknown endpoint is a 404 WEBHOOK_NOT_FOUND', async (method, body) => {
    const h = await startHarness();
    const res = await h.control(method, '/webhooks/nope', body);
    expect(res.status, res.text).toBe(404);
    expect(res.body.details.code).toBe('WEBHOOK_NOT_FOUND');
  });

  test('PATCH refuses a URL that is not http(s), naming url', async () => {
    const h = await startHarness();
    const res = await h.control('PATCH', `/webhooks/${DEFAULT.webhookId}`, { url: 'mailto:ops@example.com' });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields[0].field).toBe('url');
  });
});

describe('the delivery log and replay', () => {
  test('GET deliveries filters by state, event and eventId; an unknown state is a 400', async () => {
    const { h, receiver } = await withReceiver();
    receiver.answer((r) => (r.body.event === 'payment_expired' ? 500 : 200));
    const paid = await newCharge(h);
    await act(h, paid, 'pay');
    await act(h, await newCharge(h), 'expire');
    await h.sb.settle();
    expect((await deliveries(h)).map((d) => d.state)).toEqual(['succeeded', 'pending']);
    expect((await deliveries(h, '?state=pending')).map((d) => d.event)).toEqual(['payment_expired']);
    expect((await deliveries(h, '?event=payment_completed')).map((d) => d.eventId)).toEqual([paid]);
    expect((await deliveries(h, `?eventId=${paid}`)).map((d) => d.state)).toEqual(['succeeded']);
    const bad = await h.control('GET', `/accounts/${ACCOUNT}/deliveries?state=done`);
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.details.fields[0].field).toBe('state');
  });

  test('replay sends the same event again as a new delivery: new X-Service-Webhook-ID, same body and eventId', async () => {
    const { h, receiver } = await withReceiver();
    const id = await newCharge(h);
    await act(h, id, 'pay');
    const first = await receiver.next();
    await h.sb.settle();
    const [original] = await deliveries(h);

    const res = await h.control('POST', `/deliveries/${original.id}/replay`);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ state: 'pending', eventId: id, event: 'payment_completed', replayOf: original.id, endpoint: { id: DEFAULT.webhookId }, attempts: [] });
    expect(res.body.id).not.toBe(original.id);
    const again = await receiver.next();
    expect(again.headers['x-service-webhook-id']).toBe(res.body.id);
    expect(again.raw.equals(first.raw)).toBe(true);
    expect(again.headers['x-service-signature']).toBe(first.headers['x-service-signature']);
    await h.sb.settle();
    const one = await h.control('GET', `/deliveries/${res.body.id}`);
    expect(one.body).toMatchObject({ state: 'succeeded', replayOf: original.id, attempts: [{ statusCode: 200 }] });
  });

  test('a failed delivery can be replayed once the receiver is fixed', async () => {
    const { h, receiver } = await withReceiver();
    await h.control('PATCH', `/accounts/${ACCOUNT}`, { webhookRetrySchedule: [] });
    receiver.answer(500);
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    const [failed] = await deliveries(h, '?state=failed');
    receiver.answer(200);
    const res = await h.control('POST', `/deliveries/${failed.id}/replay`);
    expect(res.status, res.text).toBe(201);
    await h.sb.settle();
    expect((await deliveries(h)).map((d) => d.state)).toEqual(['failed', 'succeeded']);
  });

  test.each([
    ['an unknown delivery', 'unknown', 404, 'DELIVERY_NOT_FOUND'],
    ['a delivery whose endpoint now has no URL', 'no-url', 409, 'WEBHOOK_URL_NOT_SET'],
    ['a delivery whose endpoint was deleted', 'deleted', 404, 'WEBHOOK_NOT_FOUND'],
  ])('replay of %s is refused with %s %s', async (_what, situation, status, code) => {
    const { h } = await withReceiver();
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    const [d] = await deliveries(h);
    if (situation === 'no-url') await h.control('PATCH', `/webhooks/${DEFAULT.webhookId}`, { url: null });
    if (situation === 'deleted') await h.control('DELETE', `/webhooks/${DEFAULT.webhookId}`);
    const res = await h.control('POST', `/deliveries/${situation === 'unknown' ? 'nope' : d.id}/replay`);
    expect(res.status, res.text).toBe(status);
    expect(res.body.details.code).toBe(code);
  });
});
