// The schemas /openapi.json is made of describe what the server sends, field for field: every recorded event of the
// 9 kinds matches its webhook schema, and the control answers match theirs (no field missing, none extra); the headers
// the document declares are sent.
import { describe, expect, test } from 'vitest';
import type { z } from '@hono/zod-openapi';
import { EVENT_SCHEMAS } from '../../src/webhooks/schemas';
import { AccountDetailSchema, BalanceBlockControlSchema, DeliveryListSchema, EventListSchema, HealthSchema, RefundTransactionSchema } from '../../src/control/answers';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { VALID_CPF } from '../helpers/money';
import { TransactionSchema } from '../../src/wire/resources/transactions';
import { WithdrawalSchema } from '../../src/wire/resources/withdrawals';
import { EVENT_KINDS, type EventKind } from '../../src/domain/events';

/** Parses with unknown keys refused at the top level and in `nested` (the schema's own object fields). */
function exactly(schema: z.ZodObject, value: unknown, what: string) {
  const result = schema.strict().safeParse(value);
  expect(result.success, `${what}: ${result.success ? '' : JSON.stringify(result.error.issues)}\n${JSON.stringify(value)}`).toBe(true);
}

const ok = async <T>(p: Promise<{ status: number; text: string; body: T; headers: Headers }>, status = 200) => {
  const res = await p;
  expect(res.status, res.text.slice(0, 400)).toBe(status);
  return res;
};

async function everyEvent(h: Harness) {
  const charge = (body: Record<string, unknown>) => ok(h.v2('POST', '/pix', { body: { amount: 100, description: 'order', ...body } }), 201);
  const act = (id: string, action: string, body?: unknown) => ok(h.control('POST', `/transactions/${id}/${action}`, body));
  const withdrawal = (body: Record<string, unknown>) =>
    ok(h.v2('POST', '/withdrawals', { body: { pixKey: VALID_CPF, pixKeyType: 'cpf', holderName: 'Ana', holderDocument: VALID_CPF, holderDocumentType: 'cpf', amount: 20, ...body } }), 201);

  const full = await charge({ externalReference: 'order-1', metadata: { a: 1 }, split: [{ subAccount: 'loja-centro', amount: 5 }], customer: { name: 'Ana', document: VALID_CPF } });
  const answers: Record<string, unknown> = {};
  answers.pay = (await act(full.body.id, 'pay', { payerName: 'Maria Silva', payerDocument: VALID_CPF })).body;
  const plain = await charge({});
  await act(plain.body.id, 'expire');
  const refund = await ok(h.v2('POST', `/transactions/${full.body.id}/refund`, { body: { reason: 'returned' } }), 201);
  const refundId = refund.headers.get('location')!.split('/').pop()!;
  answers.completeRefund = (await act(refundId, 'complete')).body;
  const w1 = await withdrawal({ externalReference: 'w-1' });
  answers.process = (await act(w1.body.id, 'process')).body;
  await act(w1.body.id, 'complete');
  await act(w1.body.id, 'reverse', { reason: 'closed' });
  const w2 = await withdrawal({});
  await act(w2.body.id, 'fail');
  for (const resolution of ['approve', 'reject']) {
    const c = await charge({});
    await act(c.body.id, 'pay');
    const block = await act(c.body.id, 'block', { amount: 10, blockType: 'med' });
    answers.block = block.body;
    answers[resolution] = (await ok(h.control('POST', `/balance-blocks/${(block.body as { id: string }).id}/${resolution}`, { reason: 'decided' }))).body;
  }
  return answers;
}

describe('every recorded event matches its webhook schema', () => {
  test('payment, refund, withdrawal and balance-block events, with and without their optional fields', async () => {
    const h = await startHarness();
    await everyEvent(h);
    const events = await ok(h.control('GET', `/accounts/${DEFAULT.accountId}/events`));
    exactly(EventListSchema, events.body, 'GET events');
    const seen = new Set<EventKind>();
    for (const item of (events.body as { items: { event: EventKind; payload: any }[] }).items) {
      seen.add(item.event);
      const schema = EVENT_SCHEMAS[item.event];
      exactly(schema, item.payload, `${item.event} envelope`);
      exactly(schema.shape.data as z.ZodObject, item.payload.data, `${item.event} data`);
    }
    expect([...seen].sort()).toEqual([...EVENT_KINDS].sort());
  });
});

