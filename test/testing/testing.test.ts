// pix-sandbox/testing from the source: a sandbox in process on port 0 with the suite's own tenant, the typed control
// client over real HTTP, and the webhook receiver. (test/package/ runs the same from the packed tarball.)
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { connect, SandboxApiError, startReceiver, startSandbox, type Receiver, type TestSandbox } from '../../src/testing/index';

const T0 = '2026-03-10T12:00:00.000Z';
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function start(opts: Parameters<typeof startSandbox>[0] = {}): Promise<{ sb: TestSandbox; receiver: Receiver }> {
  const receiver = await startReceiver({ secret: 'whsec_suite_secret_1' });
  const sb = await startSandbox({ clockStart: T0, freezeClock: true, log: () => {}, ...opts, account: { name: 'Loja da Suite', webhooks: [{ url: receiver.url, secret: receiver.secret }], ...opts.account } });
  open.push(sb, receiver);
  return { sb, receiver };
}

async function charge(sb: TestSandbox, amount = 25.9): Promise<string> {
  const res = await fetch(`${sb.v2Url}/pix`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await sb.token()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount, description: 'pedido 42' }),
  });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

describe('startSandbox', () => {
  test('listens on a free port with a tenant of its own whose credentials get a token from POST /v2/auth', async () => {
    const { sb } = await start();
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.url).not.toMatch(/:4747$/);
    expect([sb.v2Url, sb.v1Url, sb.controlUrl]).toEqual([`${sb.url}/v2`, `${sb.url}/v1`, `${sb.url}/_sandbox`]);
    expect(sb.account).toMatchObject({ id: sb.accountId, name: 'Loja da Suite' });
    expect(sb.accountId).not.toBe('11111111-1111-4111-8111-111111111111'); // not the fixtures' account
    expect(sb.credentials).toEqual({ clientId: sb.account.credentials[0]!.clientId, clientSecret: sb.account.credentials[0]!.clientSecret });
    expect(sb.credentials.clientId).toMatch(/^mp_test_/);
    expect(sb.apiKey).toBe(sb.account.apiKeys[0]!.key);
    expect(sb.apiKey).toMatch(/^mp_test_/);
    const res = await fetch(`${sb.v2Url}/account`, { headers: { authorization: `Bearer ${await sb.token()}` } });
    const body = (await res.json()) as { id?: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
  });

  test('a charge made through the public API and paid through the client reaches the receiver signed, byte for byte', async () => {
    const { sb, receiver } = await start();
    const id = await charge(sb);
    const paid = await sb.control.transactions.pay(id, { payerName: 'Ana Souza', payerDocument: '12345678909' });
    expect(paid).toMatchObject({ id, status: 'completed', amount: 25.9 });

    const hook = await receiver.next('payment_completed', { timeoutMs: 5000 });
    expect(hook.signatureValid).toBe(true);
    expect(hook.event).toBe('payment_completed');
    expect(hook.body).toMatchObject({ event: 'payment_completed', eventId: id, data: { transactionId: id, status: 'completed' } });
    // The signature, computed here independently, is over rawBody exactly.
    expect(hook.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', receiver.secret).update(hook.rawBody).digest('hex')}`);
    expect(JSON.parse(hook.rawBody)).toEqual(hook.body);
    expect(hook.deliveryId).toBe(hook.headers['x-service-webhook-id']);

    await sb.settle();
    const { items } = await sb.control.deliveries.list(sb.accountId);
    expect(items).toMatchObject([{ id: hook.deliveryId, state: 'succeeded', attempts: [{ statusCode: 200 }] }]);
  });

  test('a tenant spec the control API refuses rejects with its envelope (status, code, path)', async () => {
    const failed = startSandbox({ log: () => {}, account: { subAccounts: [{ reference: 'Not A Reference' }] } });
    await expect(failed).rejects.toBeInstanceOf(SandboxApiError);
    await expect(failed).rejects.toMatchObject({ status: 400, code: 'SUB_ACCOUNT_INVALID_REFERENCE', path: '/_sandbox/accounts' });
  });

  test('stop() twice is safe, and the port is closed after it', async () => {
    const { sb } = await start();
    await sb.stop();
    await sb.stop();
    await sb.close();
    await expect(fetch(`${sb.url}/_sandbox/health`)).rejects.toThrow();
  });

  test('with an admin token the client sends it, and a client without it gets a SandboxApiError 401', async () => {
    const { sb } = await start({ adminToken: 'suite-admin-token' });
    expect((await sb.control.health()).status).toBe('ok');
    const err = await connect(sb.url).health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxApiError);
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED', path: '/_sandbox/health' });
    expect((await connect(sb.url, { adminToken: 'suite-admin-token' }).health()).status).toBe('ok');
  });
});

