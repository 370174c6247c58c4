// --retain-transactions (sandbox.md 6.1, docs/data.md): settled transactions older than the period go with what hangs
// on them; pending ones, and ones a refund, block or job still needs, stay; balances never move (carried forward).
import { afterEach, describe, expect, test } from 'vitest';
import { CARRIED_FORWARD, deleteFromPlan, planRetention } from '../../src/services/retain-transactions';
import { createSandbox } from '../../src/app';
import { TRANSACTIONS_PER_UNIT } from '../../src/services/retention';
import { apiPix, payCob, putCob, TXID } from '../helpers/api-pix';
import { DEFAULT, expectLedgerBalanced, startHarness, T0, type Harness } from '../helpers/harness';
import { newLink, v1call, v1ok } from '../helpers/v1-calls';

const DAY = 86_400;
let h: Harness;
afterEach(async () => h?.sb.close());

interface Tenant {
  id: string;
  token: () => Promise<string>;
}

/** A tenant of its own with money, whose refunds and withdrawals wait to be completed by hand. */
async function tenant(): Promise<Tenant> {
  const res = await h.control('POST', '/accounts', { name: 'Loja', balance: 1000, automation: { completeAfterSeconds: 0 } });
  expect(res.status, res.text).toBe(201);
  const { clientId, clientSecret } = res.body.credentials[0];
  return { id: res.body.id, token: async () => (await h.api('POST', '/v2/auth', { body: { client_id: clientId, client_secret: clientSecret } })).body.access_token };
}
const charge = async (t: Tenant, expiresIn = DAY) => {
  const res = await h.api('POST', '/v2/pix', { token: await t.token(), body: { amount: 10, description: 'x', expiresIn } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};
const act = async (path: string, body?: unknown) => {
  const res = await h.control('POST', path, body);
  expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
};
const paid = async (t: Tenant) => {
  const id = await charge(t);
  await act(`/transactions/${id}/pay`);
  return id;
};
const held = (t: Tenant, id: string) => id in h.sb.deps.store.raw.accounts[t.id]!.transactions;
const balances = async (t: Tenant) => (await h.control('GET', `/accounts/${t.id}`)).body.balances;

// Each case makes its transactions, then the clock passes the period: which stay.
const CASES: Array<[string, (t: Tenant) => Promise<{ kept: string[]; gone: string[] }>]> = [
  ['a pending charge stays', async (t) => ({ kept: [await charge(t)], gone: [] })],
  ['a paid charge goes, with its fee', async (t) => ({ kept: [], gone: [await paid(t)] })],
  ['an expired charge goes', async (t) => {
    const id = await charge(t);
    await act(`/transactions/${id}/expire`);
    return { kept: [], gone: [id] };
  }],
  ['a payment whose refund is pending stays, with the refund', async (t) => {
    const id = await paid(t);
    const refund = await act(`/transactions/${id}/refund`);
    return { kept: [id, refund.id ?? refund.pspRefundTransactionId], gone: [] };
  }],
  ['a payment whose refund completed goes, with the refund', async (t) => {
    const id = await paid(t);
    const refund = await act(`/transactions/${id}/refund`);
    await act(`/transactions/${refund.id}/complete`);
    return { kept: [], gone: [id, refund.id] };
  }],
  ['a payment under an open balance block stays', async (t) => {
    const id = await paid(t);
    await act(`/transactions/${id}/block`, {});
    return { kept: [id], gone: [] };
  }],
  ['a payment whose block was rejected goes, with the block', async (t) => {
    const id = await paid(t);
    const block = await act(`/transactions/${id}/block`, {});
    await act(`/balance-blocks/${block.id}/reject`);
    return { kept: [], gone: [id] };
  }],
  ['a pending withdrawal stays; a completed one goes', async (t) => {
    const withdraw = async () => {
      const body = { amount: 5, pixKey: 'ana@example.com', pixKeyType: 'email', holderName: 'Ana Souza', holderDocument: '12345678909', holderDocumentType: 'cpf' };
      const res = await h.api('POST', '/v2/withdrawals', { token: await t.token(), body });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const pending = await withdraw();
    const done = await withdraw();
    await act(`/transactions/${done}/complete`);
    return { kept: [pending], gone: [done] };
  }],
];

describe('--retain-transactions', () => {
  test.each(CASES)('%s', async (_, make) => {
    h = await startHarness({ retainTransactions: '7d' });
    const t = await tenant();
    const { kept, gone } = await make(t);
    const before = await balances(t);
    const recordsBefore = (await h.control('GET', '/health')).body.records;
    await h.advance(6 * DAY);
    for (const id of [...kept, ...gone]) expect(held(t, id), `${id} before the period`).toBe(true);
    await h.advance(2 * DAY);
    for (const id of kept) expect(held(t, id), `${id} kept`).toBe(true);
    for (const id of gone) {
      expect(held(t, id), `${id} gone`).toBe(false);
      expect((await h.api('GET', `/v2/transactions/${id}`, { token: await t.token() })).status).toBe(404);
    }
    expect(await balances(t)).toEqual(before);
    expectLedgerBalanced(h.sb);
    const health = (await h.control('GET', '/health')).body;
    expect(health.records).toBeLessThanOrEqual(recordsBefore - gone.length);
    expect(health.retention.retainTransactions).toBe('7d');
  });

  test('balances stay equal to the ledger, which keeps one carried-forward entry per wallet and bucket; events and deliveries go too', async () => {
    h = await startHarness({ retainTransactions: '1d' });
    const t = await tenant();
    await h.control('POST', `/accounts/${t.id}/webhooks`, { url: 'http://127.0.0.1:9/hook' });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 6; i++) await paid(t);
      const refund = await act(`/transactions/${await paid(t)}/refund`);
      await act(`/transactions/${refund.id}/complete`);
      await h.sb.settle();
      const before = await balances(t);
      await h.advance(2 * DAY);
      expect(await balances(t)).toEqual(before);
      expectLedgerBalanced(h.sb);
    }
    const account = h.sb.deps.store.raw.accounts[t.id]!;
    expect(Object.keys(account.transactions)).toHaveLength(0);
    const carried = account.ledger.filter((e) => e.transactionId === CARRIED_FORWARD);
    expect(carried.length).toBeGreaterThan(0);
    expect(account.ledger).toHaveLength(carried.length);
    expect(new Set(carried.map((e) => `${e.walletId}:${e.bucket}`)).size).toBe(carried.length);
    // every event of the tenant was older than a day, its deliveries finished (failed: nobody listens on port 9)
    expect(account.events).toHaveLength(0);
    expect(Object.keys(account.deliveries)).toHaveLength(0);
    expect((await h.control('GET', '/health')).body.retention.deleted.transactions).toBeGreaterThanOrEqual(3 * 7 * 2);
  });

  // A sweep plans once per account, then deletes in batches; what a verb does to a planned group in between is seen.
  test.each([
    ['refunded', (id: string) => act(`/transactions/${id}/refund`)],
    ['blocked and the block rejected', async (id: string) => act(`/balance-blocks/${(await act(`/transactions/${id}/block`, {})).id}/reject`)],
    ['blocked and the block approved (a chargeback)', async (id: string) => act(`/balance-blocks/${(await act(`/transactions/${id}/block`, {})).id}/approve`)],
  ])('a payment %s after the plan stays whole, with all it now has; the others go', async (_, change) => {
    h = await startHarness({ retainTransactions: '1d' }); // no clock moves: the test makes the plan and the batch a sweep makes
    const t = await tenant();
    const ids = [await paid(t), await paid(t), await paid(t)];
    const hung = new Set<string>();
    const hang = h.sb.deps.retention.hang;
    h.sb.deps.retention.hang = (accountId, txId) => (hung.add(txId), hang(accountId, txId));
    const plan = (await planRetention(h.sb.deps, t.id, Date.parse(T0) + 60_000))!;
    await change(ids[2]!);
    const members = () => Object.values(h.sb.deps.store.raw.accounts[t.id]!.transactions).filter((tx) => tx.id === ids[2] || tx.relatedTransactionId === ids[2]);
    const before = members().length;
    expect(before).toBeGreaterThan(1);
    h.sb.deps.store.atomically('system', () => deleteFromPlan(h.sb.deps, plan, 0, 500, hung));
    expect([held(t, ids[0]!), held(t, ids[1]!), held(t, ids[2]!)]).toEqual([false, false, true]);
    expect(members().length).toBe(before);
    expectLedgerBalanced(h.sb);
  });

  test('a transaction changed within the period stays: the period runs from its last change', async () => {
    h = await startHarness({ retainTransactions: '7d' });
    const t = await tenant();
    const id = await charge(t, 7 * DAY);
    await h.advance(6 * DAY);
    await act(`/transactions/${id}/pay`); // paid six days after it was made
    await h.advance(6 * DAY);
    expect(held(t, id)).toBe(true);
    await h.advance(2 * DAY);
    expect(held(t, id)).toBe(false);
  });

  test("a paid cob of the standard face goes with its transaction and its location: GET /cob/{txid} is the face's 404, and the fixture tenant's money stays", async () => {
    h = await startHarness({ retainTransactions: '1d' });
    const made = await putCob(h);
    await payCob(h);
    const before = (await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body.balances;
    await h.advance(2 * 86_400);
    const read = await apiPix(h, 'GET', `/cob/${TXID}`);
    expect(read.status, read.text).toBe(404);
    expect(read.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado');
    expect((await apiPix(h, 'GET', `/loc/${made.body.loc.id}`)).status).toBe(404);
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body.balances).toEqual(before);
    expectLedgerBalanced(h.sb);
  });

  test("a payment link's counters keep what its deleted payments collected; the payment is v1's 404", async () => {
    h = await startHarness({ retainTransactions: '1d' });
    const link = await newLink(h);
    const paid = await h.control('POST', `/charges/${link.id}/pay`, { paymentMethod: 'pix', payerName: 'Maria Silva' });
    expect(paid.status, paid.text).toBe(200);
    await h.advance(2 * DAY);
    expect((await v1call(h, 'GET', `/transactions/${paid.body.paymentId}`)).status).toBe(404);
    expect((await v1call(h, 'GET', `/charges/${link.id}`)).body).toMatchObject({ paymentsCount: 1, totalCollected: paid.body.totalCollected });
  });

  test("a tenant on its own clock: its old transactions go when its clock moves, another tenant's stay", async () => {
    h = await startHarness({ retainTransactions: '1d' });
    const [own, other] = [await tenant(), await tenant()];
    const [mine, theirs] = [await paid(own), await paid(other)];
    const moved = await h.control('POST', `/accounts/${own.id}/clock/advance`, { seconds: 2 * DAY });
    expect(moved.status, moved.text).toBe(200);
    expect([held(own, mine), held(other, theirs)]).toEqual([false, true]);
    expectLedgerBalanced(h.sb);
  });

  test('a delivery whose event went answers 404 to a read and a replay, never 500', async () => {
    h = await startHarness({ retainTransactions: '1d' });
    const t = await tenant();
    await h.control('POST', `/accounts/${t.id}/webhooks`, { url: 'http://127.0.0.1:9/hook' });
    await paid(t);
    await h.sb.settle();
    const deliveries = (await h.control('GET', `/accounts/${t.id}/deliveries`)).body;
    const id = (deliveries.items ?? deliveries)[0]?.id as string;
    expect(id, JSON.stringify(deliveries)).toBeTruthy();
    await h.advance(2 * DAY);
    await h.sb.settle();
    await h.advance(2 * DAY); // the retries are finished by now, and the event older than the period
    expect(h.sb.deps.store.raw.accounts[t.id]!.events).toHaveLength(0);
    for (const [method, path] of [['GET', `/deliveries/${id}`], ['POST', `/deliveries/${id}/replay`]] as const) {
      const res = await h.control(method, path);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
    }
  });

  test("a deleted pix's devolução reads as unknown on the standard face, and a new one is refused as for an unknown pix", async () => {
    h = await startHarness({ retainTransactions: '1d' });
    await putCob(h);
    await payCob(h);
    const e2eid = (await apiPix(h, 'GET', `/cob/${TXID}`)).body.pix[0].endToEndId;
    expect((await apiPix(h, 'PUT', `/pix/${e2eid}/devolucao/D1`, { body: { valor: '1.00' } })).status).toBe(201);
    await h.advance(DAY / 2);
    await h.advance(2 * DAY);
    for (const [method, body] of [['GET', undefined], ['PUT', { valor: '1.00' }]] as const) {
      const res = await apiPix(h, method, `/pix/${e2eid}/devolucao/D${method === 'GET' ? 1 : 2}`, body ? { body } : {});
      expect(res.status, `${method}: ${res.text}`).toBe(404);
    }
  });

  test('a static QR code outlives its deleted payments: paid again, it counts on from them', async () => {
    h = await startHarness({ retainTransactions: '1d' });
    const qr = await v1ok(h, '/pix/qrcode-static', { amount: 25, description: 'Doação', expiresIn: 7 * DAY });
    const first = await act(`/transactions/${qr.id}/pay`);
    await h.advance(2 * DAY);
    expect((await v1call(h, 'GET', `/transactions/${first.id}`)).status).toBe(404);
    const again = await h.control('POST', `/transactions/${qr.id}/pay`);
    expect(again.status, again.text).toBe(200);
    expect(h.sb.deps.store.raw.accounts[DEFAULT.accountId]!.staticQrs[qr.id]!.paymentsCount).toBe(2);
    expectLedgerBalanced(h.sb);
  });

  test('a period shorter than a charge\'s default life says at start that pending charges are kept', async () => {
    const lines: string[] = [];
    const sb = await createSandbox({ retainTransactions: '1h', log: (l) => lines.push(l) });
    await sb.close();
    expect(lines.join('\n')).toContain('--retain-transactions 1h is shorter than a charge\'s default life (a day): pending charges are kept');
  });

  test('a tenant whose old transactions take more than one batch is said once in the log, then how many went', async () => {
    const lines: string[] = [];
    h = await startHarness({ retainTransactions: '1d', log: (l) => lines.push(l) });
    const t = await tenant();
    for (let i = 0; i <= TRANSACTIONS_PER_UNIT; i++) await paid(t);
    const made = Object.keys(h.sb.deps.store.raw.accounts[t.id]!.transactions).length; // with their fees
    await h.advance(2 * DAY);
    const said = lines.filter((l) => l.includes(`tenant ${t.id}`));
    expect(said.filter((l) => l.includes(`${TRANSACTIONS_PER_UNIT} at a time`))).toHaveLength(1);
    expect(said).toContain(`retention: deleted ${made} settled transactions of tenant ${t.id}`);
  });

  test('a group that changed after the plan is kept by its batch: a refund asked or a block opened meanwhile', async () => {
    h = await startHarness({ retainTransactions: '1d' });
    const t = await tenant();
    const [refunded, blocked, plain] = [await paid(t), await paid(t), await paid(t)];
    const hung = new Set<string>();
    const hang = h.sb.deps.retention.hang;
    h.sb.deps.retention.hang = (accountId, txId) => (hung.add(txId), hang(accountId, txId));
    // A plan with a cutoff past them (no clock moves: a sweep would run and take them first)
    const cutoff = Date.parse(T0) + 60_000;
    const plan = (await planRetention(h.sb.deps, t.id, cutoff))!;
    expect(plan.groups.flat()).toEqual(expect.arrayContaining([refunded, blocked, plain]));
    await act(`/transactions/${refunded}/refund`);
    await act(`/transactions/${blocked}/block`, {});
    expect([...hung]).toEqual([refunded, blocked]);
    const { result } = h.sb.deps.store.atomically('system', () => deleteFromPlan(h.sb.deps, plan, 0, 500, hung));
    expect(result.next).toBe(plan.groups.length);
    expect([held(t, refunded), held(t, blocked), held(t, plain)]).toEqual([true, true, false]);
    expectLedgerBalanced(h.sb);
  });
});

// Many kinds of transactions on the default world (a main wallet and sub-accounts), two rounds: after each the
// balances are as before, equal the ledger, and the carried-forward entries stay one per wallet and bucket.
describe('--retain-transactions over many kinds of transactions', () => {
  const pay = async (body: Record<string, unknown>, subAccount?: string) => {
    const res = await h.v2('POST', '/pix', { body: { description: 'mix', expiresIn: 3600, ...body }, ...(subAccount ? { subAccount } : {}) });
    expect(res.status, res.text).toBe(201);
    await act(`/transactions/${res.body.id}/pay`);
    return res.body.id as string;
  };
  const withdraw = async (then: 'complete' | 'fail', after?: 'reverse') => {
    const body = { amount: 3, pixKey: '+5511987654321', pixKeyType: 'phone', holderName: 'Mix', holderDocument: '52998224725', holderDocumentType: 'cpf' };
    const res = await h.v2('POST', '/withdrawals', { body });
    expect(res.status, res.text).toBe(201);
    await act(`/transactions/${res.body.id}/${then}`);
    if (after) await act(`/transactions/${res.body.id}/${after}`);
  };
  const refund = async (paymentId: string, then: 'complete' | 'fail') => {
    const res = await h.v2('POST', `/transactions/${paymentId}/refund`, { body: {} });
    expect(res.status, res.text).toBe(201);
    await act(`/transactions/${res.headers.get('location')!.split('/').pop()}/${then}`);
  };
  const round = async (n: number) => {
    await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 50, subAccount: 'loja-centro' });
    await pay({ amount: 40, split: [{ subAccount: 'loja-norte', amount: 5 }] });
    await pay({ amount: 12 }, 'loja-centro');
    await refund(await pay({ amount: 20 }), 'complete');
    await refund(await pay({ amount: 21 }), 'fail');
    await withdraw('complete');
    await withdraw('fail');
    await withdraw('complete', 'reverse');
    await act(`/balance-blocks/${(await act(`/transactions/${await pay({ amount: 30 })}/block`, {})).id}/approve`);
    await act(`/balance-blocks/${(await act(`/transactions/${await pay({ amount: 31 })}/block`, {})).id}/reject`);
    const blocked = await pay({ amount: 32 });
    await act(`/transactions/${blocked}/block`, {});
    const txid = `mixround${n}sandboxtxid00000000000`;
    await putCob(h, txid);
    await payCob(h, txid);
    const e2eid = (await apiPix(h, 'GET', `/cob/${txid}`)).body.pix[0].endToEndId;
    const dev = await apiPix(h, 'PUT', `/pix/${e2eid}/devolucao/D${n}`, { body: { valor: '1.00' } });
    expect(dev.status, dev.text).toBe(201);
    await h.sb.settle();
    return { blocked, e2eid };
  };
  const wallets = () => Object.values(h.sb.deps.store.raw.accounts[DEFAULT.accountId]!.wallets).map((w) => [w.id, { ...w.balances }]);

  test('balances stay, equal to the ledger; records go down; carried-forward entries are one per wallet and bucket, updated in place; an open block keeps its payment', async () => {
    h = await startHarness({ retainTransactions: '1d' });
    const carriedIds: string[][] = [];
    for (let n = 1; n <= 2; n++) {
      const { blocked, e2eid } = await round(n);
      await h.advance(DAY / 2); // what completes on the clock (a devolução) does, before anything is old enough to go
      const before = wallets();
      expect(before.length).toBeGreaterThan(2);
      const records = (await h.control('GET', '/health')).body.records;
      await h.advance(2 * DAY);
      expect(wallets(), 'balances of every wallet').toEqual(before);
      expectLedgerBalanced(h.sb);
      expect((await h.control('GET', '/health')).body.records).toBeLessThan(records);
      const account = h.sb.deps.store.raw.accounts[DEFAULT.accountId]!;
      expect(blocked in account.transactions, 'the payment under an open block').toBe(true);
      expect((await apiPix(h, 'GET', `/pix/${e2eid}`)).status, 'a deleted pix reads as unknown').toBe(404);
      const carried = account.ledger.filter((e) => e.transactionId === CARRIED_FORWARD);
      expect(new Set(carried.map((e) => `${e.walletId}:${e.bucket}`)).size).toBe(carried.length);
      expect(carried.every((e) => !(e.transactionId in account.transactions))).toBe(true);
      carriedIds.push(carried.map((e) => e.id).sort());
    }
    // the second round folds into the same entries (a wallet and bucket first carried in round two may add one)
    expect(carriedIds[1]).toEqual(expect.arrayContaining(carriedIds[0]!));
  });
});
