// One core, two dialects (sandbox.md 12): what v1 makes is what v2, the control API, the clock and the ledger see;
// static QR codes paid any number of times; withdrawals by bankAccountId; refunds; the webhook header word.
import { describe, expect, test } from 'vitest';
import { parseBrCode } from '../../src/pix';
import type { UnitHooks } from '../../src/store/unit';
import { DEFAULT, expectLedgerBalanced, failEachWrite, startHarness, type Harness } from '../helpers/harness';
import { balanceOf, eventsOf } from '../helpers/money';
import { withReceiver } from '../helpers/webhooks';
import { newCustomer, v1call, v1ok } from '../helpers/v1-calls';

describe('POST /v1/pix is a charge of the core', () => {
  test('v2 sees it; paid by the control API it completes for both faces, with the fee in the ledger', async () => {
    const h = await startHarness();
    const customer = await newCustomer(h);
    const pix = await v1ok(h, '/pix', { amount: 150.75, description: 'Pedido', customerId: customer.id, externalReference: 'pedido-1' });
    expect(pix).toMatchObject({ status: 'pending', amount: 150.75, customerId: customer.id, externalReference: 'pedido-1' });
    expect((await h.v2('GET', `/transactions/${pix.id}`)).body).toMatchObject({ id: pix.id, status: 'pending', customerId: customer.id, pixCopyPaste: pix.pixCopyPaste });
    const before = await balanceOf(h);
    expect((await h.control('POST', `/transactions/${pix.id}/pay`)).status).toBe(200);
    expect((await v1call(h, 'GET', '/transactions/pedido-1')).body).toMatchObject({ id: pix.id, status: 'completed' });
    const [event] = await eventsOf(h, 'payment_completed');
    expect(event.payload.data).toMatchObject({ transactionId: pix.id, amount: 150.75 });
    expect((await balanceOf(h)).available).toBeCloseTo(before.available + event.payload.data.netAmount, 2);
    expectLedgerBalanced(h.sb);
  });

  test('the expiry of a v1 charge follows the sandbox clock (payment_expired)', async () => {
    const h = await startHarness();
    const pix = await v1ok(h, '/pix', { amount: 10, description: 'x', expiresIn: 300 });
    await h.advance(300);
    expect((await v1call(h, 'GET', `/transactions/${pix.id}`)).body.status).toBe('cancelled');
    expect(await eventsOf(h, 'payment_expired')).toHaveLength(1);
  });

  test('GET /v1/transactions/{id} finds a transaction of a sub-account (API keys are account-level)', async () => {
    const h = await startHarness();
    const made = await h.v2('POST', '/pix', { body: { amount: 10, description: 'sub' }, subAccount: DEFAULT.subAccounts.centro });
    expect((await v1call(h, 'GET', `/transactions/${made.body.id}`)).body).toMatchObject({ id: made.body.id, status: 'pending' });
  });

  test('a v1 refund is the core\'s: PENDING, then refund_completed on the clock', async () => {
    const h = await startHarness();
    const pix = await v1ok(h, '/pix', { amount: 50, description: 'x' });
    await h.control('POST', `/transactions/${pix.id}/pay`);
    const refund = await v1ok(h, `/transactions/${pix.id}/refund`, { reason: 'devolução' });
    expect(refund).toMatchObject({ originalTransactionId: pix.id, status: 'PENDING' });
    await h.advance(5);
    const [event] = await eventsOf(h, 'refund_completed');
    expect(event.payload.data).toMatchObject({ originalTransactionId: pix.id, amount: 50 });
    expect((await v1call(h, 'POST', `/transactions/${pix.id}/refund`, {})).status).toBe(400);
  });

  test('GET /v1/metrics counts what v1 made (a v1 charge, a link payment, a static QR payment)', async () => {
    const h = await startHarness();
    const pix = await v1ok(h, '/pix', { amount: 10, description: 'x' });
    await h.control('POST', `/transactions/${pix.id}/pay`);
    const link = await v1ok(h, '/charges', { projectId: DEFAULT.projectId, name: 'L', amount: 20, paymentMethods: ['pix'] });
    await h.control('POST', `/charges/${link.id}/pay`);
    const qr = await v1ok(h, '/pix/qrcode-static', { amount: 30, description: 'q' });
    await h.control('POST', `/transactions/${qr.id}/pay`);
    expect((await v1call(h, 'GET', '/metrics')).body.totalRevenue).toBe(60);
  });
});

