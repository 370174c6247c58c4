// Stories (sandbox.md 5.1): GET /_sandbox/stories lists them; POST /_sandbox/stories/{name} plays one on a tenant on
// the sandbox clock and answers what each step did. Each story is checked by the state it leaves, read back through
// the API (transactions, events, blocks), not by its own answer alone.
import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { withReceiver } from '../helpers/webhooks';
import { balanceOf, eventsOf } from '../helpers/money';

const A = DEFAULT.accountId;

async function play(h: Harness, name: string, body: Record<string, unknown> = {}) {
  const res = await h.control('POST', `/stories/${name}`, body);
  expect(res.status, res.text).toBe(200);
  return res.body as { story: string; accountId: string; steps: Array<{ n: number; title: string; did: string; at: string }>; ids: Record<string, string> };
}
const tx = async (h: Harness, id: string) => {
  const res = await h.control('GET', `/accounts/${A}/transactions?limit=100`);
  return (res.body.items as any[]).find((t) => t.id === id);
};

describe('GET /_sandbox/stories', () => {
  test('lists every story of sandbox.md 5.1 with its title, summary and steps', async () => {
    const h = await startHarness();
    const res = await h.control('GET', '/stories');
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((s: any) => s.name)).toEqual(['paid-charge', 'expired-charge', 'refund', 'med-block', 'withdrawal-fails', 'withdrawal-reversed', 'institution-down', 'monthly-subscription']);
    for (const s of res.body.items) expect(s.steps.length, s.name).toBeGreaterThan(1);
  });
});

