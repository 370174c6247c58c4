import { describe, expect, test } from 'vitest';
import { isE2eId, isValidCpf } from '../../src/pix';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';

async function balance(h: Harness, subAccount?: string): Promise<number> {
  const res = await h.v2('GET', '/account', subAccount ? { subAccount } : {});
  return res.body.balance.available.amountFormatted;
}

async function eventsOf(h: Harness, event: string) {
  return (await h.control('GET', `/accounts/${DEFAULT.accountId}/events?event=${event}`)).body.items;
}

describe('paying a charge (control action pay)', () => {
  test('credits the gross amount, debits the fee, and records payment_completed with the exact data', async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount: 100, description: 'x', externalReference: 'ext-1', metadata: { a: 1 } } });
    const paid = await h.control('POST', `/transactions/${created.body.id}/pay`, { payerName: 'Maria Silva', payerDocument: '52998224725' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ id: created.body.id, status: 'completed', counterpartName: 'Maria Silva', counterpartDocument: '52998224725', paidAt: expect.any(String) });
    expect(paid.body).not.toHaveProperty('pixCopyPaste');
    expect(paid.body).not.toHaveProperty('expiresAt');
    expect(isE2eId(paid.body.e2eId)).toBe(true);
    expect(paid.body.e2eId).toMatch(/^E99999004202603101200[A-Za-z0-9]{11}$/);
    expect(await balance(h)).toBe(1000 + 100 - 0.99);
    const [event] = await eventsOf(h, 'payment_completed');
    expect(event.eventId).toBe(created.body.id);
    expect(event.payload).toEqual({
      event: 'payment_completed',
      eventId: created.body.id,
      timestamp: '2026-03-10T12:00:00.000Z',
      subAccount: null,
      data: {
        transactionId: created.body.id,
        environment: 'sandbox',
        amount: 100,
        feeAmount: 0.99,
        netAmount: 99.01,
        currency: 'BRL',
        paymentMethod: 'pix',
        status: 'completed',
        completedAt: '2026-03-10T12:00:00.000Z',
        externalReference: 'ext-1',
        e2eId: paid.body.e2eId,
        counterpartName: 'Maria Silva',
        counterpartDocument: '52998224725',
        metadata: { a: 1 },
      },
    });
    expectLedgerBalanced(h.sb);
  });

  test('without payer details, a name and a valid CPF are generated', async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
    const paid = await h.control('POST', `/transactions/${created.body.id}/pay`);
    expect(paid.body.counterpartName).toEqual(expect.any(String));
    expect(isValidCpf(paid.body.counterpartDocument)).toBe(true);
  });

  test.each([
    // amount, fee: 0.99 % rounded half up to the cent, at least 0.50
    [150.0, 1.49], // 148.5 cents: the half cent rounds up
    [149.99, 1.48], // 148.49 cents
    [10.0, 0.5], // 9.9 cents: the minimum applies
    [1000.0, 9.9],
  ])('a charge of %s pays a fee of %s', async (amount, fee) => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount, description: 'fee' } });
    await h.control('POST', `/transactions/${created.body.id}/pay`);
    const [event] = await eventsOf(h, 'payment_completed');
    expect(event.payload.data.feeAmount).toBe(fee);
    expect(event.payload.data.netAmount).toBe(Math.round((amount - fee) * 100) / 100);
    expect(await balance(h)).toBe(Math.round((1000 + amount - fee) * 100) / 100);
  });

  test('the fee transaction and each split leg can be looked up; a leg is seen from both of its ends', async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount: 100, description: 'split', split: [{ subAccount: 'loja-centro', amount: 30 }] } });
    await h.control('POST', `/transactions/${created.body.id}/pay`);
    const txs = Object.values(h.sb.deps.store.account(DEFAULT.accountId).transactions);
    const fee = txs.find((t) => t.type === 'fee')!;
    const leg = txs.find((t) => t.type === 'internal_transfer')!;
    expect((await h.v2('GET', `/transactions/${fee.id}`)).body).toMatchObject({ type: 'fee', amount: 0.99, status: 'completed' });
    expect((await h.v2('GET', `/transactions/${leg.id}`)).body).toMatchObject({ type: 'internal_transfer', amount: 30 });
    expect((await h.v2('GET', `/transactions/${leg.id}`, { subAccount: 'loja-centro' })).status).toBe(200);
    expect((await h.v2('GET', `/transactions/${leg.id}`, { subAccount: 'loja-norte' })).status).toBe(404);
    expect((await h.v2('GET', `/transactions/${fee.id}`, { subAccount: 'loja-centro' })).status).toBe(404);
  });
});

