import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { DEFAULT, T0, startHarness, type Harness } from '../helpers/harness';
import { startReceiver } from '../helpers/receiver';
import { act, at, deliveries, newCharge, withReceiver } from '../helpers/webhooks';
import { ATTEMPT_JOB } from '../../src/webhooks/dispatcher';

const webhookIds = (rs: { headers: Record<string, unknown> }[]) => new Set(rs.map((r) => r.headers['x-service-webhook-id']));

describe('retries on the sandbox clock', () => {
  test('a 500 is retried 5 s of sandbox clock later, with the same X-Service-Webhook-ID and the same body bytes', async () => {
    const { h, receiver } = await withReceiver();
    receiver.answer(500);
    const id = await newCharge(h);
    await act(h, id, 'pay');
    const first = await receiver.next();
    await h.sb.settle();
    let [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'pending', nextAttemptAt: at(T0, 5), attempts: [{ at: T0, statusCode: 500, error: expect.stringContaining('HTTP 500'), responseBody: 'receiver says 500' }] });

    receiver.answer(200);
    await h.advance(4);
    expect(receiver.requests).toHaveLength(1);
    await h.advance(1);
    expect(receiver.requests).toHaveLength(2);
    const second = receiver.requests[1]!;
    expect(second.headers['x-service-webhook-id']).toBe(first.headers['x-service-webhook-id']);
    expect(second.raw.equals(first.raw)).toBe(true);
    expect(second.headers['x-service-signature']).toBe(first.headers['x-service-signature']);
    expect(second.headers['x-service-timestamp']).toBe(String(Date.parse(T0) + 5000));
    [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'succeeded', nextAttemptAt: null, attempts: [{ statusCode: 500 }, { at: at(T0, 5), statusCode: 200, error: null }] });
  });

  test.each([
    [200, 'succeeded', 0],
    [500, 'pending', 1],
  ])('an attempt answered %i leaves its delivery %s with %i retry job waiting (a success takes its retry off)', async (status, state, retries) => {
    const { h, receiver } = await withReceiver();
    receiver.answer(status);
    const id = await newCharge(h);
    const jobs = async () => ((await h.control('GET', '/health')).body as { pendingJobs: number }).pendingJobs;
    const before = await jobs();
    await act(h, id, 'pay');
    await receiver.next();
    await h.sb.settle();
    const [d] = await deliveries(h);
    expect(d.state).toBe(state);
    expect(await jobs()).toBe(before + retries);
  });

  test.each([
    [200, 'succeeded', null, []],
    [500, 'pending', at(T0, 5), [Date.parse(T0) + 5000]],
  ])("an attempt's job stays in the state while it waits for its answer; the answer %i takes it off (leaving the delivery %s, next at %s)", async (status, state, next, retryJobs) => {
    let answer: ((res: Response) => void) | undefined;
    const h = await startHarness({ webhookUrl: 'http://receiver.test/hook', fetch: () => new Promise<Response>((resolve) => (answer = resolve)) });
    onTestFinished(() => h.sb.close());
    const attemptJobs = () => Object.values(h.sb.deps.store.raw.jobs).filter((j) => j.kind === ATTEMPT_JOB);
    await act(h, await newCharge(h), 'pay');
    await h.sb.deps.scheduler.catchUp(); // the attempt starts and waits for its answer
    expect(answer).toBeDefined();
    let [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'pending', nextAttemptAt: T0, attempts: [] });
    expect(attemptJobs().map((j) => [j.ref, j.dueAt])).toEqual([[d.id, Date.parse(T0)]]);
    answer!(new Response('answered', { status }));
    await h.sb.settle();
    [d] = await deliveries(h);
    expect(d).toMatchObject({ state, nextAttemptAt: next, attempts: [{ at: T0, statusCode: status }] });
    expect(attemptJobs().map((j) => j.dueAt)).toEqual(retryJobs);
  });

  test('an attempt in flight whose job is met again (the queue rebuilt after changes were undone) is not sent twice', async () => {
    const answers: Array<(res: Response) => void> = [];
    const h = await startHarness({ webhookUrl: 'http://receiver.test/hook', fetch: () => new Promise<Response>((resolve) => answers.push(resolve)) });
    onTestFinished(() => h.sb.close());
    const { store, scheduler } = h.sb.deps;
    const attemptJobs = () => Object.values(store.raw.jobs).filter((j) => j.kind === ATTEMPT_JOB).length;
    await act(h, await newCharge(h), 'pay');
    await scheduler.catchUp();
    expect(answers).toHaveLength(1);
    // A unit undone moves the store's epoch: the scheduler rebuilds its queue from the state, the kept job included.
    expect(() => store.atomically('system', () => {
      store.state.version = store.raw.version;
      throw new Error('undone');
    })).toThrow('undone');
    expect(scheduler.anyDue()).toBe(true);
    await scheduler.catchUp();
    expect(answers).toHaveLength(1);
    expect(attemptJobs()).toBe(1);
    answers[0]!(new Response('ok'));
    await h.sb.settle();
    const [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'succeeded', attempts: [{ statusCode: 200 }] });
    expect(attemptJobs()).toBe(0);
  });

  test('follow 5 s, 30 s, 2 min, 10 min and 1 h, all in one advance; after the fifth retry the delivery is failed', async () => {
    const { h, receiver } = await withReceiver();
    receiver.answer(500);
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    await h.advance(2 * 3600);
    const offsets = [0, 5, 35, 155, 755, 4355];
    expect(receiver.requests.map((r) => Number(r.headers['x-service-timestamp']) - Date.parse(T0))).toEqual(offsets.map((s) => s * 1000));
    expect(webhookIds(receiver.requests).size).toBe(1);
    const [d] = await deliveries(h);
    expect(d.state).toBe('failed');
    expect(d.nextAttemptAt).toBeNull();
    expect(d.attempts.map((a: { at: string }) => a.at)).toEqual(offsets.map((s) => at(T0, s)));
    await h.advance(86_400);
    expect(receiver.requests).toHaveLength(6);
    expect((await deliveries(h, '?state=failed'))).toHaveLength(1);
  });

  test('a job on the way (a charge expiring at 300 s) does not move a retry: the walk waits for an attempt at its retry instant', async () => {
    const { h, receiver } = await withReceiver();
    receiver.answer(500);
    const paid = await newCharge(h);
    await newCharge(h, { body: { expiresIn: 300 } });
    await act(h, paid, 'pay');
    await h.sb.settle();
    await h.advance(2 * 3600);
    const [d] = await deliveries(h, `?eventId=${paid}`);
    expect(d.attempts.map((a: { at: string }) => a.at)).toEqual([0, 5, 35, 155, 755, 4355].map((s) => at(T0, s)));
  });

  test('follow the account schedule when it is changed (seconds for a CI suite)', async () => {
    const { h, receiver } = await withReceiver();
    const patched = await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { webhookRetrySchedule: [1, 2] });
    expect(patched.status, patched.text).toBe(200);
    receiver.answer(503);
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    await h.advance(60);
    expect(receiver.requests.map((r) => Number(r.headers['x-service-timestamp']) - Date.parse(T0))).toEqual([0, 1000, 3000]);
    expect((await deliveries(h))[0].state).toBe('failed');
  });

  test('an account schedule of more than 5 retries is refused, naming the field', async () => {
    const { h } = await withReceiver();
    const res = await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { webhookRetrySchedule: [1, 1, 1, 1, 1, 1] });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields[0].field).toBe('webhookRetrySchedule');
  });

  test('a receiver that does not answer in time is a failed attempt (time-out of 200 ms here), retried on the clock', async () => {
    const { h, receiver } = await withReceiver({ webhookTimeoutMs: 200 });
    receiver.answer('hang');
    await act(h, await newCharge(h), 'pay');
    await receiver.next();
    await h.sb.settle();
    let [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'pending', nextAttemptAt: at(T0, 5), attempts: [{ statusCode: null, error: 'no answer within 200 ms' }] });
    expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(190);

    await h.advance(5); // hangs again: the advance waits for the attempt's time-out
    expect(receiver.requests).toHaveLength(2);
    receiver.answer(200);
    await h.advance(30);
    [d] = await deliveries(h);
    expect(d.state).toBe('succeeded');
    expect(d.attempts.map((a: { statusCode: number | null }) => a.statusCode)).toEqual([null, null, 200]);
    expect(webhookIds(receiver.requests).size).toBe(1);
  });

  test.each([
    ['redirects', 'redirect' as const, 302, /^redirect \(HTTP 302 to http:\/\/127\.0\.0\.1:1\/elsewhere\): redirects are not followed/],
    ['closes the connection', 'close' as const, null, /^could not get an HTTP answer \(.*(other side closed|ECONNRESET)/],
    ['answers garbage', 'garbage' as const, null, /^could not get an HTTP answer \(HPE_/],
    ['answers 404', 404, 404, /^HTTP 404/],
    ['answers 401 (a bad signature, to it)', 401, 401, /^HTTP 401/],
  ])('a receiver that %s is a failed attempt, retried later, and the sandbox carries on', async (_what, behaviour, statusCode, error) => {
    const { h, receiver } = await withReceiver();
    receiver.answer(behaviour);
    await act(h, await newCharge(h), 'pay');
    await receiver.next();
    await h.sb.settle();
    const [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'pending', nextAttemptAt: at(T0, 5), attempts: [{ statusCode }] });
    expect(d.attempts[0].error).toMatch(error);
    expect(receiver.requests).toHaveLength(1); // a redirect is not followed
    expect((await h.control('GET', '/health')).status).toBe(200);
    receiver.answer(200);
    await h.advance(5);
    expect((await deliveries(h))[0].state).toBe('succeeded');
  });

  test.each([201, 202, 204, 299])('any 2xx (%s) is a success', async (status) => {
    const { h, receiver } = await withReceiver();
    receiver.answer(status);
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    expect((await deliveries(h))[0]).toMatchObject({ state: 'succeeded', attempts: [{ statusCode: status, error: null }] });
  });

  test('a connection refused (nobody listening) is a failed attempt', async () => {
    const dead = await startReceiver();
    const url = dead.url;
    await dead.close();
    const { h } = await withReceiver({ webhookUrl: url });
    await act(h, await newCharge(h), 'pay');
    await h.sb.settle();
    const [d] = await deliveries(h);
    expect(d).toMatchObject({ state: 'pending', attempts: [{ statusCode: null }] });
    expect(d.attempts[0].error).toMatch(/^could not get an HTTP answer \(ECONNREFUSED/);
  });
});