describe('control answers match their schemas', () => {
  test('the transaction actions, the block actions, the account, deliveries and health', async () => {
    const h = await startHarness();
    const answers = await everyEvent(h);
    exactly(TransactionSchema, answers.pay, 'pay');
    exactly(RefundTransactionSchema, answers.completeRefund, 'complete (refund)');
    exactly(WithdrawalSchema, answers.process, 'process');
    for (const a of ['block', 'approve', 'reject']) exactly(BalanceBlockControlSchema, answers[a], a);
    exactly(AccountDetailSchema, (await ok(h.control('GET', `/accounts/${DEFAULT.accountId}`))).body, 'account');
    exactly(DeliveryListSchema, (await ok(h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries`))).body, 'deliveries');
    exactly(HealthSchema, (await ok(h.control('GET', '/health'))).body, 'health');
    const created = await ok(h.control('POST', '/accounts', { name: 'x', webhooks: [{ url: 'http://127.0.0.1:9/x' }] }), 201);
    exactly(AccountDetailSchema, created.body, 'created account');
  });
});

describe('the headers the document declares are sent', () => {
  test('POST /v2/pix answers Location, also on an Idempotency-Key replay (with Idempotent-Replayed)', async () => {
    const h = await startHarness();
    const send = () => h.v2('POST', '/pix', { body: { amount: 10, description: 'x' }, headers: { 'Idempotency-Key': 'order-0001' } });
    const first = await ok(send(), 201);
    expect(first.headers.get('location')).toBe(`/v2/transactions/${first.body.id}`);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await ok(send(), 201);
    expect(again.headers.get('location')).toBe(`/v2/transactions/${first.body.id}`);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await ok(h.v2('GET', first.headers.get('location')!.replace('/v2', '')))).body.id).toBe(first.body.id);
  });

  test.each([
    ['POST /v2/withdrawals', async (h: Harness) => h.v2('POST', '/withdrawals', { body: { pixKey: VALID_CPF, pixKeyType: 'cpf', holderName: 'Ana', holderDocument: VALID_CPF, holderDocumentType: 'cpf', amount: 20 } }), '/v2/transactions/'],
    ['POST /v2/projects', async (h: Harness) => h.v2('POST', '/projects', { body: { name: 'Novo', color: '#000000' } }), '/v2/projects/'],
    ['POST /_sandbox/accounts', async (h: Harness) => h.control('POST', '/accounts', {}), '/_sandbox/accounts/'],
  ])('%s answers 201 with the Location of what it made, which can be read there', async (_, call, prefix) => {
    const h = await startHarness();
    const res = await ok(call(h), 201);
    expect(res.headers.get('location')).toBe(`${prefix}${res.body.id}`);
    const read = prefix.startsWith('/_sandbox') ? await h.api('GET', res.headers.get('location')!) : await h.v2('GET', res.headers.get('location')!.replace('/v2', ''));
    expect(read.status, read.text.slice(0, 300)).toBe(200);
  });

  test('every answer carries X-Trace-Id, the same as an error body\'s traceId', async () => {
    const h = await startHarness();
    const res = await h.v2('GET', '/transactions/nope');
    expect(res.status).toBe(404);
    expect(res.headers.get('x-trace-id')).toBe(res.body.traceId);
    expect((await h.api('GET', '/_sandbox/health')).headers.get('x-trace-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each([429, 503])('an injected %i says Retry-After', async (status) => {
    const h = await startHarness();
    await ok(h.control('PUT', '/faults', { rules: [{ method: 'GET', path: '/v2/account', status }] }));
    const res = await h.v2('GET', '/account');
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('retry-after')).toBe('1');
  });

  test('an injected fault on POST /v2/auth keeps the small {error, message} body of that route', async () => {
    const h = await startHarness();
    await ok(h.control('PUT', '/faults', { rules: [{ method: 'POST', path: '/v2/auth', status: 503 }] }));
    const res = await h.api('POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
    expect(res.status, res.text).toBe(503);
    expect(Object.keys(res.body).sort(), res.text).toEqual(['error', 'message']);
  });
});