describe('static QR codes', () => {
  test('a static BR Code: point of initiation 11, the account\'s first PIX key, the amount, a valid CRC', async () => {
    const h = await startHarness();
    const account = await h.control('GET', `/accounts/${DEFAULT.accountId}`);
    const qr = await v1ok(h, '/pix/qrcode-static', { amount: 25, description: 'Doação' });
    const parsed = parseBrCode(qr.pixCopyPaste);
    expect(parsed.crcValid).toBe(true);
    expect(parsed.fields['01']).toBe('11');
    expect(parsed.merchantAccount['01']).toBe(account.body.pixKeys[0].key);
    expect(parsed.merchantAccount['01']).toBe('8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d');
    expect(parsed.merchantAccount['25']).toBeUndefined();
    expect(parsed.amountCents).toBe(2500);
    expect(qr).toMatchObject({ status: 'pending', amount: 25, expiresAt: '2026-03-11T12:00:00.000Z' });
    const decoded = await h.control('POST', '/brcodes/decode', { code: qr.pixCopyPaste });
    expect(decoded.body.valid).toBe(true);
  });

  test('paid twice: two completed payment transactions with their own ids, two payment_completed', async () => {
    const h = await startHarness();
    const qr = await v1ok(h, '/pix/qrcode-static', { amount: 25, description: 'Doação', externalReference: 'doacao', metadata: { campaign: 'x' } });
    const a = await h.control('POST', `/transactions/${qr.id}/pay`);
    const b = await h.control('POST', `/transactions/${qr.id}/pay`, { payerName: 'Bia' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(a.body.id).not.toBe(qr.id);
    for (const p of [a.body, b.body]) expect(p).toMatchObject({ type: 'payment', status: 'completed', amount: 25, externalReference: 'doacao', metadata: { campaign: 'x', staticQrId: qr.id } });
    expect((await eventsOf(h, 'payment_completed')).map((e) => e.payload.data.transactionId).sort()).toEqual([a.body.id, b.body.id].sort());
    expectLedgerBalanced(h.sb);
  });

  test('after expiresAt it is cancelled and refuses payments (409)', async () => {
    const h = await startHarness();
    const qr = await v1ok(h, '/pix/qrcode-static', { amount: 25, description: 'x', expiresIn: 300 });
    await h.advance(300);
    const res = await h.control('POST', `/transactions/${qr.id}/pay`);
    expect(res.status, res.text).toBe(409);
    expect((await h.control('POST', `/transactions/${qr.id}/expire`)).status).toBe(409);
  });
});

describe('withdrawals', () => {
  test('by bankAccountId: the bank account\'s holder is the snapshot; v2 sees the same withdrawal; withdrawal_completed follows', async () => {
    const h = await startHarness();
    const created = await h.control('POST', '/accounts', { balance: 100, bankAccounts: [{ bank: '341', agency: '0001', account: '1234-5', holderName: 'Padaria Pão', holderDocument: '11222333000181' }] });
    expect(created.status, created.text).toBe(201);
    const { bankAccounts, apiKeys } = created.body;
    expect(bankAccounts[0]).toMatchObject({ id: expect.any(String), bank: '341', holderName: 'Padaria Pão' });
    expect(apiKeys[0].permissions).toEqual(['FULL_ACCESS']);
    const res = await h.api('POST', '/v1/withdrawals', { body: { amount: 50, bankAccountId: bankAccounts[0].id }, headers: { 'x-api-key': apiKeys[0].key } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ bankAccountId: bankAccounts[0].id, amount: 50, status: 'pending', snapshotHolderName: 'Padaria Pão', snapshotHolderDocument: '11222333000181', snapshotPixKeyType: 'cnpj' });
    await h.advance(5);
    const account = h.sb.deps.store.account(created.body.id);
    expect(account.transactions[res.body.id]!.withdrawal!.status).toBe('completed');
    expect(account.events.map((e) => e.event)).toContain('withdrawal_completed');
  });
});

describe('webhook header word', () => {
  test.each([
    { name: 'default', options: {}, tenant: undefined, word: 'Service' },
    { name: '--webhook-header-word', options: { webhookHeaderWord: 'Acme' }, tenant: undefined, word: 'Acme' },
    { name: 'per tenant, over the sandbox\'s', options: { webhookHeaderWord: 'Acme' }, tenant: 'Pague', word: 'Pague' },
  ])('$name: headers X-$word-Event, -Webhook-ID, -Signature, -Timestamp and User-Agent $word-Webhook/1.0', async ({ options, tenant, word }) => {
    const { h, receiver } = await withReceiver(options);
    if (tenant) expect((await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { webhookHeaderWord: tenant })).status).toBe(200);
    const pix = await v1ok(h, '/pix', { amount: 10, description: 'x' });
    await h.control('POST', `/transactions/${pix.id}/pay`);
    await h.sb.settle();
    const [req] = await receiver.waitFor(1);
    const w = word.toLowerCase();
    expect(req!.headers['user-agent']).toBe(`${word}-Webhook/1.0`);
    expect(req!.headers[`x-${w}-event`]).toBe('payment_completed');
    expect(req!.headers[`x-${w}-webhook-id`]).toMatch(/^[0-9a-f-]{36}$/);
    expect(req!.headers[`x-${w}-signature`]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(req!.headers[`x-${w}-timestamp`]).toMatch(/^\d+$/);
    if (w !== 'service') expect(req!.headers['x-service-event']).toBeUndefined();
  });

  test('a word that cannot name a header is a 400 naming webhookHeaderWord', async () => {
    const h = await startHarness();
    const res = await h.control('POST', '/accounts', { webhookHeaderWord: 'Bad Word' });
    expect(res.status).toBe(400);
    expect(res.body.details.fields[0].field).toBe('webhookHeaderWord');
  });
});

describe('all-or-nothing', () => {
  const cases = [
    { name: 'POST /v1/pix with a new customer', setup: async () => undefined, send: (h: Harness) => v1call(h, 'POST', '/pix', { amount: 10, description: 'x', customer: { name: 'Ana', document: '52998224725' } }) },
    { name: 'paying a payment link', setup: async (h: Harness) => (await v1ok(h, '/charges', { projectId: DEFAULT.projectId, name: 'L', amount: 10, paymentMethods: ['pix'] })).id, send: (h: Harness, id: string) => h.control('POST', `/charges/${id}/pay`) },
    { name: 'paying a static QR code', setup: async (h: Harness) => (await v1ok(h, '/pix/qrcode-static', { amount: 10, description: 'q' })).id, send: (h: Harness, id: string) => h.control('POST', `/transactions/${id}/pay`) },
    { name: 'a withdrawal by bankAccountId', setup: async () => undefined, send: (h: Harness) => v1call(h, 'POST', '/withdrawals', { amount: 5, bankAccountId: 'bank-1' }) },
  ];
  test.each(cases)('$name: each of its writes failing in turn answers 500 and leaves the state as it was', async ({ setup, send }) => {
    const hooks: UnitHooks = {};
    const h = await startHarness({ testHooks: hooks });
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { bankAccounts: [{ id: 'bank-1', bank: '341', agency: '1', account: '2', holderName: 'A', holderDocument: '52998224725' }] });
    const id = (await setup(h)) as string;
    const before = JSON.stringify(h.sb.deps.store.raw.accounts);
    const failed = await failEachWrite(hooks, () => send(h, id), () => expect(JSON.stringify(h.sb.deps.store.raw.accounts)).toBe(before));
    expect(failed).toBeGreaterThan(0);
    expectLedgerBalanced(h.sb);
  });
});

test('a static QR code pasted on /pay decodes as payable, and the pay path it names makes one more payment', async () => {
  const h = await startHarness();
  const qr = await v1ok(h, '/pix/qrcode-static', { amount: 25, description: 'Doação' });
  const decoded = await h.control('POST', '/brcodes/decode', { code: qr.pixCopyPaste });
  expect(decoded.body).toMatchObject({ verdict: 'payable', chargeId: qr.id, charge: { id: qr.id, amount: 25, status: 'pending', payPath: `/_sandbox/transactions/${qr.id}/pay` } });
  const paid = await h.api('POST', decoded.body.charge.payPath, { body: {} });
  expect(paid.body).toMatchObject({ type: 'payment', status: 'completed', amount: 25 });
  await h.advance(86400);
  expect((await h.control('POST', '/brcodes/decode', { code: qr.pixCopyPaste })).body).toMatchObject({ verdict: 'not_payable', charge: { status: 'expired' } });
});

test('with --data, payment links, static QR codes and bank accounts survive a restart', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'v1-data-'));
  try {
    const dataFile = join(dir, 'state.json');
    const first = await startHarness({ dataFile });
    await first.control('PATCH', `/accounts/${DEFAULT.accountId}`, { bankAccounts: [{ id: 'bank-9', bank: '1', agency: '1', account: '1', holderName: 'A', holderDocument: '52998224725' }], webhookHeaderWord: 'Acme' });
    const link = await v1ok(first, '/charges', { projectId: DEFAULT.projectId, name: 'L', amount: 10, paymentMethods: ['boleto'] });
    await first.control('POST', `/charges/${link.id}/pay`);
    const qr = await v1ok(first, '/pix/qrcode-static', { amount: 5, description: 'q' });
    await first.sb.close();
    const second = await startHarness({ dataFile });
    expect((await v1call(second, 'GET', `/charges/${link.id}`)).body).toMatchObject({ paymentsCount: 1, totalCollected: 10 });
    expect((await second.control('POST', `/transactions/${qr.id}/pay`)).status).toBe(200);
    expect((await second.control('GET', `/accounts/${DEFAULT.accountId}`)).body).toMatchObject({ bankAccounts: [{ id: 'bank-9' }], webhookHeaderWord: 'Acme' });
    await second.sb.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
