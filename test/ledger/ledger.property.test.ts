// Property: over random sequences of charges (pay, expire, fail), refunds (complete, fail), withdrawals (process,
// complete, fail, reverse), balance blocks (defend, approve, reject), fee and automation changes and clock moves:
// - every wallet's balance equals the sum of its ledger entries, and each transaction's entries add up to what its
//   type and status say it moved;
// - no money appears or vanishes. Over all wallets of the account:
//     Σ (available + held + promotional) = Σ adjustments + Σ completed payments − Σ fees − Σ refunds not failed
//                                          − Σ withdrawals not failed − Σ completed chargebacks
//   (internal transfers, the split legs, add up to zero; an open block only moves money from available to held);
// - held is exactly the open blocks (awaiting_response or defended) of the wallet;
// - only the originator is debited: refund and chargeback entries land on the payment's own wallet, and a wallet that
//   only ever receives split legs (loja-norte) never goes down.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Account, Transaction } from '../../src/domain/types';
import { DEFAULT, expectLedgerBalanced, startHarness } from '../helpers/harness';

type Op =
  | { op: 'charge'; amount: number; split: { subAccount: string; amount: number }[]; sub: boolean; pay: boolean }
  | { op: 'pay' | 'expire' | 'fail'; pick: number }
  | { op: 'refund'; pick: number }
  | { op: 'refundAction'; pick: number; action: 'complete' | 'fail' }
  | { op: 'withdraw'; amount: number; net: boolean; sub: boolean }
  | { op: 'withdrawalAction'; pick: number; action: 'process' | 'complete' | 'fail' | 'reverse' }
  | { op: 'block'; pick: number; amount: number | null }
  | { op: 'blockAction'; pick: number; action: 'defend' | 'approve' | 'reject' }
  | { op: 'fee'; percent: number; min: number; refund: number; withdrawal: number }
  | { op: 'automation'; seconds: number }
  | { op: 'advance'; seconds: number };

const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => c / 100);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant('charge' as const),
      amount: cents(100, 500_000),
      split: fc.array(fc.record({ subAccount: fc.constantFrom('loja-centro', 'loja-norte'), amount: cents(1, 5_000) }), { maxLength: 3 }),
      sub: fc.boolean(),
      pay: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ op: fc.constantFrom('pay' as const, 'expire' as const, 'fail' as const), pick: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('refund' as const), pick: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('refundAction' as const), pick: fc.nat(), action: fc.constantFrom('complete' as const, 'fail' as const) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('withdraw' as const), amount: cents(100, 60_000), net: fc.boolean(), sub: fc.boolean() }), weight: 2 },
  {
    arbitrary: fc.record({ op: fc.constant('withdrawalAction' as const), pick: fc.nat(), action: fc.constantFrom('process' as const, 'complete' as const, 'fail' as const, 'reverse' as const) }),
    weight: 2,
  },
  { arbitrary: fc.record({ op: fc.constant('block' as const), pick: fc.nat(), amount: fc.option(cents(1, 500_000), { nil: null }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('blockAction' as const), pick: fc.nat(), action: fc.constantFrom('defend' as const, 'approve' as const, 'reject' as const) }), weight: 2 },
  {
    arbitrary: fc.record({ op: fc.constant('fee' as const), percent: fc.integer({ min: 0, max: 500 }).map((p) => p / 100), min: cents(0, 200), refund: cents(0, 300), withdrawal: cents(0, 300) }),
    weight: 1,
  },
  { arbitrary: fc.record({ op: fc.constant('automation' as const), seconds: fc.constantFrom(0, 2, 30) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 90_000 }) }), weight: 1 },
);

const sum = (txs: Transaction[]) => txs.reduce((s, t) => s + t.amount, 0);
const walletTotal = (a: Account) => Object.values(a.wallets).reduce((s, w) => s + w.balances.available + w.balances.held + w.balances.promotional, 0);