describe('POST /_sandbox/stories/{name}', () => {
  test('paid-charge: the charge is paid after 30 s of sandbox clock and payment_completed is delivered to the endpoint', async () => {
    const { h, receiver } = await withReceiver();
    const out = await play(h, 'paid-charge');
    expect(out.steps.map((s) => s.title)).toEqual(['Create a charge', 'Half a minute passes', 'The customer pays', 'The webhook is delivered']);
    expect(out.steps[1]!.at).toBe('2026-03-10T12:00:30.000Z');
    expect(await tx(h, out.ids.charge!)).toMatchObject({ status: 'completed', counterpartName: 'Maria Silva' });
    expect(receiver.requests).toHaveLength(1);
    expect(out.steps[3]!.did).toMatch(/Delivery of payment_completed to http:\/\/127\.0\.0\.1:\d+\/.*: succeeded \(attempt 1: HTTP 200\)/);
  });

  test('expired-charge: the charge is cancelled by expiry and payment_expired is recorded', async () => {
    const h = await startHarness();
    const out = await play(h, 'expired-charge');
    expect(await tx(h, out.ids.charge!)).toMatchObject({ status: 'cancelled' });
    expect((await eventsOf(h, 'payment_expired')).length).toBe(1);
    expect(out.steps.at(-1)!.did).toMatch(/cancelled \(expired\)/);
  });

  test('refund: the payment is refunded through the refund verb and the refund completes', async () => {
    const h = await startHarness();
    const out = await play(h, 'refund');
    expect(await tx(h, out.ids.refund!)).toMatchObject({ type: 'refund', status: 'completed' });
    expect((await eventsOf(h, 'refund_completed')).length).toBe(1);
  });

  test('med-block: the block is defended then rejected, so nothing stays held', async () => {
    const h = await startHarness();
    const out = await play(h, 'med-block');
    const blocks = await h.v2('GET', '/balance-blocks');
    expect(blocks.status, blocks.text).toBe(200);
    expect(h.sb.deps.store.account(A).balanceBlocks[out.ids.block!]).toMatchObject({ status: 'rejected', blockType: 'med' });
    expect((await balanceOf(h)).held).toBe(0);
    expect((await eventsOf(h, 'balance_block_rejected')).length).toBe(1);
  });

  test('withdrawal-fails: the withdrawal fails and its gross is back in the balance', async () => {
    const h = await startHarness();
    const before = await balanceOf(h);
    const out = await play(h, 'withdrawal-fails');
    expect(await tx(h, out.ids.withdrawal!)).toMatchObject({ type: 'withdrawal', status: 'failed' });
    expect((await balanceOf(h)).available).toBe(before.available);
    expect((await eventsOf(h, 'withdrawal_failed')).length).toBe(1);
  });

  test('withdrawal-reversed: the withdrawal completes, then is reversed a minute later', async () => {
    const h = await startHarness();
    const out = await play(h, 'withdrawal-reversed');
    expect(h.sb.deps.store.account(A).transactions[out.ids.withdrawal!]!.withdrawal).toMatchObject({ status: 'reversed' });
    expect((await eventsOf(h, 'withdrawal_completed')).length).toBe(1);
    expect((await eventsOf(h, 'withdrawal_reversed')).length).toBe(1);
  });

  test('institution-down: a charge pinned to a down institution is refused with 503 and nothing is made; once up, it goes through', async () => {
    const h = await startHarness();
    const out = await play(h, 'institution-down');
    expect(out.steps[1]!.did).toMatch(/answered 503 PSP_UNAVAILABLE/);
    expect(out.ids.refused).toBeUndefined();
    expect(await tx(h, out.ids.charge!)).toMatchObject({ status: 'completed' });
    const account = await h.control('GET', `/accounts/${A}`);
    expect(account.body.institutions.find((i: any) => i.id === out.ids.institution)).toMatchObject({ status: 'up' });
  });

  test('monthly-subscription: three months debited on the clock (the second retried), then cancelled by the payer', async () => {
    const h = await startHarness();
    const out = await play(h, 'monthly-subscription');
    expect(out.steps.map((s) => s.title)).toHaveLength(12);
    const account = h.sb.deps.store.state.accounts[out.accountId]!;
    const rec = account.recs[out.ids.rec!]!;
    expect(rec.status).toBe('CANCELADA');
    expect(rec.encerramento?.cancelamento?.solicitante).toBe('USUARIO_PAGADOR');
    const cobrs = [out.ids.cobr1!, out.ids.cobr2!, out.ids.cobr3!].map((id) => account.cobrs[id]!);
    expect(cobrs.map((c) => c.status)).toEqual(['CONCLUIDA', 'CONCLUIDA', 'CONCLUIDA']);
    expect(cobrs[1]!.tentativas.map((t) => `${t.tipo} ${t.status}`)).toEqual(['AGND REJEITADA', 'NTAG PAGA']);
    const payments = cobrs.map((c) => account.transactions[c.transactionId!]!);
    expect(payments.map((t) => [t.status, t.amount])).toEqual([['completed', 2990], ['completed', 2990], ['completed', 2990]]);
    expect(out.steps.at(-1)!.did).toContain('CANCELADA');
    await h.sb.close();
  });

  test('plays on any tenant: a new account with no institution choice gets its own story, the default account is untouched', async () => {
    const h = await startHarness();
    const created = await h.control('POST', '/accounts', { name: 'Outra loja', balance: 100, institutions: [{ name: 'Banco X', status: 'up', enabled: true }] });
    expect(created.status, created.text).toBe(201);
    const before = (await h.control('GET', `/accounts/${A}/transactions`)).body.total;
    for (const name of ['refund', 'institution-down']) {
      const out = await play(h, name, { accountId: created.body.id });
      expect(out.accountId).toBe(created.body.id);
    }
    expect((await h.control('GET', `/accounts/${A}/transactions`)).body.total).toBe(before);
  });

  test.each([
    ['an unknown story', '/stories/nope', {}, 404, /Use one of: paid-charge/],
    ['an unknown account', '/stories/refund', { accountId: 'nope' }, 404, /nope/],
    ['a step delay out of range', '/stories/refund', { stepDelayMs: 99999 }, 400, /stepDelayMs must be from 0 to 5000/],
  ])('%s is a clear 4xx that changes nothing', async (_, path, body, status, message) => {
    const h = await startHarness();
    const before = (await h.control('GET', `/accounts/${A}/transactions`)).body.total;
    const res = await h.control('POST', path, body);
    expect(res.status, res.text).toBe(status);
    expect(res.body.message).toMatch(message);
    expect((await h.control('GET', `/accounts/${A}/transactions`)).body.total).toBe(before);
  });

  test('a story whose withdrawal the balance cannot cover stops at that step with INSUFFICIENT_BALANCE and changes nothing', async () => {
    const h = await startHarness();
    const poor = await h.control('POST', '/accounts', { name: 'Sem saldo' });
    const res = await h.control('POST', '/stories/withdrawal-fails', { accountId: poor.body.id });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.code).toBe('INSUFFICIENT_BALANCE');
    expect((await h.control('GET', `/accounts/${poor.body.id}/transactions`)).body.total).toBe(0);
  });
});
