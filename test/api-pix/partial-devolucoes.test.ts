// Partial devoluções (sandbox.md 15, 9 "refunds"): several per Pix, each up to what is left (the Pix's valor minus its
// devoluções DEVOLVIDO or EM_PROCESSAMENTO), each a refund of the core of its own amount; a later v2, v1 or control
// refund returns what is left, and a Pix wholly returned is refused as a second refund is.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { apiPix, payCob, putCob, TXID } from '../helpers/api-pix';
import { balanceOf, eventsOf } from '../helpers/money';
import { v1call } from '../helpers/v1-calls';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.sb.close());

/** A cob of 123.45 paid: its pix entry and the id of its payment in the core. */
async function paidPix() {
  await putCob(h);
  const paymentId = (await payCob(h)).body.id as string;
  const pix = (await apiPix(h, 'GET', `/cob/${TXID}`)).body.pix[0];
  return { paymentId, e2eid: pix.endToEndId as string };
}

const devolucao = (e2eid: string, id: string, valor: string) => apiPix(h, 'PUT', `/pix/${e2eid}/devolucao/${id}`, { body: { valor } });
const created = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(201);
  return res.headers.get('x-sandbox-transaction-id')!;
};

test('two partial devoluções each debit their own amount; a third above what is left is refused naming it, and changes nothing', async () => {
  const { paymentId, e2eid } = await paidPix();
  const before = await balanceOf(h);
  const d1 = created(await devolucao(e2eid, 'D1', '40.00'));
  const d2 = created(await devolucao(e2eid, 'D2', '50.00'));
  expect((await balanceOf(h)).available).toBeCloseTo(before.available - 90, 2);

  const state = JSON.stringify(h.sb.deps.store.state);
  const over = await devolucao(e2eid, 'D3', '33.46');
  expect(over.status, over.text).toBe(400);
  expect(over.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida');
  expect(over.body.violacoes[0].propriedade).toBe('devolucao.valor');
  expect(over.body.violacoes[0].razao).toContain('33.45');
  expect(JSON.stringify(h.sb.deps.store.state)).toBe(state);

  // A payment with a live refund cannot be blocked, however little of it was returned.
  const block = await h.control('POST', `/transactions/${paymentId}/block`, {});
  expect(block.status, block.text).toBe(409);
  expect(block.text).toContain(`a pending refund (${d1})`);

  await h.advance(2);
  const entry = (await apiPix(h, 'GET', `/pix/${e2eid}`)).body;
  expect(entry.devolucoes.map((d: any) => [d.id, d.valor, d.status])).toEqual([
    ['D1', '40.00', 'DEVOLVIDO'],
    ['D2', '50.00', 'DEVOLVIDO'],
  ]);
  expect((await h.v2('GET', `/transactions/${d1}`)).body).toMatchObject({ type: 'refund', status: 'completed', amount: 40 });
  expect((await v1call(h, 'GET', `/transactions/${d2}`)).body).toMatchObject({ type: 'refund', status: 'completed', amount: 50 });
  const events = await eventsOf(h, 'refund_completed');
  expect(events.map((e) => [e.payload.data.refundTransactionId, e.payload.data.amount]).sort()).toEqual([[d1, 40], [d2, 50]].sort());

  // What is left, and no more: then nothing is.
  created(await devolucao(e2eid, 'D3', '33.45'));
  const none = await devolucao(e2eid, 'D4', '0.01');
  expect(none.status, none.text).toBe(400);
  expect(none.body.violacoes[0].razao).toContain('0.00');
  expectLedgerBalanced(h.sb);
});

const refundWays: Array<[string, (id: string) => Promise<ApiResponse>, (res: ApiResponse) => string]> = [
  ['POST /v2/transactions/{id}/refund', (id) => h.v2('POST', `/transactions/${id}/refund`, { body: {} }), (res) => res.headers.get('location')!.split('/').pop()!],
  ['POST /v1/transactions/{id}/refund', (id) => v1call(h, 'POST', `/transactions/${id}/refund`, {}), (res) => res.headers.get('location')!.split('/').pop()!],
  ['the control action refund', (id) => h.control('POST', `/transactions/${id}/refund`, {}), (res) => res.body.id],
];

test.each(refundWays)('after a partial devolução, %s refunds what is left; another is refused naming both refunds', async (_way, refund, refundId) => {
  const { paymentId, e2eid } = await paidPix();
  const d1 = created(await devolucao(e2eid, 'D1', '23.45'));
  const before = await balanceOf(h);
  const rest = await refund(paymentId);
  expect(rest.status, rest.text).toBeLessThan(300);
  const restId = refundId(rest);
  expect((await h.v2('GET', `/transactions/${restId}`)).body).toMatchObject({ type: 'refund', status: 'pending', amount: 100 });
  expect((await balanceOf(h)).available).toBeCloseTo(before.available - 100, 2);

  const state = JSON.stringify(h.sb.deps.store.state);
  const again = await refund(paymentId);
  expect(again.status, again.text).toBe(400);
  expect(again.text).toContain('TRANSACTION_NOT_REFUNDABLE');
  expect(again.text).toContain(d1);
  expect(again.text).toContain(restId);
  expect(JSON.stringify(h.sb.deps.store.state)).toBe(state);

  await h.advance(2);
  const amounts = (await eventsOf(h, 'refund_completed')).map((e) => e.payload.data.amount).sort((a, b) => a - b);
  expect(amounts).toEqual([23.45, 100]);
  const entry = (await apiPix(h, 'GET', `/pix/${e2eid}`)).body;
  expect(entry.devolucoes.map((d: any) => [d.valor, d.status])).toEqual([
    ['23.45', 'DEVOLVIDO'],
    ['100.00', 'DEVOLVIDO'],
  ]);
  expectLedgerBalanced(h.sb);
});

test('a devolução that fails frees its amount for the next one', async () => {
  await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
  const { e2eid } = await paidPix();
  const d1 = created(await devolucao(e2eid, 'D1', '100.00'));
  const over = await devolucao(e2eid, 'D2', '23.46');
  expect(over.status, over.text).toBe(400);
  expect(over.body.violacoes[0].razao).toContain('23.45');
  const failed = await h.control('POST', `/transactions/${d1}/fail`, { reason: 'Conta encerrada' });
  expect(failed.status, failed.text).toBe(200);
  created(await devolucao(e2eid, 'D2', '123.45'));
  const entry = (await apiPix(h, 'GET', `/pix/${e2eid}`)).body;
  expect(entry.devolucoes.map((d: any) => [d.id, d.valor, d.status])).toEqual([
    ['D1', '100.00', 'NAO_REALIZADO'],
    ['D2', '123.45', 'EM_PROCESSAMENTO'],
  ]);
  expectLedgerBalanced(h.sb);
});