describe('the control client', () => {
  test('errors carry the envelope: status, details.code and the message that says what to do', async () => {
    const { sb } = await start();
    const id = await charge(sb);
    await sb.control.transactions.pay(id);
    const err = (await sb.control.transactions.pay(id).catch((e: unknown) => e)) as SandboxApiError;
    expect(err).toBeInstanceOf(SandboxApiError);
    expect(err).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION', method: 'POST', path: `/_sandbox/transactions/${id}/pay` });
    expect(err.message).toContain('409 INVALID_STATE_TRANSITION');
    expect(err.body).toMatchObject({ statusCode: 409, error: 'Conflict', details: { code: 'INVALID_STATE_TRANSITION' } });
    const bad = (await sb.control.clock.advance(-1).catch((e: unknown) => e)) as SandboxApiError;
    expect(bad).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { fields: [{ field: 'seconds', message: 'must be more than 0' }] } });
  });

  test('accounts, credentials, sub-accounts, institutions and adjustments', async () => {
    const { sb } = await start({ account: { balance: 100, institutions: [{ name: 'Banco Teste' }] } });
    const c = sb.control;
    expect((await c.accounts.list()).items.map((a) => a.id)).toContain(sb.accountId);
    const other = await c.accounts.create({ name: 'Outra' });
    expect((await c.accounts.get(other.id)).name).toBe('Outra');
    expect((await c.accounts.update(other.id, { fees: { pix: { percent: 2 } } })).fees.pix.percent).toBe(2);
    expect(await c.accounts.delete(other.id)).toEqual({ id: other.id, deleted: true });

    const cred = await c.credentials.create(sb.accountId, { permissions: ['TRANSACTION:READ'] });
    expect(cred.permissions).toEqual(['TRANSACTION:READ']);
    expect((await c.credentials.update(sb.accountId, cred.id, { permissions: ['PIX:WRITE'] })).permissions).toEqual(['PIX:WRITE']);
    const token = await sb.token({ clientId: cred.clientId, clientSecret: cred.clientSecret });
    expect(token.split('.')).toHaveLength(3);

    expect((await c.subAccounts.create(sb.accountId, { reference: 'filial-1', balance: 5 })).reference).toBe('filial-1');
    expect((await c.subAccounts.update(sb.accountId, 'filial-1', { status: 'suspended' })).status).toBe('suspended');
    const inst = sb.account.institutions[0]!;
    expect(await c.institutions.update(sb.accountId, inst.id, { status: 'down' })).toMatchObject({ id: inst.id, status: 'down' });
    expect(await c.adjustments.create(sb.accountId, { amount: -10.5 })).toMatchObject({ type: 'adjustment', amount: -10.5 });
    const account = await c.accounts.get(sb.accountId);
    expect(account.balances.find((b) => b.subAccount === null)!.available.amountFormatted).toBe(89.5);
  });

  test('webhooks, events, deliveries and replay', async () => {
    const { sb, receiver } = await start();
    const c = sb.control;
    const extra = await c.webhooks.create(sb.accountId, { url: null, events: ['payment_expired'] });
    expect(extra.secret).toMatch(/^whsec_/);
    expect((await c.webhooks.update(extra.id, { url: receiver.url })).url).toBe(receiver.url);
    expect((await c.webhooks.list(sb.accountId)).items).toHaveLength(2);
    expect(await c.webhooks.delete(extra.id)).toEqual({ id: extra.id, deleted: true });

    const id = await charge(sb);
    await c.transactions.expire(id);
    await sb.settle();
    const events = await c.events.list(sb.accountId, { event: 'payment_expired' });
    expect(events.items).toMatchObject([{ event: 'payment_expired', eventId: `payment_expired_${id}`, payload: { data: { transactionId: id } } }]);
    const [delivery] = (await c.deliveries.list(sb.accountId, { state: 'succeeded' })).items;
    expect((await c.deliveries.get(delivery!.id)).id).toBe(delivery!.id);
    const replay = await c.deliveries.replay(delivery!.id);
    expect(replay).toMatchObject({ replayOf: delivery!.id, eventId: `payment_expired_${id}` });
    const first = await receiver.next('payment_expired');
    const again = await receiver.next('payment_expired');
    expect(again.deliveryId).toBe(replay.id);
    expect(again.rawBody).toBe(first.rawBody);
  });

  test('transaction and balance-block actions', async () => {
    const { sb } = await start();
    const c = sb.control;
    const cancelled = await c.transactions.cancel(await charge(sb));
    expect(cancelled.status).toBe('cancelled');
    expect((await c.transactions.fail(await charge(sb), { reason: 'teste' })).status).toBe('failed');
    const paid = await charge(sb, 100);
    await c.transactions.pay(paid);
    const block = await c.transactions.block(paid, { amount: 40, blockType: 'med', reason: 'MED' });
    expect(block).toMatchObject({ transactionId: paid, amount: 40, status: 'awaiting_response', blockType: 'med' });
    expect((await c.balanceBlocks.defend(block.id)).status).toBe('defended');
    expect((await c.balanceBlocks.reject(block.id, { reason: 'ok' })).status).toBe('rejected');
    const block2 = await c.transactions.block(paid, { amount: 10 });
    expect((await c.balanceBlocks.approve(block2.id)).status).toBe('approved');
    await expect(c.transactions.process(paid)).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
  });

  test('payment links: pay, expire and disable through the client (v1 POST /charges made with the suite\'s API key)', async () => {
    const { sb } = await start();
    const projectId = sb.account.projects[0]?.id ?? (await (await fetch(`${sb.v1Url}/projects`, { method: 'POST', headers: { 'x-api-key': sb.apiKey!, 'content-type': 'application/json' }, body: '{"name":"Loja"}' })).json() as { id: string }).id;
    const newLink = async () => {
      const res = await fetch(`${sb.v1Url}/charges`, { method: 'POST', headers: { 'x-api-key': sb.apiKey!, 'content-type': 'application/json' }, body: JSON.stringify({ projectId, name: 'Curso', amount: 30, paymentMethods: ['pix', 'boleto'] }) });
      const body = (await res.json()) as { id: string };
      expect(res.status, JSON.stringify(body)).toBe(201);
      return body.id;
    };
    const c = sb.control;
    const link = await newLink();
    const paid = await c.paymentLinks.pay(link, { paymentMethod: 'boleto', payerName: 'Ana' });
    expect(paid).toMatchObject({ id: link, status: 'active', paymentsCount: 1, totalCollected: 30, paymentId: expect.any(String) });
    expect((await c.paymentLinks.expire(link)).status).toBe('expired');
    expect((await c.paymentLinks.disable(await newLink())).status).toBe('disabled');
    await expect(c.paymentLinks.pay(link)).rejects.toMatchObject({ status: 409, code: 'PAYMENT_LINK_NOT_PAYABLE' });
  });

  test('faults, clock, reset, health', async () => {
    const { sb } = await start();
    const c = sb.control;
    expect((await c.faults.set([{ path: '/v2/account', status: 503 }])).rules).toMatchObject([{ path: '/v2/account', status: 503 }]);
    expect((await c.faults.get()).rules).toHaveLength(1);
    expect(await c.faults.clear()).toEqual({ rules: [] });

    expect(await c.clock.get()).toEqual({ now: T0, frozen: true });
    expect(await sb.advance(90)).toEqual({ now: '2026-03-10T12:01:30.000Z', frozen: true });
    expect(await sb.setClock('2026-03-11T00:00:00Z')).toEqual({ now: '2026-03-11T00:00:00.000Z', frozen: true });
    expect(await c.clock.unfreeze()).toMatchObject({ frozen: false });
    expect(await sb.freeze(new Date('2026-03-12T00:00:00Z'))).toEqual({ now: '2026-03-12T00:00:00.000Z', frozen: true });
    expect((await c.clock.realTime()).frozen).toBe(false);

    const health = await c.health();
    expect(health).toMatchObject({ status: 'ok', accounts: 2 });
    expect(await c.reset()).toEqual({ reset: true, accounts: 1 });
    await expect(c.accounts.get(sb.accountId)).rejects.toMatchObject({ status: 404 });
  });

  test('settle() throws SETTLE_TIMEOUT with the delivery in flight when the receiver never answers', async () => {
    // A receiver that takes the request and never answers; the sandbox's webhook time-out is longer than the settle's.
    const { createServer } = await import('node:http');
    const hanging = createServer(() => {});
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((r) => { hanging.closeAllConnections(); hanging.close(() => r()); }) });
    const port = (hanging.address() as { port: number }).port;
    const { sb } = await start({ webhookTimeoutMs: 10_000, account: { webhooks: [{ url: `http://127.0.0.1:${port}/hook` }] } });
    await sb.control.transactions.pay(await charge(sb));
    const err = (await sb.settle({ timeoutMs: 100 }).catch((e: unknown) => e)) as SandboxApiError;
    expect(err).toBeInstanceOf(SandboxApiError);
    expect(err).toMatchObject({ status: 504, code: 'SETTLE_TIMEOUT', details: { timeoutMs: 100, inFlight: [expect.any(String)] } });
    const [d] = (await sb.control.deliveries.list(sb.accountId)).items;
    expect(err.details.inFlight).toEqual([d!.id]);
  });
});