/** What a transaction's ledger entries must add up to, per bucket, given its type and status. */
function effect(tx: Transaction, account: Account): { available: number; held: number } {
  switch (tx.type) {
    case 'adjustment':
      return { available: tx.amount, held: 0 };
    case 'payment':
      return { available: tx.status === 'completed' ? tx.amount : 0, held: 0 };
    case 'fee':
      return { available: -tx.amount, held: 0 };
    case 'internal_transfer':
      return { available: 0, held: 0 }; // -amount on the sender, +amount on the recipient
    case 'refund':
    case 'withdrawal':
      return { available: tx.status === 'failed' ? 0 : -tx.amount, held: 0 };
    case 'chargeback': {
      const block = Object.values(account.balanceBlocks).find((b) => b.chargebackTransactionId === tx.id)!;
      if (tx.status === 'completed') return { available: -tx.amount, held: 0 };
      if (tx.status === 'cancelled') return { available: 0, held: 0 };
      expect(['awaiting_response', 'defended']).toContain(block.status);
      return { available: -tx.amount, held: tx.amount };
    }
    default:
      throw new Error(`unexpected transaction type ${tx.type}`);
  }
}

function checkInvariants(account: Account) {
  const txs = Object.values(account.transactions);
  // Each transaction's entries add up to its effect.
  const moved = new Map<string, { available: number; held: number }>();
  for (const e of account.ledger) {
    const m = moved.get(e.transactionId) ?? { available: 0, held: 0 };
    if (e.bucket === 'held') m.held += e.amount;
    else m.available += e.amount;
    moved.set(e.transactionId, m);
  }
  for (const tx of txs) expect(moved.get(tx.id) ?? { available: 0, held: 0 }, `${tx.type} ${tx.status} ${tx.id}`).toEqual(effect(tx, account));

  // Conservation over every transaction type.
  const of = (type: Transaction['type'], keep: (t: Transaction) => boolean = () => true) => sum(txs.filter((t) => t.type === type && keep(t)));
  const expected =
    of('adjustment') +
    of('payment', (t) => t.status === 'completed') -
    of('fee') -
    of('refund', (t) => t.status !== 'failed') -
    of('withdrawal', (t) => t.status !== 'failed') -
    of('chargeback', (t) => t.status === 'completed');
  expect(walletTotal(account)).toBe(expected);

  for (const wallet of Object.values(account.wallets)) {
    const open = Object.values(account.balanceBlocks).filter((b) => b.walletId === wallet.id && (b.status === 'awaiting_response' || b.status === 'defended'));
    expect(wallet.balances.held, `held of ${wallet.reference ?? 'main'}`).toBe(open.reduce((s, b) => s + b.amount, 0));
    expect(wallet.balances.promotional).toBe(0);
    expect(Number.isInteger(wallet.balances.available)).toBe(true);
  }

  // Originator only: refunds and chargebacks move money on the payment's wallet alone.
  for (const e of account.ledger) {
    const tx = account.transactions[e.transactionId]!;
    if (tx.type === 'refund' || tx.type === 'chargeback') expect(e.walletId).toBe(account.transactions[tx.relatedTransactionId!]!.walletId);
    if (tx.type === 'withdrawal') expect(e.walletId).toBe(tx.walletId);
  }
  // A withdrawal's transaction status follows its own status.
  for (const tx of txs.filter((t) => t.withdrawal)) {
    expect(tx.status).toBe({ pending: 'pending', processing: 'pending', completed: 'completed', failed: 'failed', reversed: 'failed' }[tx.withdrawal!.status]);
  }
}