describe('split', () => {
  test('is validated at creation, echoed, and distributed only at settlement', async () => {
    const h = await startHarness();
    const split = [
      { subAccount: 'loja-centro', amount: 40 },
      { subAccount: 'loja-norte', amount: 20.5 },
    ];
    const created = await h.v2('POST', '/pix', { body: { amount: 100, description: 'split', split } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.split).toEqual(split);
    expect(await balance(h, 'loja-centro')).toBe(0);
    await h.control('POST', `/transactions/${created.body.id}/pay`);
    expect(await balance(h, 'loja-centro')).toBe(40);
    expect(await balance(h, 'loja-norte')).toBe(20.5);
    expect(await balance(h)).toBe(Math.round((1000 + 100 - 0.99 - 40 - 20.5) * 100) / 100);
    const [event] = await eventsOf(h, 'payment_completed');
    expect(event.payload.data.split).toEqual(split);
    expectLedgerBalanced(h.sb);
  });

  test('a sub-account charge can split to principal, and the event goes to the sub-account', async () => {
    const h = await startHarness();
    await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 0.01, subAccount: 'loja-centro' });
    const created = await h.v2('POST', '/pix', { body: { amount: 50, description: 'sub', split: [{ subAccount: 'principal', amount: 10 }] }, subAccount: 'loja-centro' });
    expect(created.status, created.text).toBe(201);
    await h.control('POST', `/transactions/${created.body.id}/pay`);
    expect(await balance(h)).toBe(1010);
    expect(await balance(h, 'loja-centro')).toBe(Math.round((0.01 + 50 - 0.5 - 10) * 100) / 100);
    const [event] = await eventsOf(h, 'payment_completed');
    expect(event.subAccount).toBe('loja-centro');
    expect(event.payload.subAccount).toBe('loja-centro');
  });

  test.each([
    ['an unknown sub-account', [{ subAccount: 'loja-sul', amount: 1 }], 404, 'SPLIT_SUB_ACCOUNT_NOT_FOUND'],
    ['a suspended sub-account', [{ subAccount: 'loja-fechada', amount: 1 }], 400, 'SPLIT_SUB_ACCOUNT_INACTIVE'],
    ['principal from the main account', [{ subAccount: 'principal', amount: 1 }], 400, 'SPLIT_PRINCIPAL_NOT_ALLOWED'],
    ['a sum above the net amount (100 - 0.99)', [{ subAccount: 'loja-centro', amount: 50 }, { subAccount: 'loja-norte', amount: 49.02 }], 400, 'SPLIT_EXCEEDS_NET_AMOUNT'],
  ])('%s is refused', async (_n, split, status, code) => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: { amount: 100, description: 'bad split', split } });
    expect(res.status, res.text).toBe(status);
    expect(res.body.details.code).toBe(code);
    expect(Object.keys(h.sb.deps.store.state.jobs)).toHaveLength(0);
  });

  test('a sum exactly equal to the net amount is accepted', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: { amount: 100, description: 'ok', split: [{ subAccount: 'loja-centro', amount: 50 }, { subAccount: 'loja-norte', amount: 49.01 }] } });
    expect(res.status, res.text).toBe(201);
  });

  test('when the fee rises before settlement, the legs shrink first leg first and the event carries what was applied', async () => {
    const h = await startHarness();
    const split = [
      { subAccount: 'loja-centro', amount: 5 },
      { subAccount: 'loja-norte', amount: 90 },
    ];
    const created = await h.v2('POST', '/pix', { body: { amount: 100, description: 'fee change', split } });
    expect(created.status, created.text).toBe(201);
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { pix: { percent: 7 } } }); // fee 7.00, net 93.00
    await h.control('POST', `/transactions/${created.body.id}/pay`);
    const [event] = await eventsOf(h, 'payment_completed');
    expect(event.payload.data).toMatchObject({ feeAmount: 7, netAmount: 93, split: [{ subAccount: 'loja-centro', amount: 3 }, { subAccount: 'loja-norte', amount: 90 }] });
    expect(await balance(h, 'loja-centro')).toBe(3);
    expect(await balance(h, 'loja-norte')).toBe(90);
    expect(await balance(h)).toBe(1000);
    expectLedgerBalanced(h.sb);
  });

  test('a leg cut to zero is left out of the applied split', async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount: 100, description: 'x', split: [{ subAccount: 'loja-centro', amount: 2 }, { subAccount: 'loja-norte', amount: 90 }] } });
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { pix: { percent: 10 } } }); // net 90
    await h.control('POST', `/transactions/${created.body.id}/pay`);
    const [event] = await eventsOf(h, 'payment_completed');
    expect(event.payload.data.split).toEqual([{ subAccount: 'loja-norte', amount: 90 }]);
  });
});

