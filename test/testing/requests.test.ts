// The test kit's sandbox.requests(filter): the suite's tenant's request log, typed, for asserting what an app sent.
import { afterEach, expect, test } from 'vitest';
import { startSandbox, type RequestEntry, type TestSandbox } from '../../src/testing';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

test('sandbox.requests() answers what the app sent, filtered, newest first, with secrets masked', async () => {
  sandbox = await startSandbox({ log: () => {} });
  const token = await sandbox.token();
  const send = (body: unknown, key?: string) =>
    fetch(`${sandbox!.v2Url}/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, body: JSON.stringify(body) });
  expect((await send({ amount: 10, description: 'first' }, 'order-0000001')).status).toBe(201);
  expect((await send({ amount: -1, description: 'bad' })).status).toBe(400);

  const posts: RequestEntry[] = await sandbox.requests({ path: '/v2/pix', method: 'POST' });
  expect(posts.map((e) => [e.status, e.idempotencyKey])).toEqual([
    [400, null],
    [201, 'order-0000001'],
  ]);
  expect(posts[1]!.request?.body).toEqual({ amount: 10, description: 'first' });
  expect(posts[1]!.headers.authorization).toBe('[masked]');

  const failed = await sandbox.requests({ status: 'failed' });
  expect(failed.map((e) => e.path)).toEqual(['/v2/pix']);
  const auth = await sandbox.requests({ path: '/v2/auth', limit: 1 });
  expect(auth[0]!.request?.body).toMatchObject({ client_secret: '[masked]' });
  expect(await sandbox.control.requests.get(posts[0]!.id)).toEqual(posts[0]);
});
