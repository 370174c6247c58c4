// Property (sandbox.md 2.8): over random sequences of public and control operations, failing ones included (bad input,
// refused transitions, insufficient balance, taken ids, suspended sub-accounts, clock moves out of range), after each
// step:
// - every wallet's balance equals the sum of its ledger entries;
// - no wallet's available is below zero except through a balance block: available - the reserved refund fees + the
//   blocks that were not rejected is never negative (a block is the one thing that may take available below zero);
// - a request answered with an error left the whole state byte for byte as it was (the unit of work).
// Run time is bounded (numRuns, short sequences); on failure fast-check prints the seed and path to replay it, and
// PROPERTY_SEED=<seed> replays a run.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { reservedFees } from '../../src/domain/claims';
import { fixedFee } from '../../src/domain/money';
import { DEFAULT, expectLedgerBalanced, startHarness, type ApiResponse, type Harness } from '../helpers/harness';

const SUBS = ['loja-centro', 'loja-norte', 'loja-fechada', undefined] as const;
type Sub = (typeof SUBS)[number];
const CPF = '52998224725';

type Op =
  | { op: 'charge'; amount: number; sub: Sub; split: boolean; bad: boolean }
  | { op: 'chargeAction'; pick: number; action: 'pay' | 'expire' | 'fail' | 'cancel' | 'block' | 'complete' }
  | { op: 'refund'; pick: number; otherWallet: Sub | null }
  | { op: 'paidAndRefunded'; amount: number; sub: Sub }
  | { op: 'refundAction'; pick: number; action: 'complete' | 'fail' | 'pay' }
  | { op: 'withdraw'; amount: number; sub: Sub; bad: boolean }
  | { op: 'withdrawAll'; sub: Sub }
  | { op: 'withdrawalAction'; pick: number; action: 'process' | 'complete' | 'fail' | 'reverse' | 'expire' }
  | { op: 'blockAction'; pick: number; action: 'defend' | 'approve' | 'reject' }
  | { op: 'adjust'; amount: number; sub: Sub }
  | { op: 'fees'; refund: number; withdrawal: number }
  | { op: 'automation'; seconds: number }
  | { op: 'subStatus'; sub: 'loja-centro' | 'loja-norte'; status: 'approved' | 'suspended' }
  | { op: 'project'; name: string; sub: Sub }
  | { op: 'tenant'; reuse: 'none' | 'account' | 'subAccount' | 'clientId' }
  | { op: 'read'; what: 'account' | 'transaction' | 'blocks' | 'unknown' }
  | { op: 'advance'; seconds: number }
  | { op: 'clockBack'; seconds: number }
  | { op: 'clockFar' }
  | { op: 'v1'; what: 'pix' | 'static' | 'link' | 'withdraw'; amount: number; bad: boolean; pick: number };

const brl = (min: number, max: number) => fc.integer({ min, max }).map((c) => c / 100);
const sub = fc.constantFrom(...SUBS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('charge' as const), amount: brl(100, 300_000), sub, split: fc.boolean(), bad: fc.boolean() }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('chargeAction' as const), pick: fc.nat(), action: fc.constantFrom('pay' as const, 'pay' as const, 'expire' as const, 'fail' as const, 'cancel' as const, 'block' as const, 'complete' as const) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('refund' as const), pick: fc.nat(), otherWallet: fc.option(sub, { nil: null, freq: 4 }) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('paidAndRefunded' as const), amount: brl(100, 100_000), sub }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('refundAction' as const), pick: fc.nat(), action: fc.constantFrom('complete' as const, 'fail' as const, 'pay' as const) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('withdraw' as const), amount: brl(100, 150_000), sub, bad: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('withdrawAll' as const), sub }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('withdrawalAction' as const), pick: fc.nat(), action: fc.constantFrom('process' as const, 'complete' as const, 'fail' as const, 'reverse' as const, 'expire' as const) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('blockAction' as const), pick: fc.nat(), action: fc.constantFrom('defend' as const, 'approve' as const, 'reject' as const) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('adjust' as const), amount: brl(-60_000, 60_000).filter((a) => a !== 0), sub }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('fees' as const), refund: brl(0, 300), withdrawal: brl(0, 300) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('automation' as const), seconds: fc.constantFrom(0, 2, 30) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('subStatus' as const), sub: fc.constantFrom('loja-centro' as const, 'loja-norte' as const), status: fc.constantFrom('approved' as const, 'suspended' as const) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('project' as const), name: fc.constantFrom('A', 'B', ''), sub }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('tenant' as const), reuse: fc.constantFrom('none' as const, 'account' as const, 'subAccount' as const, 'clientId' as const) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('read' as const), what: fc.constantFrom('account' as const, 'transaction' as const, 'blocks' as const, 'unknown' as const) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 90_000 }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('clockBack' as const), seconds: fc.integer({ min: 1, max: 3600 }) }), weight: 1 },
  { arbitrary: fc.constant({ op: 'clockFar' as const }), weight: 1 },
  // The v1 dialect (sandbox.md 12): the same verbs, and payment links and static QR codes whose payments are charges.
  { arbitrary: fc.record({ op: fc.constant('v1' as const), what: fc.constantFrom('pix' as const, 'static' as const, 'link' as const, 'withdraw' as const), amount: brl(100, 100_000), bad: fc.boolean(), pick: fc.nat() }), weight: 3 },
);

