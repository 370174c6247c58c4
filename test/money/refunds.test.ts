import { describe, expect, test } from 'vitest';
import { isE2eId } from '../../src/pix';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';
import { accountOf, balanceOf, brl, eventsOf, paidCharge, refundIdOf, snapshot, VALID_CPF } from '../helpers/money';

const refund = (h: Harness, id: string, body: unknown = {}, subAccount?: string) => h.v2('POST', `/transactions/${id}/refund`, { body, ...(subAccount ? { subAccount } : {}) });

describe('POST /v2/transactions/{id}/refund', () => {
  test('accepts a refund of a paid charge: 201 PENDING, the amount leaves at once, the refund is a pending transaction', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    const res = await refund(h, paymentId, { reason: 'customer asked' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ originalTransactionId: paymentId, pspProvider: 'pix-sandbox', pspRefundTransactionId: expect.any(String), status: 'PENDING' });
    // A PIX return id: D + ISPB + yyyyMMddHHmm + 11 characters.
    expect(res.body.pspRefundTransactionId).toMatch(/^D99999004202603101200[A-Za-z0-9]{11}$/);
    const refundId = refundIdOf(res);
    const tx = await h.v2('GET', `/transactions/${refundId}`);
    expect(tx.status, tx.text).toBe(200);
    expect(tx.body).toEqual({
      id: refundId,
      status: 'pending',
      type: 'refund',
      paymentMethod: 'pix',
      amount: 100,
      currency: 'BRL',
      createdAt: '2026-03-10T12:00:00.000Z',
      description: 'customer asked',
      projectId: DEFAULT.projectId,
      updatedAt: '2026-03-10T12:00:00.000Z',
    });
    expect(await balanceOf(h)).toEqual({ available: brl(1000 + 100 - 0.99 - 100), held: 0, promotional: 0, total: brl(1000 + 100 - 0.99 - 100) });
    expect(await eventsOf(h, 'refund_completed')).toEqual([]);
    expectLedgerBalanced(h.sb);
  });

  test('completes by itself 2 s later: fee debited as its own transaction, refund_completed with the exact data', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h, { externalReference: 'order-77', metadata: { cart: 'c-1', items: 2 } });
    const res = await refund(h, paymentId);
    const refundId = refundIdOf(res);
    await h.advance(1);
    expect((await h.v2('GET', `/transactions/${refundId}`)).body.status).toBe('pending');
    await h.advance(1);
    const done = await h.v2('GET', `/transactions/${refundId}`);
    expect(done.body).toMatchObject({ status: 'completed', type: 'refund', amount: 100, e2eId: res.body.pspRefundTransactionId, counterpartName: 'Maria Silva', counterpartDocument: VALID_CPF, updatedAt: '2026-03-10T12:00:02.000Z' });
    const [event] = await eventsOf(h, 'refund_completed');
    expect(event.payload).toEqual({
      event: 'refund_completed',
      eventId: refundId,
      timestamp: '2026-03-10T12:00:02.000Z',
      subAccount: null,
      data: {
        refundTransactionId: refundId,
        originalTransactionId: paymentId,
        environment: 'sandbox',
        amount: 100,
        feeAmount: 0.5,
        netAmount: 100,
        currency: 'BRL',
        paymentMethod: 'pix',
        status: 'completed',
        refundedAt: '2026-03-10T12:00:02.000Z',
        externalReference: 'order-77',
        metadata: { cart: 'c-1', items: 2 },
      },
    });
    const feeTx = Object.values(accountOf(h).transactions).find((t) => t.type === 'fee' && t.relatedTransactionId === refundId)!;
    expect((await h.v2('GET', `/transactions/${feeTx.id}`)).body).toMatchObject({ type: 'fee', status: 'completed', amount: 0.5 });
    expect(await balanceOf(h)).toMatchObject({ available: brl(1000 + 100 - 0.99 - 100 - 0.5), held: 0 });
    expectLedgerBalanced(h.sb);
  });

  test('refund_completed leaves out externalReference and metadata when the payment had none', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    const refundId = refundIdOf(await refund(h, paymentId));
    await h.control('POST', `/transactions/${refundId}/complete`);
    const [event] = await eventsOf(h, 'refund_completed');
    expect(event.payload.data).toEqual({
      refundTransactionId: refundId,
      originalTransactionId: paymentId,
      environment: 'sandbox',
      amount: 100,
      feeAmount: 0.5,
      netAmount: 100,
      currency: 'BRL',
      paymentMethod: 'pix',
      status: 'completed',
      refundedAt: '2026-03-10T12:00:00.000Z',
    });
  });

  test('with automation off (completeAfterSeconds 0) it stays pending until the control action complete', async () => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
    const paymentId = await paidCharge(h);
    const refundId = refundIdOf(await refund(h, paymentId));
    await h.advance(3600);
    expect((await h.v2('GET', `/transactions/${refundId}`)).body.status).toBe('pending');
    const done = await h.control('POST', `/transactions/${refundId}/complete`);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ id: refundId, type: 'refund', status: 'completed' });
    expect(done.body.refund).toEqual({ originalTransactionId: paymentId, pspProvider: 'pix-sandbox', pspRefundTransactionId: expect.stringMatching(/^D/), status: 'CONFIRMED' });
    expect(await eventsOf(h, 'refund_completed')).toHaveLength(1);
  });

  test('completeAfterSeconds is read at acceptance', async () => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 30 } });
    const refundId = refundIdOf(await refund(h, await paidCharge(h)));
    await h.advance(29);
    expect((await h.v2('GET', `/transactions/${refundId}`)).body.status).toBe('pending');
    await h.advance(1);
    expect((await h.v2('GET', `/transactions/${refundId}`)).body.status).toBe('completed');
  });

  test('the control action fail (PSP ERROR) credits the amount back, with no fee and no event', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    const before = await balanceOf(h);
    const refundId = refundIdOf(await refund(h, paymentId));
    const failed = await h.control('POST', `/transactions/${refundId}/fail`, { reason: 'payer account closed' });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({ id: refundId, type: 'refund', status: 'failed', refund: { originalTransactionId: paymentId, status: 'ERROR' } });
    expect((await h.v2('GET', `/transactions/${refundId}`)).body.status).toBe('failed');
    expect(await balanceOf(h)).toEqual(before);
    await h.advance(10); // the completion job finds it failed and does nothing
    expect(await balanceOf(h)).toEqual(before);
    expect(await eventsOf(h)).toHaveLength(1); // only the payment_completed of the charge
    expect(accountOf(h).transactions[refundId]!.refund!.failureReason).toBe('payer account closed');
    expectLedgerBalanced(h.sb);
  });

  test('after a failed refund the payment can be refunded again', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    await h.control('POST', `/transactions/${refundIdOf(await refund(h, paymentId))}/fail`);
    const again = await refund(h, paymentId);
    expect(again.status, again.text).toBe(201);
  });

  test('the fee is the one in force at acceptance (reserved until completion), and a fee of 0 makes no fee transaction', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { refund: { fixed: 0 } } });
    const refundId = refundIdOf(await refund(h, paymentId));
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { refund: { fixed: 2 } } }); // too late for this refund
    await h.advance(2);
    const [event] = await eventsOf(h, 'refund_completed');
    expect(event.payload.data).toMatchObject({ feeAmount: 0, netAmount: 100 });
    expect(Object.values(accountOf(h).transactions).filter((t) => t.type === 'fee' && t.relatedTransactionId === refundId)).toEqual([]);
    expect((await balanceOf(h)).available).toBe(brl(1000 - 0.99));
  });

  test('only the originator is debited: split recipients keep their legs', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h, { split: [{ subAccount: 'loja-centro', amount: 30 }, { subAccount: 'loja-norte', amount: 20 }] });
    const centro = await balanceOf(h, 'loja-centro');
    const norte = await balanceOf(h, 'loja-norte');
    const main = await balanceOf(h);
    await refund(h, paymentId);
    await h.advance(2);
    expect(await balanceOf(h, 'loja-centro')).toEqual(centro);
    expect(await balanceOf(h, 'loja-norte')).toEqual(norte);
    expect((await balanceOf(h)).available).toBe(brl(main.available - 100 - 0.5));
    expectLedgerBalanced(h.sb);
  });

  test("a sub-account's payment is refunded through X-Sub-Account, from its wallet, and its event names it", async () => {
    const h = await startHarness();
    await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 10, subAccount: 'loja-centro' });
    const paymentId = await paidCharge(h, { amount: 50 }, 'loja-centro');
    expect((await refund(h, paymentId)).status).toBe(404); // the main account does not see it
    const res = await refund(h, paymentId, {}, 'loja-centro');
    expect(res.status, res.text).toBe(201);
    await h.advance(2);
    expect((await balanceOf(h, 'loja-centro')).available).toBe(brl(10 + 50 - 0.5 - 50 - 0.5));
    expect((await balanceOf(h)).available).toBe(1000);
    const [event] = await eventsOf(h, 'refund_completed');
    expect(event.payload.subAccount).toBe('loja-centro');
  });

  test("pspProvider is the pinned institution's name", async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h, { pspCredentialId: DEFAULT.institutionUp });
    const res = await refund(h, paymentId);
    expect(res.body.pspProvider).toBe('Banco Sandbox Um');
  });

  test('needs REFUND:WRITE or FULL_ACCESS', async () => {
    const h = await startHarness();
    const paymentId = await paidCharge(h);
    const pixOnly = await h.token(DEFAULT.pixOnly.clientId, DEFAULT.pixOnly.clientSecret);
    const denied = await h.api('POST', `/v2/transactions/${paymentId}/refund`, { token: pixOnly, body: {} });
    expect(denied.status, denied.text).toBe(403);
    expect(denied.body.details.code).toBe('PERMISSION_DENIED');
    const cred = await h.control('POST', `/accounts/${DEFAULT.accountId}/credentials`, { permissions: ['REFUND:WRITE'] });
    const token = await h.token(cred.body.clientId, cred.body.clientSecret);
    const ok = await h.api('POST', `/v2/transactions/${paymentId}/refund`, { token });
    expect(ok.status, ok.text).toBe(201);
  });
});