describe('expiry, automation and control actions', () => {
  test('a charge expires by itself when the clock passes expiresAt: cancelled, with payment_expired', async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x', expiresIn: 600, externalReference: 'exp-1' } });
    await h.advance(599);
    expect((await h.v2('GET', `/transactions/${created.body.id}`)).body.status).toBe('pending');
    await h.advance(60);
    const after = await h.v2('GET', `/transactions/${created.body.id}`);
    expect(after.body.status).toBe('cancelled');
    expect(after.body).not.toHaveProperty('pixCopyPaste');
    expect(after.body).not.toHaveProperty('expiresAt');
    const [event] = await eventsOf(h, 'payment_expired');
    expect(event.payload).toEqual({
      event: 'payment_expired',
      eventId: `payment_expired_${created.body.id}`,
      timestamp: '2026-03-10T12:10:00.000Z',
      subAccount: null,
      data: {
        transactionId: created.body.id,
        environment: 'sandbox',
        amount: 10,
        feeAmount: 0,
        netAmount: 0,
        currency: 'BRL',
        paymentMethod: 'pix',
        status: 'expired',
        expiredAt: '2026-03-10T12:10:00.000Z',
        externalReference: 'exp-1',
      },
    });
    expect(await balance(h)).toBe(1000);
  });

  test('autoPayAfterSeconds pays new charges by themselves', async () => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { autoPayAfterSeconds: 5 } });
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'auto' } });
    await h.advance(4);
    expect((await h.v2('GET', `/transactions/${created.body.id}`)).body.status).toBe('pending');
    await h.advance(1);
    const paid = await h.v2('GET', `/transactions/${created.body.id}`);
    expect(paid.body.status).toBe('completed');
    expect(paid.body.paidAt).toBe('2026-03-10T12:00:05.000Z');
  });

  // Every (state, action) pair of a charge: the only moves are out of pending.
  const actions = ['pay', 'expire', 'fail', 'cancel'] as const;
  const outcome: Record<(typeof actions)[number], string> = { pay: 'completed', expire: 'cancelled', fail: 'failed', cancel: 'cancelled' };
  test.each(actions.flatMap((first) => actions.map((second) => [first, second] as const)))('after %s, %s is refused with 409', async (first, second) => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
    const a = await h.control('POST', `/transactions/${created.body.id}/${first}`);
    expect(a.status, a.text).toBe(200);
    expect(a.body.status).toBe(outcome[first]);
    const b = await h.control('POST', `/transactions/${created.body.id}/${second}`);
    expect(b.status, b.text).toBe(409);
    expect(b.body.details.code).toBe('INVALID_STATE_TRANSITION');
    expect(b.body.message).toContain(outcome[first]);
  });

  test('fail and cancel send no event and move no money', async () => {
    const h = await startHarness();
    for (const action of ['fail', 'cancel']) {
      const created = await h.v2('POST', '/pix', { body: { amount: 10, description: action } });
      await h.control('POST', `/transactions/${created.body.id}/${action}`);
    }
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}/events`)).body.items).toEqual([]);
    expect(await balance(h)).toBe(1000);
  });

  test('an unknown transaction id is 404, an unknown action 400', async () => {
    const h = await startHarness();
    expect((await h.control('POST', '/transactions/00000000-0000-4000-8000-000000000000/pay')).status).toBe(404);
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
    // One trailing slash is the route without it (docs/reference.md): /explode/ is the same unknown action.
    for (const action of ['explode', 'explode/']) {
      const res = await h.control('POST', `/transactions/${created.body.id}/${action}`);
      expect(res.status, res.text).toBe(400);
      expect(res.body.details.fields[0].field).toBe('action');
    }
    // Not an action path at all (no action, or more after it): no route, as for any other unknown path.
    for (const path of [`/transactions/${created.body.id}`, `/transactions/${created.body.id}/pay/now`]) {
      const none = await h.control('POST', path);
      expect(none.status, `${path}: ${none.text}`).toBe(404);
      expect(none.body.details.code, none.text).toBe('ROUTE_NOT_FOUND');
    }
    expect((await h.v2('GET', `/transactions/${created.body.id}`)).body.status).toBe('pending');
  });
});

describe('GET /v2/transactions/{id}', () => {
  test('resolves an externalReference, newest first, within the wallet', async () => {
    const h = await startHarness();
    await h.v2('POST', '/pix', { body: { amount: 10, description: 'old', externalReference: 'order-9' } });
    await h.advance(1);
    const newer = await h.v2('POST', '/pix', { body: { amount: 11, description: 'new', externalReference: 'order-9' } });
    const res = await h.v2('GET', '/transactions/order-9');
    expect(res.body.id).toBe(newer.body.id);
    expect((await h.v2('GET', '/transactions/order-9', { subAccount: 'loja-centro' })).status).toBe(404);

    // Newest by creation, not by createdAt: a charge made after the clock was set back still wins.
    await h.control('PUT', '/clock', { now: '2026-01-01T00:00:00Z' });
    const afterSetBack = await h.v2('POST', '/pix', { body: { amount: 12, description: 'set back', externalReference: 'order-9' } });
    const again = await h.v2('GET', '/transactions/order-9');
    expect(again.body.id, again.text).toBe(afterSetBack.body.id);
  });

  test("another wallet's charge is 404 TRANSACTION_NOT_FOUND", async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' }, subAccount: 'loja-centro' });
    const res = await h.v2('GET', `/transactions/${created.body.id}`);
    expect(res.status, res.text).toBe(404);
    expect(res.body.details).toMatchObject({ code: 'TRANSACTION_NOT_FOUND', resource: 'transaction', id: created.body.id });
  });

  test('a pending charge shows pixCopyPaste and expiresAt, and the customer it named', async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x', customer: { name: 'Ana', document: '52998224725' } } });
    const res = await h.v2('GET', `/transactions/${created.body.id}`);
    expect(res.body).toMatchObject({ status: 'pending', type: 'payment', paymentMethod: 'pix', pixCopyPaste: created.body.pixCopyPaste, expiresAt: created.body.expiresAt, customerId: expect.any(String) });
  });

  test('an adjustment can be looked up', async () => {
    const h = await startHarness();
    const adj = await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: -5 });
    const res = await h.v2('GET', `/transactions/${adj.body.id}`);
    expect(res.body).toMatchObject({ type: 'adjustment', amount: -5, status: 'completed' });
  });
});
