// Magic values (sandbox.md 4.11): a magic CPF as a charge's customer.document or a magic PIX key of a withdrawal picks
// the outcome on the sandbox clock, with no control call, through the same verbs as the control actions; the account's
// automation.magicValues: false turns them off. Everything goes through HTTP; time moves with POST /_sandbox/clock/advance.
import { describe, expect, test } from 'vitest';
import { createSandbox } from '../../src/app';
import { MAGIC_VALUES, type MagicWhere } from '../../src/domain/magic';
import { DEFAULT, expectLedgerBalanced, startHarness, T0, type Harness } from '../helpers/harness';
import { accountOf, balanceOf, eventsOf, refundIdOf, VALID_CPF } from '../helpers/money';
import { deliveries, withReceiver } from '../helpers/webhooks';

const CUSTOMER_NAME = 'Cliente Mágico';

async function createCharge(h: Harness, document: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await h.v2('POST', '/pix', { body: { amount: 100, description: 'magic', customer: { name: CUSTOMER_NAME, document }, ...body } });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('pending');
  return res.body.id;
}

async function createWithdrawal(h: Harness, pixKey: string, pixKeyType: 'cpf' | 'email', body: Record<string, unknown> = {}): Promise<string> {
  const res = await h.v2('POST', '/withdrawals', {
    body: { amount: 100, pixKey, pixKeyType, holderName: 'Fulano de Tal', holderDocument: VALID_CPF, holderDocumentType: 'cpf', ...body },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('pending');
  return res.body.id;
}

const statusOf = async (h: Harness, id: string) => {
  const res = await h.v2('GET', `/transactions/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.status as string;
};

const eventKinds = async (h: Harness) => (await eventsOf(h)).map((e) => e.event as string);

/** The withdrawal's own state, read through HTTP: a control `process` names it in its 409 (or moves a pending one). */
async function withdrawalState(h: Harness, id: string): Promise<string> {
  const res = await h.control('POST', `/transactions/${id}/process`);
  expect(res.status, res.text).toBe(409);
  return res.body.details.from;
}

interface Step {
  /** Seconds to advance the sandbox clock before checking. */
  advance: number;
  /** Request a refund of the charge (POST /v2/transactions/{id}/refund) before advancing. */
  refund?: boolean;
  /** GET /v2/transactions/{id} status after the advance. */
  status: string;
  available: number;
  held?: number;
  /** Every event kind recorded so far, oldest first. */
  events: string[];
}

interface Row {
  value: string;
  where: MagicWhere;
  pixKeyType?: 'cpf' | 'email';
  steps: Step[];
  /** What the outcome looks like in detail, checked after the last step. */
  check: (h: Harness, id: string, refundId?: string) => Promise<void>;
}

// Charge of 100.00: fee 0.99, net 99.01. Withdrawal of 100.00 gross (fee 1.00): 100.00 leaves available at creation.
const PAID = 1099.01;
const chargeRows: Row[] = [
  {
    value: '00000000191',
    where: 'charge.customer.document',
    steps: [
      { advance: 4, status: 'pending', available: 1000, events: [] },
      { advance: 1, status: 'completed', available: PAID, events: ['payment_completed'] },
    ],
    check: async (h, id) => {
      const tx = (await h.v2('GET', `/transactions/${id}`)).body;
      expect(tx, JSON.stringify(tx)).toMatchObject({ paidAt: '2026-03-10T12:00:05.000Z', counterpartName: CUSTOMER_NAME, counterpartDocument: '00000000191' });
      const [event] = await eventsOf(h, 'payment_completed');
      expect(event.payload.data).toMatchObject({ transactionId: id, feeAmount: 0.99, netAmount: 99.01, counterpartDocument: '00000000191' });
    },
  },
  {
    value: '00000000272',
    where: 'charge.customer.document',
    steps: [
      { advance: 4, status: 'pending', available: 1000, events: [] },
      { advance: 1, status: 'cancelled', available: 1000, events: ['payment_expired'] },
    ],
    check: async (h, id) => {
      const [event] = await eventsOf(h, 'payment_expired');
      expect(event).toMatchObject({ eventId: `payment_expired_${id}`, payload: { data: { status: 'expired', expiredAt: '2026-03-10T12:00:05.000Z' } } });
    },
  },
  {
    value: '00000000353',
    where: 'charge.customer.document',
    steps: [
      { advance: 4, status: 'pending', available: 1000, events: [] },
      { advance: 1, status: 'failed', available: 1000, events: [] },
      { advance: 86_400, status: 'failed', available: 1000, events: [] },
    ],
    check: async (h, id) => {
      const pay = await h.control('POST', `/transactions/${id}/pay`);
      expect(pay.status, pay.text).toBe(409);
    },
  },
  {
    value: '00000000434',
    where: 'charge.customer.document',
    steps: [
      { advance: 5, status: 'completed', available: PAID, events: ['payment_completed'] },
      { advance: 59, status: 'completed', available: PAID, events: ['payment_completed'] },
      { advance: 1, status: 'completed', available: PAID - 100, held: 100, events: ['payment_completed', 'balance_block_created'] },
    ],
    check: async (h, id) => {
      const blocks = (await h.v2('GET', '/balance-blocks')).body;
      expect(blocks.items, JSON.stringify(blocks)).toHaveLength(1);
      expect(blocks.items[0]).toMatchObject({ transactionId: id, amount: 100, status: 'awaiting_response', blockType: 'med', createdAt: '2026-03-10T12:01:05.000Z' });
      // The same block the control action opens: a control action resolves it.
      const approved = await h.control('POST', `/balance-blocks/${blocks.items[0].id}/approve`);
      expect(approved.status, approved.text).toBe(200);
      expect(await balanceOf(h)).toMatchObject({ available: PAID - 100, held: 0 });
    },
  },
  {
    value: '00000000515',
    where: 'charge.customer.document',
    steps: [
      { advance: 5, status: 'completed', available: PAID, events: ['payment_completed'] },
      // The refund's amount leaves at acceptance, as any refund's does...
      { advance: 1, refund: true, status: 'completed', available: PAID - 100, events: ['payment_completed'] },
      // ...and comes back when it ends ERROR; no refund fee, no refund_completed.
      { advance: 1, status: 'completed', available: PAID, events: ['payment_completed'] },
    ],
    check: async (h, id, refundId) => {
      const refund = (await h.v2('GET', `/transactions/${refundId}`)).body;
      expect(refund, JSON.stringify(refund)).toMatchObject({ type: 'refund', status: 'failed', amount: 100 });
      // The only fee is the charge's: an ERROR refund pays none.
      const fees = Object.values(accountOf(h).transactions).filter((t) => t.type === 'fee');
      expect(fees.map((f) => f.description)).toEqual([`PIX fee of ${id}`]);
      // The payment can be refunded again (the ERROR refund is not live); that one ends ERROR too.
      const again = await h.v2('POST', `/transactions/${id}/refund`, { body: {} });
      expect(again.status, again.text).toBe(201);
      await h.advance(2);
      expect(await statusOf(h, refundIdOf(again))).toBe('failed');
      expect((await balanceOf(h)).available).toBe(PAID);
    },
  },
];

/** The two rows of one withdrawal outcome: its email key, then its cpf key. */
const keyRows = (email: string, cpf: string, steps: Step[], check: Row['check']): Row[] =>
  ([[email, 'email'], [cpf, 'cpf']] as const).map(([value, pixKeyType]) => ({ value, where: 'withdrawal.pixKey', pixKeyType, steps, check }));

const withdrawalRows: Row[] = [
  ...keyRows(
    'falha@pix-sandbox.test',
    '00000000353',
    [
      { advance: 1, status: 'pending', available: 900, events: [] },
      { advance: 1, status: 'failed', available: 1000, events: ['withdrawal_failed'] },
    ],
    async (h, id) => {
      const [event] = await eventsOf(h, 'withdrawal_failed');
      expect(event).toMatchObject({ eventId: `withdrawal_failed_${id}`, payload: { data: { withdrawalId: id, status: 'failed', failureReason: 'Chave PIX não encontrada', failedAt: '2026-03-10T12:00:02.000Z' } } });
    },
  ),
  ...keyRows(
    'devolucao@pix-sandbox.test',
    '00000000272',
    [
      { advance: 2, status: 'completed', available: 900, events: ['withdrawal_completed'] },
      { advance: 59, status: 'completed', available: 900, events: ['withdrawal_completed'] },
      { advance: 1, status: 'failed', available: 1000, events: ['withdrawal_completed', 'withdrawal_reversed'] },
    ],
    async (h, id) => {
      const [event] = await eventsOf(h, 'withdrawal_reversed');
      expect(event).toMatchObject({
        eventId: `withdrawal_reversed_${id}`,
        payload: { data: { status: 'reversed', failureReason: 'REVERSED', reversalReason: 'Conta destino encerrada', completedAt: '2026-03-10T12:00:02.000Z', reversedAt: '2026-03-10T12:01:02.000Z' } },
      });
      expect(await withdrawalState(h, id)).toBe('reversed');
    },
  ),
  ...keyRows(
    'lento@pix-sandbox.test',
    '00000000434',
    [
      { advance: 2, status: 'pending', available: 900, events: [] },
      { advance: 7 * 86_400, status: 'pending', available: 900, events: [] },
    ],
    async (h, id) => {
      expect(await withdrawalState(h, id)).toBe('processing');
      // Until a control action moves it.
      const done = await h.control('POST', `/transactions/${id}/complete`);
      expect(done.status, done.text).toBe(200);
      expect(done.body).toMatchObject({ status: 'completed', pspReference: expect.stringMatching(/^sbx/) });
    },
  ),
];

const rows = [...chargeRows, ...withdrawalRows];

describe('magic values, on by default', () => {
  test('the table test below covers every row of the magic-value table, and nothing else', () => {
    // Pix Automático's magic debtors are walked by test/api-pix/automatico (their outcomes are a recurrence's).
    const here = MAGIC_VALUES.filter((m) => m.where !== 'rec.vinculo.devedor');
    expect(rows.map((r) => [r.where, r.value])).toEqual(here.flatMap((m) => m.values.map((v) => [m.where, v])));
  });

  test.each(rows.map((r) => [`${r.where} ${r.value}`, r] as const))('%s: its outcome on the sandbox clock, events delivered, balances right', async (_, row) => {
    const { h } = await withReceiver();
    const id = row.where === 'charge.customer.document' ? await createCharge(h, row.value) : await createWithdrawal(h, row.value, row.pixKeyType!);
    let refundId: string | undefined;
    let elapsed = 0;
    for (const step of row.steps) {
      if (step.refund) {
        const res = await h.v2('POST', `/transactions/${id}/refund`, { body: {} });
        expect(res.status, res.text).toBe(201);
        expect(res.body.status).toBe('PENDING');
        refundId = refundIdOf(res);
      }
      const moved = await h.advance(step.advance);
      expect(moved.status, moved.text).toBe(200);
      elapsed += step.advance;
      const where = `after ${elapsed} s`;
      expect(await statusOf(h, id), where).toBe(step.status);
      expect(await balanceOf(h), where).toMatchObject({ available: step.available, held: step.held ?? 0 });
      const events = await eventsOf(h);
      expect(
        events.map((e) => e.event),
        where,
      ).toEqual(step.events);
      // Each event went to the default endpoint's receiver, signed, and was taken (2xx).
      await h.sb.settle();
      const sent = await deliveries(h);
      expect(sent.map((d) => [d.eventId, d.state]).sort(), where).toEqual(events.map((e) => [e.eventId, 'succeeded']).sort());
    }
    await row.check(h, id, refundId);
    expectLedgerBalanced(h.sb);
  });
});

describe('automation.magicValues: false turns them off', () => {
  test.each(rows.map((r) => [`${r.where} ${r.value}`, r] as const))('%s is a plain value', async (_, row) => {
    const h = await startHarness();
    const off = await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { magicValues: false } });
    expect(off.status, off.text).toBe(200);
    if (row.where === 'charge.customer.document') {
      // A charge stays pending until paid or expired; paid by the control action, its refund completes.
      const id = await createCharge(h, row.value);
      await h.advance(120);
      expect(await statusOf(h, id)).toBe('pending');
      expect(await eventKinds(h)).toEqual([]);
      expect((await h.control('POST', `/transactions/${id}/pay`)).status).toBe(200);
      const refund = await h.v2('POST', `/transactions/${id}/refund`, { body: {} });
      expect(refund.status, refund.text).toBe(201);
      await h.advance(120);
      expect(await statusOf(h, refundIdOf(refund))).toBe('completed');
      expect(await eventKinds(h)).toEqual(['payment_completed', 'refund_completed']);
      expect((await h.v2('GET', '/balance-blocks')).body.total).toBe(0);
    } else {
      // A withdrawal completes by automation after 2 s and stays completed.
      const id = await createWithdrawal(h, row.value, row.pixKeyType!);
      await h.advance(120);
      expect(await statusOf(h, id)).toBe('completed');
      expect(await eventKinds(h)).toEqual(['withdrawal_completed']);
      expect((await balanceOf(h)).available).toBe(900);
    }
    expectLedgerBalanced(h.sb);
  });

  test('the account answer shows magicValues: true by default, and PATCH changes only it', async () => {
    const h = await startHarness();
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body.automation).toEqual({ completeAfterSeconds: 2, autoPayAfterSeconds: null, magicValues: true });
    const res = await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { magicValues: false } });
    expect(res.body.automation, res.text).toEqual({ completeAfterSeconds: 2, autoPayAfterSeconds: null, magicValues: false });
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body.automation.magicValues).toBe(false);
    const back = await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { magicValues: true } });
    expect(back.body.automation.magicValues).toBe(true);
  });

  test('POST /_sandbox/accounts takes automation.magicValues in its spec, and that tenant gets plain values', async () => {
    const h = await startHarness();
    const created = await h.control('POST', '/accounts', { balance: 500, automation: { magicValues: false } });
    expect(created.status, created.text).toBe(201);
    const detail = await h.control('GET', `/accounts/${created.body.id}`);
    expect(detail.body.automation).toEqual({ completeAfterSeconds: 2, autoPayAfterSeconds: null, magicValues: false });
    const { clientId, clientSecret } = created.body.credentials[0];
    const token = await h.token(clientId, clientSecret);
    const charge = await h.api('POST', '/v2/pix', { token, body: { amount: 10, description: 'x', customer: { document: '00000000191' } } });
    expect(charge.status, charge.text).toBe(201);
    await h.advance(10);
    expect((await h.api('GET', `/v2/transactions/${charge.body.id}`, { token })).body.status).toBe('pending');
  });

  test('fixtures can turn them off per account', async () => {
    const sb = await createSandbox({ log: () => {}, clockStart: T0, freezeClock: true, fixtures: { accounts: [{ name: 'Sem Mágica', automation: { magicValues: false } }] } });
    const [account] = Object.values(sb.deps.store.state.accounts);
    const res = await sb.app.request(`/_sandbox/accounts/${account!.id}`);
    expect(((await res.json()) as { automation: unknown }).automation).toEqual({ completeAfterSeconds: 2, autoPayAfterSeconds: null, magicValues: false });
    await sb.close();
  });

  test.each([['no'], [0], [null]])('automation.magicValues %j is a 400 that names the field and changes nothing', async (value) => {
    const h = await startHarness();
    const res = await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { magicValues: value, completeAfterSeconds: 0 } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field), res.text).toEqual(['automation.magicValues']);
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body.automation).toEqual({ completeAfterSeconds: 2, autoPayAfterSeconds: null, magicValues: true });
  });

  test('an account from a data file written before the flag (automation without magicValues) has them on', async () => {
    const h = await startHarness();
    delete (accountOf(h).automation as { magicValues?: boolean }).magicValues;
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body.automation.magicValues).toBe(true);
    const id = await createCharge(h, '00000000191');
    await h.advance(5);
    expect(await statusOf(h, id)).toBe('completed');
  });

  test('a 00000000515 payment refunded after magic values were turned off gets a plain refund (completes, fee charged)', async () => {
    const h = await startHarness();
    const id = await createCharge(h, '00000000515');
    await h.advance(5);
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { magicValues: false } });
    const refund = await h.v2('POST', `/transactions/${id}/refund`, { body: {} });
    expect(refund.status, refund.text).toBe(201);
    await h.advance(2);
    expect(await statusOf(h, refundIdOf(refund))).toBe('completed');
    expect((await balanceOf(h)).available).toBe(PAID - 100 - 0.5);
  });

  test('the flag is read when the transaction is created: a magic charge made while on still pays after it is turned off', async () => {
    const h = await startHarness();
    const id = await createCharge(h, '00000000191');
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { magicValues: false } });
    await h.advance(5);
    expect(await statusOf(h, id)).toBe('completed');
  });
});

describe('a magic value applies only where the table says', () => {
  test.each([
    ['a charge CPF that is only magic for charges, as a withdrawal cpf key', '00000000191', 'cpf'],
    ['another charge-only CPF as a withdrawal cpf key', '00000000515', 'cpf'],
    ['an unknown address at the magic domain', 'outro@pix-sandbox.test', 'email'],
  ] as const)('%s: plain withdrawal', async (_, pixKey, pixKeyType) => {
    const h = await startHarness();
    const id = await createWithdrawal(h, pixKey, pixKeyType);
    await h.advance(120);
    expect(await statusOf(h, id)).toBe('completed');
    expect(await eventKinds(h)).toEqual(['withdrawal_completed']);
  });

  test('a magic CPF as the withdrawal holderDocument (not the key) does nothing', async () => {
    const h = await startHarness();
    const id = await createWithdrawal(h, 'fulano@example.com', 'email', { holderDocument: '00000000353' });
    await h.advance(120);
    expect(await statusOf(h, id)).toBe('completed');
  });

  test('a magic email key compares without case', async () => {
    const h = await startHarness();
    const id = await createWithdrawal(h, 'FALHA@Pix-Sandbox.test', 'email');
    await h.advance(2);
    expect(await statusOf(h, id)).toBe('failed');
    expect((await eventsOf(h, 'withdrawal_failed'))[0].payload.data.failureReason).toBe('Chave PIX não encontrada');
  });

  test('a withdrawal-only email as a charge customer email does nothing', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: { amount: 100, description: 'x', customer: { email: 'falha@pix-sandbox.test' } } });
    await h.advance(120);
    expect(await statusOf(h, res.body.id)).toBe('pending');
  });

  test('a sub-account charge with a magic CPF is paid into the sub-account wallet', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: { amount: 100, description: 'x', customer: { document: '00000000191' } }, subAccount: DEFAULT.subAccounts.centro });
    expect(res.status, res.text).toBe(201);
    await h.advance(5);
    expect((await balanceOf(h, DEFAULT.subAccounts.centro)).available).toBe(99.01);
    expect((await balanceOf(h)).available).toBe(1000);
  });
});

describe('when a control action or other automation gets there first', () => {
  test.each([
    ['charge', '00000000191', 'cancel', 'cancelled', []],
    ['charge', '00000000191', 'expire', 'cancelled', ['payment_expired']],
    ['charge', '00000000272', 'pay', 'completed', ['payment_completed']],
    ['charge', '00000000353', 'pay', 'completed', ['payment_completed']],
    ['withdrawal', 'falha@pix-sandbox.test', 'complete', 'completed', ['withdrawal_completed']],
    ['withdrawal', 'falha@pix-sandbox.test', 'fail', 'failed', ['withdrawal_failed']],
    ['withdrawal', 'lento@pix-sandbox.test', 'complete', 'completed', ['withdrawal_completed']],
    ['withdrawal', 'lento@pix-sandbox.test', 'fail', 'failed', ['withdrawal_failed']],
    ['withdrawal', 'devolucao@pix-sandbox.test', 'fail', 'failed', ['withdrawal_failed']],
  ])('a %s with %s moved by control %s at 1 s stays %s: the magic job does nothing', async (kind, value, action, status, events) => {
    const h = await startHarness();
    const id = kind === 'charge' ? await createCharge(h, value) : await createWithdrawal(h, value, 'email');
    await h.advance(1);
    expect((await h.control('POST', `/transactions/${id}/${action}`)).status).toBe(200);
    await h.advance(3600);
    expect(await statusOf(h, id)).toBe(status);
    expect(await eventKinds(h)).toEqual(events);
  });

  test('00000000434 paid by the control action at 1 s: its MED block opens 60 s after that payment', async () => {
    const h = await startHarness();
    const id = await createCharge(h, '00000000434');
    await h.advance(1);
    await h.control('POST', `/transactions/${id}/pay`);
    await h.advance(59);
    expect((await h.v2('GET', '/balance-blocks')).body.total).toBe(0);
    await h.advance(1);
    expect((await h.v2('GET', '/balance-blocks')).body.items[0]).toMatchObject({ transactionId: id, blockType: 'med', createdAt: '2026-03-10T12:01:01.000Z' });
    // One block: the magic pay job at 5 s found the charge completed and did nothing.
    await h.advance(600);
    expect((await h.v2('GET', '/balance-blocks')).body.total).toBe(1);
  });

  test.each([
    ['refunded', async (h: Harness, id: string) => expect((await h.v2('POST', `/transactions/${id}/refund`, { body: {} })).status).toBe(201)],
    ['blocked by the control action', async (h: Harness, id: string) => expect((await h.control('POST', `/transactions/${id}/block`, { blockType: 'judicial' })).status).toBe(200)],
  ])('00000000434 %s before the 60 s: no magic block', async (_, first) => {
    const h = await startHarness();
    const id = await createCharge(h, '00000000434');
    await h.advance(10);
    await first(h, id);
    await h.advance(120);
    const blocks = (await h.v2('GET', '/balance-blocks')).body.items;
    expect(blocks.filter((b: { blockType: string }) => b.blockType === 'med')).toEqual([]);
    expectLedgerBalanced(h.sb);
  });

  test('a 00000000515 refund completed by the control action first stays completed (fee charged, refund_completed)', async () => {
    const h = await startHarness();
    const id = await createCharge(h, '00000000515');
    await h.advance(5);
    const refund = await h.v2('POST', `/transactions/${id}/refund`, { body: {} });
    const refundId = refundIdOf(refund);
    expect((await h.control('POST', `/transactions/${refundId}/complete`)).status).toBe(200);
    await h.advance(10);
    expect(await statusOf(h, refundId)).toBe('completed');
    expect((await balanceOf(h)).available).toBe(PAID - 100 - 0.5);
    expect(await eventKinds(h)).toEqual(['payment_completed', 'refund_completed']);
  });

  test('a falha@ withdrawal put to processing by the control action still fails when it would have been processed', async () => {
    const h = await startHarness();
    const id = await createWithdrawal(h, 'falha@pix-sandbox.test', 'email');
    expect((await h.control('POST', `/transactions/${id}/process`)).status).toBe(200);
    await h.advance(2);
    expect(await statusOf(h, id)).toBe('failed');
    expect(await eventKinds(h)).toEqual(['withdrawal_failed']);
  });

  test('a devolucao@ withdrawal completed by the control action at 1 s is reversed 60 s after that; reversed first by hand, no second reversal', async () => {
    const h = await startHarness();
    const id = await createWithdrawal(h, 'devolucao@pix-sandbox.test', 'email');
    await h.advance(1);
    await h.control('POST', `/transactions/${id}/complete`);
    await h.advance(60);
    const [event] = await eventsOf(h, 'withdrawal_reversed');
    expect(event.payload.data).toMatchObject({ reversalReason: 'Conta destino encerrada', reversedAt: '2026-03-10T12:01:01.000Z' });

    const id2 = await createWithdrawal(h, 'devolucao@pix-sandbox.test', 'email');
    await h.advance(2);
    expect((await h.control('POST', `/transactions/${id2}/reverse`, { reason: 'by hand' })).status).toBe(200);
    await h.advance(120);
    expect((await eventsOf(h, 'withdrawal_reversed')).map((e) => e.payload.data.reversalReason)).toEqual(['Conta destino encerrada', 'by hand']);
    expect((await balanceOf(h)).available).toBe(1000);
  });

  test('with completeAfterSeconds 10, magic withdrawals and refunds take their outcome at 10 s; with 0 (off), at 2 s', async () => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 10 } });
    const slow = await createWithdrawal(h, 'falha@pix-sandbox.test', 'email');
    await h.advance(9);
    expect(await statusOf(h, slow)).toBe('pending');
    await h.advance(1);
    expect(await statusOf(h, slow)).toBe('failed');
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
    const quick = await createWithdrawal(h, 'falha@pix-sandbox.test', 'email');
    const plain = await createWithdrawal(h, 'fulano@example.com', 'email');
    await h.advance(2);
    expect(await statusOf(h, quick)).toBe('failed');
    expect(await statusOf(h, plain)).toBe('pending');
  });

  test('with autoPayAfterSeconds 1, a magic charge takes its magic outcome (not paid at 1 s) while a plain charge is paid at 1 s', async () => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { autoPayAfterSeconds: 1 } });
    const magic = await createCharge(h, '00000000272');
    const plain = await createCharge(h, VALID_CPF);
    await h.advance(1);
    expect(await statusOf(h, plain)).toBe('completed');
    expect(await statusOf(h, magic)).toBe('pending');
    await h.advance(4);
    expect(await statusOf(h, magic)).toBe('cancelled');
    expect(await eventKinds(h)).toEqual(['payment_completed', 'payment_expired']);
  });
});