describe('refusals move nothing', () => {
  type Setup = (h: Harness) => Promise<string>;
  const cases: Array<[string, Setup, number, string, string]> = [
    ['an unknown id', async () => '00000000-0000-4000-8000-000000000000', 404, 'TRANSACTION_NOT_FOUND', "No transaction with id '00000000-0000-4000-8000-000000000000'"],
    ['a pending charge', async (h) => (await h.v2('POST', '/pix', { body: { amount: 100, description: 'x' } })).body.id, 400, 'TRANSACTION_NOT_REFUNDABLE', 'is pending; only a completed payment'],
    [
      'an expired charge',
      async (h) => {
        const id = (await h.v2('POST', '/pix', { body: { amount: 100, description: 'x' } })).body.id;
        await h.control('POST', `/transactions/${id}/expire`);
        return id;
      },
      400,
      'TRANSACTION_NOT_REFUNDABLE',
      'is cancelled',
    ],
    ['a fee transaction', async (h) => (await paidCharge(h), Object.values(accountOf(h).transactions).find((t) => t.type === 'fee')!.id), 400, 'TRANSACTION_NOT_REFUNDABLE', 'is a fee, not a payment'],
    ['an adjustment', async (h) => (await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 5 })).body.id, 400, 'TRANSACTION_NOT_REFUNDABLE', 'is an adjustment, not a payment'],
    ['a refund', async (h) => refundIdOf(await refund(h, await paidCharge(h))), 400, 'TRANSACTION_NOT_REFUNDABLE', 'is a refund, not a payment'],
    ['a payment with a pending refund', async (h) => { const id = await paidCharge(h); await refund(h, id); return id; }, 400, 'TRANSACTION_NOT_REFUNDABLE', 'already has a pending refund'],
    ['a refunded payment', async (h) => { const id = await paidCharge(h); await refund(h, id); await h.advance(2); return id; }, 400, 'TRANSACTION_NOT_REFUNDABLE', 'already has a completed refund'],
    ['a payment under a balance block', async (h) => { const id = await paidCharge(h); await h.control('POST', `/transactions/${id}/block`); return id; }, 400, 'TRANSACTION_NOT_REFUNDABLE', 'is under a med balance block'],
    [
      'a payment whose block was approved',
      async (h) => {
        const id = await paidCharge(h);
        const block = await h.control('POST', `/transactions/${id}/block`, { amount: 10 });
        await h.control('POST', `/balance-blocks/${block.body.id}/approve`);
        return id;
      },
      400,
      'TRANSACTION_NOT_REFUNDABLE',
      'after one was approved',
    ],
    [
      'a payment above the available balance (amount plus fee)',
      async (h) => {
        const id = await paidCharge(h);
        await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: -(1000 + 100 - 0.99 - 100.49) }); // 100.49 left
        return id;
      },
      400,
      'INSUFFICIENT_BALANCE',
      'costs 100.00 plus a refund fee of 0.50, but the available balance is 100.49',
    ],
    [
      "another wallet's payment",
      async (h) => { await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 10, subAccount: 'loja-centro' }); return paidCharge(h, {}, 'loja-centro'); },
      404,
      'TRANSACTION_NOT_FOUND',
      'No transaction',
    ],
  ];

  test.each(cases)('refunding %s is refused', async (_name, setup, status, code, message) => {
    const h = await startHarness();
    const id = await setup(h);
    const before = snapshot(h);
    const res = await refund(h, id, { reason: 'x' });
    expect(res.status, res.text).toBe(status);
    expect(res.body.details.code, res.text).toBe(code);
    expect(res.body.message).toContain(message);
    expect(snapshot(h)).toEqual(before);
  });

  test('a reason longer than 255 characters is a VALIDATION_ERROR naming reason', async () => {
    const h = await startHarness();
    const id = await paidCharge(h);
    const before = snapshot(h);
    const res = await refund(h, id, { reason: 'x'.repeat(256) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ field: 'reason', message: 'must be at most 255 characters' }] });
    expect(snapshot(h)).toEqual(before);
  });

  test('exactly amount plus fee available is enough', async () => {
    const h = await startHarness();
    const id = await paidCharge(h);
    await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: -(1000 + 100 - 0.99 - 100.5) });
    const res = await refund(h, id);
    expect(res.status, res.text).toBe(201);
    await h.advance(2);
    expect((await balanceOf(h)).available).toBe(0);
  });

  test('a refund without a body is accepted (reason is optional)', async () => {
    const h = await startHarness();
    const id = await paidCharge(h);
    const res = await h.api('POST', `/v2/transactions/${id}/refund`, { token: await h.token() });
    expect(res.status, res.text).toBe(201);
    expect((await h.v2('GET', `/transactions/${refundIdOf(res)}`)).body.description).toBe(`Refund of ${id}`);
  });
});

test('the refund e2eId on completion is a PIX return id', async () => {
  const h = await startHarness();
  const res = await refund(h, await paidCharge(h));
  await h.advance(2);
  const tx = await h.v2('GET', `/transactions/${refundIdOf(res)}`);
  expect(isE2eId(`E${tx.body.e2eId.slice(1)}`)).toBe(true);
  expect(tx.body.e2eId.startsWith('D')).toBe(true);
});
