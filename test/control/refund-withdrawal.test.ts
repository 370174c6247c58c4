// The control routes behind the console's Refund button and New withdrawal form: POST /_sandbox/transactions/{id}/refund
// (the verb of POST /v2/transactions/{id}/refund, as the payment's wallet) and POST /_sandbox/accounts/{id}/withdrawals
// (the body and verb of POST /v2/withdrawals, for any wallet; magic keys apply).
import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness } from '../helpers/harness';
import { balanceOf, eventsOf, paidCharge } from '../helpers/money';

const A = DEFAULT.accountId;
const W = { pixKeyType: 'email', holderName: 'Fulano de Tal', holderDocument: '12345678909', holderDocumentType: 'cpf' };

describe('POST /_sandbox/transactions/{id}/refund', () => {
  test('refunds a completed payment of a sub-account from that wallet, like POST /v2/transactions/{id}/refund', async () => {
    const h = await startHarness();
    await h.control('POST', `/accounts/${A}/adjustments`, { amount: 5, subAccount: 'loja-centro' });
    const id = await paidCharge(h, { amount: 40 }, 'loja-centro');
    const before = await balanceOf(h, 'loja-centro');
    const res = await h.control('POST', `/transactions/${id}/refund`, { reason: 'Produto devolvido' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ type: 'refund', status: 'pending', amount: 40, refund: { status: 'PENDING' } });
    expect((await balanceOf(h, 'loja-centro')).available).toBe(before.available - 40);
    await h.advance(2);
    expect((await eventsOf(h, 'refund_completed')).length).toBe(1);
  });

  test.each([
    ['a pending charge', false, 400, 'TRANSACTION_NOT_REFUNDABLE'],
    ['a payment refunded already', true, 400, 'TRANSACTION_NOT_REFUNDABLE'],
  ])('refuses %s and changes nothing', async (_, refundFirst, status, code) => {
    const h = await startHarness();
    const id = refundFirst ? await paidCharge(h, { amount: 10 }) : (await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } })).body.id;
    if (refundFirst) expect((await h.control('POST', `/transactions/${id}/refund`)).status).toBe(200);
    const before = await balanceOf(h);
    const res = await h.control('POST', `/transactions/${id}/refund`, {});
    expect(res.status, res.text).toBe(status);
    expect(res.body.details.code).toBe(code);
    expect(await balanceOf(h)).toEqual(before);
  });
});

describe('POST /_sandbox/accounts/{id}/withdrawals', () => {
  test('a withdrawal from a sub-account by netAmount debits the gross from that wallet', async () => {
    const h = await startHarness();
    await h.control('POST', `/accounts/${A}/adjustments`, { amount: 100, subAccount: 'loja-norte' });
    const res = await h.control('POST', `/accounts/${A}/withdrawals?subAccount=loja-norte`, { ...W, pixKey: 'fulano@example.com', netAmount: 20 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', netAmount: 20, subAccount: 'loja-norte' });
    expect((await balanceOf(h, 'loja-norte')).available).toBe(100 - res.body.amount);
  });

  test('the magic key falha@pix-sandbox.test makes it fail 5 s later with "Chave PIX não encontrada"', async () => {
    const h = await startHarness();
    const res = await h.control('POST', `/accounts/${A}/withdrawals`, { ...W, pixKey: 'falha@pix-sandbox.test', amount: 15 });
    expect(res.status, res.text).toBe(201);
    await h.advance(5);
    const [failed] = await eventsOf(h, 'withdrawal_failed');
    expect(failed, JSON.stringify(failed)).toBeDefined();
    expect(h.sb.deps.store.account(A).transactions[res.body.id]!.withdrawal).toMatchObject({ status: 'failed', failureReason: 'Chave PIX não encontrada' });
  });

  test.each([
    ['both amount and netAmount', { amount: 10, netAmount: 9 }, 400, /send exactly one of amount and netAmount/],
    ['a bad e-mail key', { amount: 10, pixKey: 'not-an-email' }, 400, /pixKey/],
    ['more than the balance', { amount: 99999 }, 400, /INSUFFICIENT|withdraw less or add funds/],
  ])('refuses %s with a message that says what to send, and changes nothing', async (_, extra, status, message) => {
    const h = await startHarness();
    const before = await balanceOf(h);
    const res = await h.control('POST', `/accounts/${A}/withdrawals`, { ...W, pixKey: 'fulano@example.com', ...extra });
    expect(res.status, res.text).toBe(status);
    expect(res.body.message).toMatch(message);
    expect(await balanceOf(h)).toEqual(before);
  });

  test('a suspended sub-account is a 403 SUB_ACCOUNT_SUSPENDED', async () => {
    const h = await startHarness();
    const res = await h.control('POST', `/accounts/${A}/withdrawals?subAccount=loja-fechada`, { ...W, pixKey: 'fulano@example.com', amount: 10 });
    expect(res.status, res.text).toBe(403);
    expect(res.body.details.code).toBe('SUB_ACCOUNT_SUSPENDED');
  });
});
