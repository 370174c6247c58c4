import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { advanceTo, createCharge, paidCharge, v1 } from '../helpers/v1';

const ANA = { name: 'Ana Souza', document: '52998224725' };
const BIA = { name: 'Bia Lima', email: 'bia@example.com' };
const CAIO = { name: 'Caio Dias', document: '12345678909' };

type DayMetrics = { revenue: number; mrr: number; subscribers: number };
const ZERO: DayMetrics = { revenue: 0, mrr: 0, subscribers: 0 };

/** Every day from `from` to `to` as zeros, then the given days. */
function days(from: string, to: string, given: Record<string, DayMetrics>): Record<string, DayMetrics> {
  const out: Record<string, DayMetrics> = {};
  for (let d = from; d <= to; d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) out[d] = given[d] ?? ZERO;
  return out;
}

/**
 * The known set (times in UTC; Brazil is UTC-3): T0 = 2026-03-10 12:00 (09:00 in Brazil).
 *   2026-03-10 12:00  100.00  Ana            -> Brazil day 03-10
 *   2026-03-11 02:30   50.00  Bia            -> 03-10 (23:30 in Brazil, already 03-11 in UTC)
 *   2026-03-11 03:30   25.50  Ana again      -> 03-11 (00:30 in Brazil)
 *   2026-03-13 15:00   10.00  no customer    -> 03-13
 *   2026-03-13 15:00   40.00  Caio, made by loja-centro with 15.00 split to loja-norte -> 03-13
 * plus charges that never complete: one left pending, one expired, one failed. The clock ends at 2026-03-13 15:00.
 */
async function knownWorld(): Promise<Harness> {
  const h = await startHarness();
  await paidCharge(h, 100, ANA);
  await createCharge(h, 999, { name: 'Never Pays', email: 'never@example.com' });
  const expiring = await h.v2('POST', '/pix', { body: { amount: 500, description: 'expires', expiresIn: 300, customer: { name: 'Too Late' } } });
  expect(expiring.status, expiring.text).toBe(201);
  const failing = await createCharge(h, 300, { name: 'Fails' });
  expect((await h.control('POST', `/transactions/${failing}/fail`)).status).toBe(200);
  await advanceTo(h, '2026-03-11T02:30:00Z');
  await paidCharge(h, 50, BIA);
  await advanceTo(h, '2026-03-11T03:30:00Z');
  await paidCharge(h, 25.5, ANA);
  await advanceTo(h, '2026-03-13T15:00:00Z');
  await paidCharge(h, 10);
  await paidCharge(h, 40, CAIO, { subAccount: DEFAULT.subAccounts.centro, split: [{ subAccount: DEFAULT.subAccounts.norte, amount: 15 }] });
  return h;
}

