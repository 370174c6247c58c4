import { describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';
import { accountOf, balanceOf, brl, eventsOf, paidCharge, snapshot } from '../helpers/money';

const block = (h: Harness, paymentId: string, body?: Record<string, unknown>) => h.control('POST', `/transactions/${paymentId}/block`, body);
const resolve = (h: Harness, blockId: string, action: string, body?: Record<string, unknown>) => h.control('POST', `/balance-blocks/${blockId}/${action}`, body);
const AFTER_PAYMENT = brl(1000 + 100 - 0.99); // main available after a paid charge of 100

describe('opening a block (control action block on a completed payment)', () => {
  test('moves the payment amount from available to held, records balance_block_created, and lists the block', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h, { externalReference: 'order-5' });
    const e2eId = (await h.v2('GET', `/transactions/${paymentId}`)).body.e2eId;
    const res = await block(h, paymentId);
    expect(res.status, res.text).toBe(200);
    const view = {
      id: res.body.id,
      transactionId: paymentId,
      amount: 100,
      status: 'awaiting_response',
      blockType: 'med',
      referenceNumber: expect.stringMatching(/^MED-20260310-[0-9A-HJ-NP-Z]{8}$/),
      reason: "Fraud suspected by the payer's institution (MED)",
      createdAt: '2026-03-10T12:00:00.000Z',
      externalReference: 'order-5',
      e2eId,
    };
    expect(res.body).toEqual({ ...view, subAccount: null, chargebackTransactionId: expect.any(String) });
    expect(await balanceOf(h)).toEqual({ available: brl(AFTER_PAYMENT - 100), held: 100, promotional: 0, total: AFTER_PAYMENT });
    const [event] = await eventsOf(h, 'balance_block_created');
    expect(event.payload).toEqual({
      event: 'balance_block_created',
      eventId: `balance_block_created_${res.body.id}`,
      timestamp: '2026-03-10T12:00:00.000Z',
      subAccount: null,
      data: {
        blockId: res.body.id,
        transactionId: paymentId,
        environment: 'sandbox',
        amount: 100,
        currency: 'BRL',
        blockType: 'med',
        status: 'awaiting_response',
        referenceNumber: res.body.referenceNumber,
        reason: "Fraud suspected by the payer's institution (MED)",
        e2eId,
        createdAt: '2026-03-10T12:00:00.000Z',
      },
    });
    const list = await h.v2('GET', '/balance-blocks');
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual({ items: [view], total: 1 });
    const chargeback = await h.v2('GET', `/transactions/${res.body.chargebackTransactionId}`);
    expect(chargeback.body).toMatchObject({ type: 'chargeback', status: 'pending', amount: 100 });
    expectLedgerBalanced(h.sb);
  });

  test('takes amount, blockType and reason from the body', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    const res = await block(h, paymentId, { amount: 40.5, blockType: 'judicial', reason: 'Processo 0001234-56.2026' });
    expect(res.body).toMatchObject({ amount: 40.5, blockType: 'judicial', reason: 'Processo 0001234-56.2026', referenceNumber: expect.stringMatching(/^JUD-/) });
    expect(await balanceOf(h)).toMatchObject({ available: brl(AFTER_PAYMENT - 40.5), held: 40.5 });
    const adm = await block(h, await paidCharge(h), { blockType: 'administrative' });
    expect(adm.body).toMatchObject({ blockType: 'administrative', reason: 'Administrative review', referenceNumber: expect.stringMatching(/^ADM-/) });
  });

  test('available may go negative', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: -(AFTER_PAYMENT - 30) });
    expect((await block(h, paymentId)).status).toBe(200);
    expect(await balanceOf(h)).toEqual({ available: -70, held: 100, promotional: 0, total: 30 });
    expectLedgerBalanced(h.sb);
  });

  test('only the originator wallet is debited: split recipients keep their legs', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h, { split: [{ subAccount: 'loja-centro', amount: 60 }] });
    const centro = await balanceOf(h, 'loja-centro');
    const res = await block(h, paymentId);
    await resolve(h, res.body.id, 'approve');
    expect(await balanceOf(h, 'loja-centro')).toEqual(centro);
    expect(await balanceOf(h)).toEqual({ available: brl(AFTER_PAYMENT - 60 - 100), held: 0, promotional: 0, total: brl(AFTER_PAYMENT - 60 - 100) });
    expectLedgerBalanced(h.sb);
  });

  test("a sub-account's payment is blocked on its wallet, listed for it only, and its events name it", async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h, { amount: 50 }, 'loja-centro');
    const res = await block(h, paymentId);
    expect(res.body.subAccount).toBe('loja-centro');
    expect(await balanceOf(h, 'loja-centro')).toEqual({ available: brl(50 - 0.5 - 50), held: 50, promotional: 0, total: 49.5 });
    expect((await balanceOf(h)).available).toBe(1000);
    expect((await h.v2('GET', '/balance-blocks')).body).toEqual({ items: [], total: 0 });
    expect((await h.v2('GET', '/balance-blocks', { subAccount: 'loja-centro' })).body.total).toBe(1);
    const [event] = await eventsOf(h, 'balance_block_created');
    expect(event.payload.subAccount).toBe('loja-centro');
  });

  type Setup = (h: Harness) => Promise<string>;
  const refusals: Array<[string, Setup, Record<string, unknown> | undefined, number, string, string]> = [
    ['a pending charge', async (h) => (await h.v2('POST', '/pix', { body: { amount: 100, description: 'x' } })).body.id, undefined, 409, 'INVALID_STATE_TRANSITION', 'Cannot block a payment that is pending'],
    ['a payment with a pending refund', async (h) => { const id = await paidCharge(h); await h.v2('POST', `/transactions/${id}/refund`, { body: {} }); return id; }, undefined, 409, 'INVALID_STATE_TRANSITION', 'it has a pending refund'],
    ['a refunded payment', async (h) => { const id = await paidCharge(h); await h.v2('POST', `/transactions/${id}/refund`, { body: {} }); await h.advance(2); return id; }, undefined, 409, 'INVALID_STATE_TRANSITION', 'it has a completed refund'],
    ['a payment already blocked', async (h) => { const id = await paidCharge(h); await block(h, id, { amount: 1 }); return id; }, undefined, 409, 'INVALID_STATE_TRANSITION', 'is awaiting_response. A payment has at most one block that is not rejected'],
    ['a payment whose block was approved', async (h) => { const id = await paidCharge(h); await resolve(h, (await block(h, id, { amount: 1 })).body.id, 'approve'); return id; }, undefined, 409, 'INVALID_STATE_TRANSITION', 'is approved'],
    ['an amount above the payment amount', async (h) => paidCharge(h), { amount: 100.01 }, 400, 'VALIDATION_ERROR', 'amount must be at most 100.00, the payment amount'],
    ['an amount of 0', async (h) => paidCharge(h), { amount: 0 }, 400, 'VALIDATION_ERROR', 'amount'],
    ['an unknown blockType', async (h) => paidCharge(h), { blockType: 'fraud' }, 400, 'VALIDATION_ERROR', "blockType must be 'med', 'judicial' or 'administrative'"],
    ['a fee transaction', async (h) => (await paidCharge(h), Object.values(accountOf(h).transactions).find((t) => t.type === 'fee')!.id), undefined, 409, 'INVALID_STATE_TRANSITION', 'Cannot block a fee'],
    ['a withdrawal', async (h) => (await h.v2('POST', '/withdrawals', { body: { pixKey: 'a@b.co', pixKeyType: 'email', holderName: 'A', holderDocument: '52998224725', holderDocumentType: 'cpf', amount: 10 } })).body.id, undefined, 409, 'INVALID_STATE_TRANSITION', 'Cannot block a withdrawal'],
    ['an unknown id', async () => '00000000-0000-4000-8000-000000000000', undefined, 404, 'TRANSACTION_NOT_FOUND', 'No transaction or withdrawal'],
  ];

  test.each(refusals)('blocking %s is refused and moves nothing', async (_name, setup, body, status, code, message) => {
    const h = await startHarness();
    const id = await setup(h);
    const before = snapshot(h);
    const res = await block(h, id, body);
    expect(res.status, res.text).toBe(status);
    expect(res.body.details.code, res.text).toBe(code);
    expect(res.body.message).toContain(message);
    expect(snapshot(h)).toEqual(before);
  });

  test('after a rejected block the payment can be blocked again', async () => {
    const h = await startHarness();
    const id = await paidCharge(h);
    await resolve(h, (await block(h, id)).body.id, 'reject');
    expect((await block(h, id)).status).toBe(200);
  });
});

