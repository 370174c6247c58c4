// sandbox.md 2.8: a pending refund's fee stays reserved until completion debits it, so no order of refunds and
// withdrawals takes `available` below zero. Only a balance block may.
import { describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';
import { balanceOf, paidCharge, refundIdOf } from '../helpers/money';

const withdraw = (h: Harness, amount: number) =>
  h.v2('POST', '/withdrawals', { body: { amount, pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Fulano', holderDocument: '52998224725', holderDocumentType: 'cpf' } });

/** Main wallet at exactly `available` BRL, with a completed payment of 100.00 in it. */
async function walletWith(available: number) {
  const h = await startHarness();
  const paymentId = await paidCharge(h); // 1000 + 100 - 0.99
  const now = (await balanceOf(h)).available;
  await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: Math.round((available - now) * 100) / 100 });
  expect((await balanceOf(h)).available).toBe(available);
  return { h, paymentId };
}

describe('refund fees are reserved until the refund completes', () => {
  test('available 111.00, refund 100.00, then a withdrawal of the 11.00 left is refused: 0.50 is reserved; the refund completes at 0.50 -> 0.00', async () => {
    const { h, paymentId } = await walletWith(111);
    const refund = await h.v2('POST', `/transactions/${paymentId}/refund`, { body: {} });
    expect(refund.status, refund.text).toBe(201);
    expect((await balanceOf(h)).available).toBe(11); // available stays the ledger's sum; the reservation is beside it

    const refused = await withdraw(h, 11);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.details).toMatchObject({ code: 'INSUFFICIENT_BALANCE', required: 11, available: 11, reservedFees: 0.5, spendable: 10.5 });
    expect(refused.body.message).toContain('of which 0.50 is reserved for the fees of pending refunds, so 10.50 can be spent');

    const ok = await withdraw(h, 10.5);
    expect(ok.status, ok.text).toBe(201);
    expect((await balanceOf(h)).available).toBe(0.5);
    await h.advance(2); // both complete; the refund fee leaves
    expect((await balanceOf(h)).available).toBe(0);
    expectLedgerBalanced(h.sb);
  });

  test('a second refund can only use what the first one left spendable', async () => {
    const { h, paymentId } = await walletWith(1000);
    const other = await paidCharge(h); // +100 - 0.99
    const now = (await balanceOf(h)).available;
    await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: -(Math.round((now - 200.75) * 100) / 100) }); // 200.75 left
    expect((await h.v2('POST', `/transactions/${paymentId}/refund`, { body: {} })).status).toBe(201); // 100.75 left, 0.50 reserved: without the reservation 100.50 would fit
    const second = await h.v2('POST', `/transactions/${other}/refund`, { body: {} });
    expect(second.status, second.text).toBe(400);
    expect(second.body.details).toMatchObject({ code: 'INSUFFICIENT_BALANCE', required: 100.5, available: 100.75, reservedFees: 0.5, spendable: 100.25 });
  });

  test('the control API shows reservedFees and spendable per wallet; a failed refund releases its reservation', async () => {
    const { h, paymentId } = await walletWith(500);
    const refundId = refundIdOf(await h.v2('POST', `/transactions/${paymentId}/refund`, { body: {} }));
    const main = async () => (await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body.balances.find((b: { subAccount: string | null }) => b.subAccount === null);
    expect(await main()).toMatchObject({ available: { amount: 40000 }, reservedFees: { amount: 50, amountFormatted: 0.5 }, spendable: { amount: 39950, amountFormatted: 399.5 } });
    await h.control('POST', `/transactions/${refundId}/fail`);
    expect(await main()).toMatchObject({ available: { amount: 50000 }, reservedFees: { amount: 0 }, spendable: { amount: 50000 } });
  });

  test('a balance block is the one thing that may take available below zero', async () => {
    const { h, paymentId } = await walletWith(30);
    const block = await h.control('POST', `/transactions/${paymentId}/block`, {});
    expect(block.status, block.text).toBe(200);
    expect((await balanceOf(h)).available).toBe(-70);
    const refused = await withdraw(h, 5);
    expect(refused.body.details).toMatchObject({ code: 'INSUFFICIENT_BALANCE', available: -70, spendable: 0 });
    expectLedgerBalanced(h.sb);
  });
});

test('a debit adjustment through the control API cannot take a wallet below zero: 400 INSUFFICIENT_BALANCE, what can be debited, nothing changed', async () => {
  const h = await startHarness();
  const before = JSON.stringify(h.sb.deps.store.state.accounts);
  const res = await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: -1000.01 });
  expect(res.status, res.text).toBe(400);
  expect(res.body.details).toMatchObject({ code: 'INSUFFICIENT_BALANCE', required: 1000.01, available: 1000, spendable: 1000 });
  expect(res.body.message).toContain('debit at most that');
  expect(JSON.stringify(h.sb.deps.store.state.accounts)).toBe(before);
  expect((await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: -1000 })).status).toBe(201);
});