describe('startReceiver', () => {
  test('next() rejects after timeoutMs naming what did arrive, and close() twice is safe', async () => {
    const receiver = await startReceiver();
    expect(receiver.secret).toMatch(/^whsec_[0-9a-f]{36}$/);
    await expect(receiver.next('payment_completed', { timeoutMs: 30 })).rejects.toThrow(/No payment_completed delivery arrived at http:\/\/127\.0\.0\.1:\d+\/webhooks within 30 ms \(received so far: nothing\)/);
    await receiver.close();
    await receiver.close();
  });

  test('marks a delivery signed with another secret as signatureValid: false, and answers with the status it is told', async () => {
    const { sb, receiver } = await start({ account: { webhooks: [] } });
    const wrong = await startReceiver({ secret: 'whsec_not_the_endpoint_one' });
    open.push(wrong);
    await sb.control.webhooks.create(sb.accountId, { url: wrong.url, secret: 'whsec_the_endpoint_one' });
    wrong.respondWith(500);
    await sb.control.transactions.pay(await charge(sb));
    const hook = await wrong.next();
    expect(hook.signatureValid).toBe(false);
    await sb.settle();
    const [d] = (await sb.control.deliveries.list(sb.accountId)).items;
    expect(d).toMatchObject({ state: 'pending', attempts: [{ statusCode: 500 }] });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('the control client: stories, refunds and withdrawals', () => {
  test("a story is a one-call fixture on the suite's own tenant: paid-charge pays a charge and its webhook reaches the receiver", async () => {
    const { sb, receiver } = await start();
    expect((await sb.control.stories.list()).items.map((s) => s.name)).toContain('paid-charge');
    const out = await sb.control.stories.play('paid-charge', { accountId: sb.accountId });
    expect(out).toMatchObject({ story: 'paid-charge', accountId: sb.accountId });
    expect(receiver.received.map((w) => w.event)).toEqual(['payment_completed']);
  });

  test('refund() refunds a paid charge as its merchant, and withdrawals.create() takes the body of POST /v2/withdrawals', async () => {
    const { sb } = await start({ account: { balance: 100 } });
    const id = await charge(sb);
    await sb.control.transactions.pay(id);
    const refund = await sb.control.transactions.refund(id, { reason: 'devolvido' });
    expect(refund).toMatchObject({ type: 'refund', status: 'pending', refund: { status: 'PENDING' } });
    const w = await sb.control.withdrawals.create(sb.accountId, { pixKey: 'falha@pix-sandbox.test', pixKeyType: 'email', holderName: 'Fulano', holderDocument: '12345678909', holderDocumentType: 'cpf', amount: 10 });
    expect(w).toMatchObject({ status: 'pending', amount: 10, subAccount: null });
  });
});
