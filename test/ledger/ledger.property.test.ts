// Property: over random sequences of charges, payments, expiries, clock moves and fee changes, every wallet's balance
// equals the sum of its ledger entries, and no money appears or vanishes: the account's total equals the initial
// balance plus the gross of paid charges minus the fees charged.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness } from '../helpers/harness';

type Op =
  | { op: 'charge'; amount: number; split: { subAccount: string; amount: number }[]; sub: boolean }
  | { op: 'pay' | 'expire' | 'fail'; pick: number }
  | { op: 'fee'; percent: number; min: number }
  | { op: 'advance'; seconds: number };

const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => c / 100);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('charge' as const),
    amount: cents(100, 500_000),
    split: fc.array(fc.record({ subAccount: fc.constantFrom('loja-centro', 'loja-norte'), amount: cents(1, 5_000) }), { maxLength: 3 }),
    sub: fc.boolean(),
  }),
  fc.record({ op: fc.constantFrom('pay' as const, 'expire' as const, 'fail' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('fee' as const), percent: fc.integer({ min: 0, max: 500 }).map((p) => p / 100), min: cents(0, 200) }),
  fc.record({ op: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 90_000 }) }),
);

describe('ledger invariant', () => {
  test('balances equal the sum of the ledger and money is conserved, for any sequence of charge operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const h = await startHarness();
        const ids: string[] = [];
        for (const o of ops) {
          if (o.op === 'charge') {
            const res = await h.v2('POST', '/pix', { body: { amount: o.amount, description: 'prop', expiresIn: 3600, split: o.split.length ? o.split.filter((l) => !(o.sub && l.subAccount === 'loja-centro')) : undefined }, ...(o.sub ? { subAccount: 'loja-centro' } : {}) });
            expect([201, 400], res.text).toContain(res.status); // 400: the split did not fit the net amount
            if (res.status === 201) ids.push(res.body.id);
          } else if (o.op === 'fee') {
            await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { pix: { percent: o.percent, min: o.min } } });
          } else if (o.op === 'advance') {
            await h.advance(o.seconds);
          } else if (ids.length) {
            const res = await h.control('POST', `/transactions/${ids[o.pick % ids.length]}/${o.op}`);
            expect([200, 409], res.text).toContain(res.status);
          }
          expectLedgerBalanced(h.sb);
        }
        const account = h.sb.deps.store.account(DEFAULT.accountId);
        const txs = Object.values(account.transactions);
        const gross = txs.filter((t) => t.type === 'payment' && t.status === 'completed').reduce((s, t) => s + t.amount, 0);
        const fees = txs.filter((t) => t.type === 'fee').reduce((s, t) => s + t.amount, 0);
        const total = Object.values(account.wallets).reduce((s, w) => s + w.balances.available + w.balances.held + w.balances.promotional, 0);
        expect(total).toBe(DEFAULT.balance * 100 + gross - fees);
        for (const w of Object.values(account.wallets)) expect(Number.isInteger(w.balances.available)).toBe(true);
      }),
      { numRuns: 30 },
    );
  });
});