describe('with the real clock, listening', () => {
  test('the first attempt and a retry go out by themselves as they fall due', async () => {
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const h = await startHarness({ clockStart: undefined, freezeClock: false, webhookUrl: `${receiver.url}/hook` });
    onTestFinished(() => h.sb.close());
    await h.sb.listen({ port: 0 });
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { webhookRetrySchedule: [0.2] });
    receiver.answer((r) => (receiver.requests.length === 1 ? 500 : 200));
    await act(h, await newCharge(h), 'pay');
    const first = await receiver.next();
    const second = await receiver.next(); // nobody advances the clock or calls the API: the timer sends it
    expect(second.headers['x-service-webhook-id']).toBe(first.headers['x-service-webhook-id']);
    expect(Number(second.headers['x-service-timestamp']) - Number(first.headers['x-service-timestamp'])).toBeGreaterThanOrEqual(200);
  });
});

describe('a hanging receiver', () => {
  test('does not hold up the API: charges are created and paid while it holds a delivery', async () => {
    const { h, receiver } = await withReceiver({ webhookTimeoutMs: 60_000 });
    receiver.answer('hang');
    await act(h, await newCharge(h), 'pay');
    await receiver.next(); // the first delivery is now held by the receiver

    const t = performance.now();
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'while hanging' } });
    expect(created.status, created.text).toBe(201);
    await act(h, created.body.id, 'pay');
    await receiver.next();
    expect(performance.now() - t).toBeLessThan(2000);
    const log = await deliveries(h);
    expect(log.map((d) => [d.state, d.attempts.length])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
  });

  test('does not hold up close(): the attempt is cut short and not counted', async () => {
    const { h, receiver } = await withReceiver({ webhookTimeoutMs: 60_000 });
    receiver.answer('hang');
    await act(h, await newCharge(h), 'pay');
    await receiver.next();
    const t = performance.now();
    await h.sb.close();
    expect(performance.now() - t).toBeLessThan(2000);
    expect(Object.values(h.sb.deps.store.state.accounts[DEFAULT.accountId]!.deliveries)[0]).toMatchObject({ state: 'pending', attempts: [] });
  });
});