const subOpts = (s: Sub) => (s ? { subAccount: s } : {});

/** available - reserved + (blocks not rejected) >= 0 for every wallet of every account. */
function checkNoOverdraft(h: Harness) {
  for (const account of Object.values(h.sb.deps.store.state.accounts)) {
    for (const wallet of Object.values(account.wallets)) {
      const blocked = Object.values(account.balanceBlocks)
        .filter((b) => b.walletId === wallet.id && b.status !== 'rejected')
        .reduce((s, b) => s + b.amount, 0);
      const reserved = reservedFees(account, wallet.id, fixedFee(account.fees.refund.fixed));
      expect(wallet.balances.available - reserved + blocked, `wallet ${wallet.reference ?? 'main'}: available ${wallet.balances.available}, reserved ${reserved}, blocked ${blocked}`).toBeGreaterThanOrEqual(0);
    }
  }
}

/** Runs one operation; a step made of several requests calls `mark()` before its last one, the one whose answer is checked. */
async function run(h: Harness, o: Op, seen: { charges: { id: string; sub: Sub }[]; refunds: string[]; withdrawals: string[]; blocks: string[] }, mark: () => void): Promise<ApiResponse | undefined> {
  const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  switch (o.op) {
    case 'charge': {
      const split = o.split && o.sub !== 'loja-norte' ? [{ subAccount: 'loja-norte', amount: Math.min(5, o.amount / 2) }] : undefined;
      const body = o.bad ? { amount: o.amount, description: 'p', metadata: [1], projectId: '' } : { amount: o.amount, description: 'p', expiresIn: 3600, ...(split ? { split } : {}) };
      const res = await h.v2('POST', '/pix', { body, ...subOpts(o.sub) });
      if (res.status === 201) seen.charges.push({ id: res.body.id, sub: o.sub });
      return res;
    }
    case 'chargeAction': {
      const c = pick(seen.charges, o.pick);
      if (!c) return undefined;
      const res = await h.control('POST', `/transactions/${c.id}/${o.action}`, o.action === 'pay' ? { payerName: 'Prop', payerDocument: CPF } : {});
      if (o.action === 'block' && res.status === 200) seen.blocks.push(res.body.id);
      return res;
    }
    case 'refund': {
      const c = pick(seen.charges, o.pick);
      if (!c) return undefined;
      const res = await h.v2('POST', `/transactions/${c.id}/refund`, { body: {}, ...subOpts(o.otherWallet === null ? c.sub : o.otherWallet) });
      if (res.status === 201) seen.refunds.push(res.headers.get('location')!.split('/').pop()!);
      return res;
    }
    case 'paidAndRefunded': {
      // The common flow in one step: a charge, paid, then refunded (the refund answer is the one checked).
      const created = await h.v2('POST', '/pix', { body: { amount: o.amount, description: 'p' }, ...subOpts(o.sub) });
      if (created.status !== 201) return created;
      seen.charges.push({ id: created.body.id, sub: o.sub });
      const paid = await h.control('POST', `/transactions/${created.body.id}/pay`);
      if (paid.status !== 200) return paid;
      mark();
      const res = await h.v2('POST', `/transactions/${created.body.id}/refund`, { body: {}, ...subOpts(o.sub) });
      if (res.status === 201) seen.refunds.push(res.headers.get('location')!.split('/').pop()!);
      return res;
    }
    case 'refundAction': {
      const r = pick(seen.refunds, o.pick);
      return r ? h.control('POST', `/transactions/${r}/${o.action}`) : undefined;
    }
    case 'withdraw': {
      const body = { pixKey: o.bad ? 'not-an-email' : 'fulano@example.com', pixKeyType: 'email', holderName: 'Prop', holderDocument: CPF, holderDocumentType: 'cpf', amount: o.amount };
      const res = await h.v2('POST', '/withdrawals', { body, ...subOpts(o.sub) });
      if (res.status === 201) seen.withdrawals.push(res.body.id);
      return res;
    }
    case 'withdrawAll': {
      // What an integrator does: read the available balance, withdraw all of it (refused while refund fees are reserved).
      const balance = await h.v2('GET', '/account', subOpts(o.sub));
      const available = balance.status === 200 ? (balance.body.balance.available.amountFormatted as number) : 0;
      if (available <= 1) return balance;
      mark();
      const res = await h.v2('POST', '/withdrawals', { body: { pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Prop', holderDocument: CPF, holderDocumentType: 'cpf', amount: available }, ...subOpts(o.sub) });
      if (res.status === 201) seen.withdrawals.push(res.body.id);
      return res;
    }
    case 'withdrawalAction': {
      const w = pick(seen.withdrawals, o.pick);
      return w ? h.control('POST', `/transactions/${w}/${o.action}`) : undefined;
    }
    case 'blockAction': {
      const b = pick(seen.blocks, o.pick);
      return b ? h.control('POST', `/balance-blocks/${b}/${o.action}`) : undefined;
    }
    case 'adjust':
      return h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: o.amount, ...(o.sub ? { subAccount: o.sub } : {}) });
    case 'fees':
      return h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { refund: { fixed: o.refund }, withdrawal: { fixed: o.withdrawal } } });
    case 'automation':
      return h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: o.seconds } });
    case 'subStatus':
      return h.control('PATCH', `/accounts/${DEFAULT.accountId}/sub-accounts/${o.sub}`, { status: o.status });
    case 'project':
      return h.v2('POST', '/projects', { body: { name: o.name, color: '#123456' }, ...subOpts(o.sub) });
    case 'tenant': {
      const account = h.sb.deps.store.account(DEFAULT.accountId);
      const spec =
        o.reuse === 'account'
          ? { id: account.subAccounts[0]!.id }
          : o.reuse === 'subAccount'
            ? { subAccounts: [{ id: DEFAULT.accountId, reference: 'filial', balance: 100 }] }
            : o.reuse === 'clientId'
              ? { credentials: [{ clientId: DEFAULT.full.clientId }] }
              : { balance: 10 };
      return h.control('POST', '/accounts', spec);
    }
    case 'read': {
      if (o.what === 'account') return h.v2('GET', '/account');
      if (o.what === 'blocks') return h.v2('GET', '/balance-blocks');
      const c = pick(seen.charges, 0);
      return h.v2('GET', `/transactions/${o.what === 'transaction' && c ? c.id : '00000000-0000-4000-8000-000000000000'}`);
    }
    case 'advance':
      return h.advance(o.seconds);
    case 'clockBack':
      return h.control('PUT', '/clock', { now: new Date(h.sb.deps.clock.nowMs() - o.seconds * 1000).toISOString(), frozen: true });
    case 'clockFar':
      return h.control('PUT', '/clock', { now: Date.parse('9999-12-31T23:59:59.999Z') + 1 });
    case 'v1': {
      const v1 = (path: string, body: unknown) => h.api('POST', `/v1${path}`, { body, headers: { 'x-api-key': DEFAULT.apiKey } });
      const amount = o.bad ? 0.5 : o.amount;
      if (o.what === 'pix') {
        const res = await v1('/pix', { amount, description: 'v1', expiresIn: 3600 });
        if (res.status === 201) seen.charges.push({ id: res.body.id, sub: undefined });
        return res;
      }
      if (o.what === 'withdraw') {
        const res = await v1('/withdrawals', { amount, pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Prop', holderDocument: CPF, holderDocumentType: 'cpf' });
        if (res.status === 201) seen.withdrawals.push(res.body.id);
        return res;
      }
      // A static QR code or a payment link, then one payment of it (the payment's answer is the one checked).
      const made = o.what === 'static' ? await v1('/pix/qrcode-static', { amount, description: 'v1' }) : await v1('/charges', { projectId: DEFAULT.projectId, name: 'v1', amount, paymentMethods: ['pix', 'boleto'] });
      if (made.status !== 201) return made;
      mark();
      const paid = await h.control('POST', o.what === 'static' ? `/transactions/${made.body.id}/pay` : `/charges/${made.body.id}/pay`, o.pick % 2 ? { payerName: 'Prop' } : {});
      if (paid.status === 200) seen.charges.push({ id: o.what === 'static' ? paid.body.id : paid.body.paymentId, sub: undefined });
      return paid;
    }
  }
}

describe('invariants whatever the order of calls', () => {
  test('no overdraft except through a block, ledger balanced, and an answered error changes nothing', async () => {
    const seed = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 40 }), async (ops) => {
        const h = await startHarness();
        const seen = { charges: [] as { id: string; sub: Sub }[], refunds: [] as string[], withdrawals: [] as string[], blocks: [] as string[] };
        for (const o of ops) {
          // Jobs due now run first (the next request would run them anyway), so "before" is the state the request meets.
          await h.sb.deps.scheduler.catchUp();
          let before = JSON.stringify(h.sb.deps.store.state);
          const res = await run(h, o, seen, () => (before = JSON.stringify(h.sb.deps.store.state)));
          if (res) {
            expect(res.status, `${JSON.stringify(o)} -> ${res.text}`).toBeLessThan(500);
            if (res.status >= 400) expect(JSON.stringify(h.sb.deps.store.state), `${JSON.stringify(o)} answered ${res.status} and changed the state: ${res.text}`).toBe(before);
          }
          expectLedgerBalanced(h.sb);
          checkNoOverdraft(h);
        }
        await h.sb.close();
      }),
      { numRuns: 60, ...(seed === undefined ? {} : { seed }), verbose: 1 },
    );
  }, 120_000);
});