describe('GET /v1/metrics', () => {
  test('totals, MRR and subscribers of a known set of payments, by Brazilian day, over the 30 days ending today', async () => {
    const h = await knownWorld();
    const res = await v1(h, '/metrics');
    expect(res.status, res.text).toBe(200);
    expect(res.body, res.text).toEqual({
      totalRevenue: 225.5,
      currentMrr: 225.5,
      groupedByDay: days('2026-02-12', '2026-03-13', {
        '2026-03-10': { revenue: 150, mrr: 150, subscribers: 2 },
        '2026-03-11': { revenue: 25.5, mrr: 175.5, subscribers: 2 },
        '2026-03-12': { revenue: 0, mrr: 175.5, subscribers: 2 },
        '2026-03-13': { revenue: 50, mrr: 225.5, subscribers: 3 },
      }),
    });
    expect(Object.keys(res.body.groupedByDay)).toHaveLength(30);
  });

  test('a payment leaves the MRR window 30 days after its Brazilian day', async () => {
    const h = await knownWorld();
    const res = await v1(h, '/metrics?from=2026-04-07&to=2026-04-10');
    expect(res.body, res.text).toEqual({
      totalRevenue: 225.5,
      currentMrr: 225.5, // today is still 2026-03-13
      groupedByDay: {
        '2026-04-07': { revenue: 0, mrr: 225.5, subscribers: 3 }, // window 03-09..04-07
        '2026-04-08': { revenue: 0, mrr: 225.5, subscribers: 3 }, // window 03-10..04-08: the last day that holds 03-10
        '2026-04-09': { revenue: 0, mrr: 75.5, subscribers: 2 }, // window 03-11..04-09: Ana (her 03-11 payment) and Caio
        '2026-04-10': { revenue: 0, mrr: 50, subscribers: 1 }, // window 03-12..04-10: Caio
      },
    });
  });

  test('currentMrr and the default range follow the sandbox clock', async () => {
    const h = await knownWorld();
    await advanceTo(h, '2026-04-09T12:00:00Z');
    const res = await v1(h, '/metrics');
    expect(res.body.currentMrr, res.text).toBe(75.5);
    expect(res.body.totalRevenue).toBe(225.5);
    const keys = Object.keys(res.body.groupedByDay);
    expect([keys[0], keys.at(-1), keys.length]).toEqual(['2026-03-11', '2026-04-09', 30]);
    expect(res.body.groupedByDay['2026-03-11']).toEqual({ revenue: 25.5, mrr: 175.5, subscribers: 2 });
  });

  test('the day of a payment is its Brazilian date: 02:59:59.999 UTC is the day before, 03:00 UTC the day itself', async () => {
    const h = await startHarness();
    await advanceTo(h, '2026-03-11T02:59:59.999Z');
    await paidCharge(h, 10, ANA);
    await advanceTo(h, '2026-03-11T03:00:00.000Z');
    await paidCharge(h, 20, BIA);
    const res = await v1(h, '/metrics?from=2026-03-10&to=2026-03-11');
    expect(res.body, res.text).toEqual({
      totalRevenue: 30,
      currentMrr: 30,
      groupedByDay: {
        '2026-03-10': { revenue: 10, mrr: 10, subscribers: 1 },
        '2026-03-11': { revenue: 20, mrr: 30, subscribers: 2 },
      },
    });
  });

  test('an account without payments has zeros for every day', async () => {
    const h = await startHarness();
    const res = await v1(h, '/metrics');
    expect(res.body, res.text).toEqual({ totalRevenue: 0, currentMrr: 0, groupedByDay: days('2026-02-09', '2026-03-10', {}) });
  });

  test('366 days may be asked for at once', async () => {
    const h = await startHarness();
    const res = await v1(h, '/metrics?from=2025-03-10&to=2026-03-10');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.groupedByDay)).toHaveLength(366);
  });

  test.each([
    ['from=2026-02-30', 'from'],
    ['from=10-03-2026', 'from'],
    ['to=2026/03/10', 'to'],
    ['to=2026-3-1', 'to'],
    ['from=2026-03-12&to=2026-03-11', 'from'],
    ['from=2026-03-11', 'from'], // after today (2026-03-10), the default `to`
    ['from=2025-03-09&to=2026-03-10', 'from'], // 367 days
  ])('%s is 400 VALIDATION_ERROR naming %s', async (query, field) => {
    const h = await startHarness();
    const res = await v1(h, `/metrics?${query}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'BadRequest', details: { code: 'VALIDATION_ERROR' } });
    expect(res.body.details.fields.map((f: any) => f.field)).toEqual([field]);
  });
});

/** A refund of `paymentId` through POST /v2/transactions/{id}/refund; it completes by the account's automation (2 s). */
async function refund(h: Harness, paymentId: string): Promise<{ complete(): Promise<void> }> {
  const account = h.sb.deps.store.account(DEFAULT.accountId);
  const refundOf = () => Object.values(account.transactions).find((t) => t.type === 'refund' && t.relatedTransactionId === paymentId);
  const res = await h.v2('POST', `/transactions/${paymentId}/refund`, { body: { reason: 'metrics test' } });
  expect(res.status, res.text).toBe(201);
  expect(refundOf()?.status, 'the refund transaction exists and is not completed yet').not.toBe('completed');
  return {
    async complete() {
      await h.advance(2);
      expect(refundOf()?.status, `refund of ${paymentId} after 2 s of automation`).toBe('completed');
    },
  };
}

describe('refunds in the metrics', () => {
  test('a completed refund lowers the revenue of the day it completed; the payment day keeps its revenue; a pending one counts for nothing', async () => {
    const h = await startHarness();
    const payment = await paidCharge(h, 100, ANA); // 2026-03-10
    await paidCharge(h, 30, BIA); // 2026-03-10
    await advanceTo(h, '2026-03-12T15:00:00Z'); // 12:00 in Brazil on 03-12
    const r = await refund(h, payment);
    const before = await v1(h, '/metrics?from=2026-03-10&to=2026-03-12');
    expect(before.body, before.text).toMatchObject({ totalRevenue: 130, currentMrr: 130 });
    await r.complete();
    const res = await v1(h, '/metrics?from=2026-03-10&to=2026-03-12');
    expect(res.body, res.text).toEqual({
      totalRevenue: 30,
      currentMrr: 30,
      groupedByDay: {
        '2026-03-10': { revenue: 130, mrr: 130, subscribers: 2 },
        '2026-03-11': { revenue: 0, mrr: 130, subscribers: 2 },
        '2026-03-12': { revenue: -100, mrr: 30, subscribers: 2 }, // Ana still paid in the window: refunds do not remove subscribers
      },
    });
  });
});