describe('resolving a block (POST /_sandbox/balance-blocks/{id}/{action})', () => {
  test('approve: the amount leaves held as a completed chargeback; balance_block_approved with the resolution', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    const opened = await block(h, paymentId, { amount: 80 });
    await h.advance(3600);
    const res = await resolve(h, opened.body.id, 'approve', { reason: 'Fraud confirmed' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'approved', resolutionReason: 'Fraud confirmed', resolvedAt: '2026-03-10T13:00:00.000Z' });
    expect(await balanceOf(h)).toEqual({ available: brl(AFTER_PAYMENT - 80), held: 0, promotional: 0, total: brl(AFTER_PAYMENT - 80) });
    expect((await h.v2('GET', `/transactions/${opened.body.chargebackTransactionId}`)).body).toMatchObject({ type: 'chargeback', status: 'completed', amount: 80 });
    const [event] = await eventsOf(h, 'balance_block_approved');
    expect(event.payload).toEqual({
      event: 'balance_block_approved',
      eventId: `balance_block_approved_${opened.body.id}`,
      timestamp: '2026-03-10T13:00:00.000Z',
      subAccount: null,
      data: {
        blockId: opened.body.id,
        transactionId: paymentId,
        environment: 'sandbox',
        amount: 80,
        currency: 'BRL',
        blockType: 'med',
        status: 'approved',
        referenceNumber: opened.body.referenceNumber,
        reason: "Fraud suspected by the payer's institution (MED)",
        e2eId: opened.body.e2eId,
        createdAt: '2026-03-10T12:00:00.000Z',
        resolutionReason: 'Fraud confirmed',
        resolvedAt: '2026-03-10T13:00:00.000Z',
      },
    });
    const list = await h.v2('GET', '/balance-blocks');
    expect(list.body.items[0]).toMatchObject({ status: 'approved', resolutionReason: 'Fraud confirmed', resolvedAt: '2026-03-10T13:00:00.000Z' });
    expectLedgerBalanced(h.sb);
  });

  test('reject: the amount returns to available, the chargeback is cancelled; balance_block_rejected', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    const opened = await block(h, paymentId, { blockType: 'administrative', reason: 'KYC review' });
    const res = await resolve(h, opened.body.id, 'reject');
    expect(res.status, res.text).toBe(200);
    expect(await balanceOf(h)).toEqual({ available: AFTER_PAYMENT, held: 0, promotional: 0, total: AFTER_PAYMENT });
    expect((await h.v2('GET', `/transactions/${opened.body.chargebackTransactionId}`)).body.status).toBe('cancelled');
    const [event] = await eventsOf(h, 'balance_block_rejected');
    expect(event.payload).toEqual({
      event: 'balance_block_rejected',
      eventId: `balance_block_rejected_${opened.body.id}`,
      timestamp: '2026-03-10T12:00:00.000Z',
      subAccount: null,
      data: {
        blockId: opened.body.id,
        transactionId: paymentId,
        environment: 'sandbox',
        amount: 100,
        currency: 'BRL',
        blockType: 'administrative',
        status: 'rejected',
        referenceNumber: opened.body.referenceNumber,
        reason: 'KYC review',
        e2eId: opened.body.e2eId,
        createdAt: '2026-03-10T12:00:00.000Z',
        resolutionReason: 'Claim dismissed: amount released to the merchant',
        resolvedAt: '2026-03-10T12:00:00.000Z',
      },
    });
    expectLedgerBalanced(h.sb);
  });

  test('defend: defended, no event, no money moves; it can then be approved', async () => {
    const h = await startHarness();
    const opened = await block(h, await paidCharge(h));
    const before = await balanceOf(h);
    const events = (await eventsOf(h)).length;
    const res = await resolve(h, opened.body.id, 'defend', { reason: 'Delivered, tracking BR123' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('defended');
    expect(res.body).not.toHaveProperty('resolutionReason');
    expect(await balanceOf(h)).toEqual(before);
    expect(await eventsOf(h)).toHaveLength(events);
    const approved = await resolve(h, opened.body.id, 'approve');
    expect(approved.body).toMatchObject({ status: 'approved', resolutionReason: 'Claim upheld: amount returned to the payer' });
  });

  test('an unknown block is 404 BALANCE_BLOCK_NOT_FOUND; an unknown action is 400 naming action', async () => {
    const h = await startHarness();
    const missing = await resolve(h, '00000000-0000-4000-8000-000000000000', 'approve');
    expect(missing.status, missing.text).toBe(404);
    expect(missing.body.details).toMatchObject({ code: 'BALANCE_BLOCK_NOT_FOUND', resource: 'balance block' });
    const opened = await block(h, await paidCharge(h));
    const bad = await resolve(h, opened.body.id, 'cancel');
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.details.fields[0].field).toBe('action');
  });
});