describe('pending deliveries survive a restart with a data file', () => {
  const tmpData = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-webhooks-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'state.json');
  };

  test('a failed first attempt is retried after the restart, with the same X-Service-Webhook-ID and body', async () => {
    const dataFile = tmpData();
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    receiver.answer(500);
    const before = await startHarness({ dataFile, webhookUrl: `${receiver.url}/hook` });
    await act(before, await newCharge(before), 'pay');
    const first = await receiver.next();
    await before.sb.settle();
    await before.sb.close();

    receiver.answer(200);
    const after = await startHarness({ dataFile });
    onTestFinished(() => after.sb.close());
    expect(after.sb.deps.clock.iso()).toBe(T0);
    await after.advance(5);
    expect(receiver.requests).toHaveLength(2);
    const second = receiver.requests[1]!;
    expect(second.headers['x-service-webhook-id']).toBe(first.headers['x-service-webhook-id']);
    expect(second.raw.equals(first.raw)).toBe(true);
    const [d] = await deliveries(after);
    expect(d).toMatchObject({ state: 'succeeded', attempts: [{ at: T0, statusCode: 500 }, { at: at(T0, 5), statusCode: 200 }] });
  });

  test.each([
    // The files as a crash would leave them now: the answered pay's line, the attempt in flight recorded nowhere.
    ['a crash', async (before: Harness, dataFile: string) => {
      const image = tmpData();
      cpSync(dirname(dataFile), dirname(image), { recursive: true });
      rmSync(`${image}.lock`); // the crashed process's lock (it would be gone; this one still runs)
      onTestFinished(() => before.sb.close());
      return image;
    }],
    ['close()', async (before: Harness, dataFile: string) => {
      await before.sb.close();
      return dataFile;
    }],
  ])('an attempt cut short by %s is made again as soon as the sandbox runs again', async (_, stop) => {
    const dataFile = tmpData();
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    receiver.answer('hang');
    const before = await startHarness({ dataFile, webhookUrl: `${receiver.url}/hook`, webhookTimeoutMs: 60_000 });
    await act(before, await newCharge(before), 'pay');
    const first = await receiver.next();
    const files = await stop(before, dataFile);

    receiver.answer(200);
    const after = await startHarness({ dataFile: files });
    onTestFinished(() => after.sb.close());
    await after.sb.settle();
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]!.headers['x-service-webhook-id']).toBe(first.headers['x-service-webhook-id']);
    const [d] = await deliveries(after);
    expect(d).toMatchObject({ state: 'succeeded', attempts: [{ at: T0, statusCode: 200 }] });
  });
});