describe('ledger invariant', () => {
  test('balances equal the sum of the ledger, money is conserved and only originators are debited, for any sequence of money operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 50 }), async (ops) => {
        const h = await startHarness();
        await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 300, subAccount: 'loja-centro' });
        const charges: { id: string; sub: boolean }[] = [];
        const refunds: string[] = [];
        const withdrawals: string[] = [];
        const blocks: string[] = [];
        const pick = <T>(list: T[], n: number) => list[n % list.length]!;
        const account = () => h.sb.deps.store.account(DEFAULT.accountId);
        const norteId = account().subAccounts.find((s) => s.reference === 'loja-norte')!.id;
        let norte = { ...account().wallets[norteId]!.balances };

        for (const o of ops) {
          if (o.op === 'charge') {
            const split = o.split.filter((l) => !(o.sub && l.subAccount === 'loja-centro'));
            const res = await h.v2('POST', '/pix', { body: { amount: o.amount, description: 'prop', expiresIn: 3600, split: split.length ? split : undefined }, ...(o.sub ? { subAccount: 'loja-centro' } : {}) });
            expect([201, 400], res.text).toContain(res.status); // 400: the split did not fit the net amount
            if (res.status === 201) charges.push({ id: res.body.id, sub: o.sub });
            if (res.status === 201 && o.pay) expect((await h.control('POST', `/transactions/${res.body.id}/pay`)).status).toBe(200);
          } else if (o.op === 'pay' || o.op === 'expire' || o.op === 'fail') {
            if (!charges.length) continue;
            const res = await h.control('POST', `/transactions/${pick(charges, o.pick).id}/${o.op}`);
            expect([200, 409], res.text).toContain(res.status);
          } else if (o.op === 'refund') {
            if (!charges.length) continue;
            const charge = pick(charges, o.pick);
            const res = await h.v2('POST', `/transactions/${charge.id}/refund`, { body: {}, ...(charge.sub ? { subAccount: 'loja-centro' } : {}) });
            expect([201, 400], res.text).toContain(res.status); // not refundable, or not enough balance
            if (res.status === 201) refunds.push(res.headers.get('location')!.split('/').pop()!);
          } else if (o.op === 'refundAction') {
            if (!refunds.length) continue;
            const res = await h.control('POST', `/transactions/${pick(refunds, o.pick)}/${o.action}`);
            expect([200, 409], res.text).toContain(res.status);
          } else if (o.op === 'withdraw') {
            const body = { pixKey: '+5511987654321', pixKeyType: 'phone', holderName: 'Prop', holderDocument: '52998224725', holderDocumentType: 'cpf', [o.net ? 'netAmount' : 'amount']: o.amount };
            const res = await h.v2('POST', '/withdrawals', { body, ...(o.sub ? { subAccount: 'loja-centro' } : {}) });
            expect([201, 400], res.text).toContain(res.status); // amount under the fee, or not enough balance
            if (res.status === 201) withdrawals.push(res.body.id);
          } else if (o.op === 'withdrawalAction') {
            if (!withdrawals.length) continue;
            const res = await h.control('POST', `/transactions/${pick(withdrawals, o.pick)}/${o.action}`);
            expect([200, 409], res.text).toContain(res.status);
          } else if (o.op === 'block') {
            if (!charges.length) continue;
            const res = await h.control('POST', `/transactions/${pick(charges, o.pick).id}/block`, o.amount === null ? {} : { amount: o.amount });
            expect([200, 400, 409], res.text).toContain(res.status);
            if (res.status === 200) blocks.push(res.body.id);
          } else if (o.op === 'blockAction') {
            if (!blocks.length) continue;
            const res = await h.control('POST', `/balance-blocks/${pick(blocks, o.pick)}/${o.action}`);
            expect([200, 409], res.text).toContain(res.status);
          } else if (o.op === 'fee') {
            await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { pix: { percent: o.percent, min: o.min }, refund: { fixed: o.refund }, withdrawal: { fixed: o.withdrawal } } });
          } else if (o.op === 'automation') {
            await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: o.seconds } });
          } else if (o.op === 'advance') {
            await h.advance(o.seconds);
          }
          expectLedgerBalanced(h.sb);
          checkInvariants(account());
          const now = account().wallets[norteId]!.balances;
          expect(now.available).toBeGreaterThanOrEqual(norte.available);
          expect(now.held).toBeGreaterThanOrEqual(norte.held);
          norte = { ...now };
        }
      }),
      { numRuns: 40 },
    );
  });
});