describe('GET /v2/balance-blocks', () => {
  test('filters by status, newest first', async () => {
    const h = await startHarness();
    const a = await block(h, await paidCharge(h));
    await h.advance(60);
    const b = await block(h, await paidCharge(h));
    await h.advance(60);
    const c = await block(h, await paidCharge(h));
    await resolve(h, b.body.id, 'defend');
    await resolve(h, c.body.id, 'reject');
    const ids = async (query: string) => (await h.v2('GET', `/balance-blocks${query}`)).body.items.map((i: { id: string }) => i.id);
    expect(await ids('')).toEqual([c.body.id, b.body.id, a.body.id]);
    expect(await ids('?status=awaiting_response')).toEqual([a.body.id]);
    expect(await ids('?status=defended')).toEqual([b.body.id]);
    expect(await ids('?status=rejected')).toEqual([c.body.id]);
    expect(await ids('?status=approved')).toEqual([]);
    expect((await h.v2('GET', '/balance-blocks?status=defended')).body.total).toBe(1);
  });

  test('a bad status is a 400 naming status', async () => {
    const h = await startHarness();
    const res = await h.v2('GET', '/balance-blocks?status=open');
    expect(res.status, res.text).toBe(400);
    expect(res.body.details).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ field: 'status', message: 'must be one of awaiting_response, defended, approved, rejected (or omitted for every block)' }] });
  });

  test('needs BALANCE_BLOCK:READ or FULL_ACCESS', async () => {
    const h = await startHarness();
    const pixOnly = await h.token(DEFAULT.pixOnly.clientId, DEFAULT.pixOnly.clientSecret);
    const denied = await h.api('GET', '/v2/balance-blocks', { token: pixOnly });
    expect(denied.status, denied.text).toBe(403);
    const cred = await h.control('POST', `/accounts/${DEFAULT.accountId}/credentials`, { permissions: ['BALANCE_BLOCK:READ'] });
    const ok = await h.api('GET', '/v2/balance-blocks', { token: await h.token(cred.body.clientId, cred.body.clientSecret) });
    expect(ok.status, ok.text).toBe(200);
  });
});
