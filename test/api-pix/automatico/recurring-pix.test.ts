// A recurring payment is a Pix like any other (sandbox.md 15): a year of a monthly recurrence on the sandbox clock,
// each debit listed by GET /pix and read by GET /pix/{e2eid}, month 4's refunded in part then in full through
// PUT /pix/{e2eid}/devolucao/{id} (the core's refund and balance behind it, webhookcobr told of each devolução); and the
// values as BACEN defines them: a fixed valorRec is every cobr's value, valorMinimoRecebedor the floor of the payer's
// maximum, a cobr above that maximum failing its debit (AM02).
import { afterEach, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, type Harness } from '../../helpers/harness';
import { apiPix } from '../../helpers/api-pix';
import { approvedRec, at, cobrBody, createRec, DEFAULT_RECEIVER, documented, expectSchema, harnessRecordingPosts, type Posted, recBody, sendSolicRec } from '../../helpers/api-pix-rec';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.sb.close();
});

/** The first day of the month `k` months after April 2026. */
const monthDay = (k: number, day = 1) => new Date(Date.UTC(2026, 3 + k, day)).toISOString().slice(0, 10);
const available = async (h: Harness) => (await h.v2('GET', '/account')).body.balance.available.amount as number;

test('a year of a monthly recurrence: each debit is a Pix (GET /pix, GET /pix/{e2eid}); month 4 refunded in part, then in full; one too many is refused', async () => {
  const { h, posted } = await harnessRecordingPosts();
  harnesses.push(h);
  expect((await apiPix(h, 'PUT', '/webhookcobr', { body: { webhookUrl: 'https://loja.example/pix-automatico' } })).status).toBe(200);
  const idRec = await approvedRec(h);
  const e2e: string[] = [];
  // Month 4's debit, refunded the day it settled (devoluções within 90 days, as any Pix): 10.00, then the 25.00 left;
  // a cent more is refused and changes nothing.
  const refundMonth4 = async (month4: string) => {
    const before = await available(h);
    const partial = await documented(h, '/pix/{e2eid}/devolucao/{id}', 'PUT', `/pix/${month4}/devolucao/parcial1`, { valor: '10.00' });
    expect(partial.status, partial.text).toBe(201);
    expect(partial.body).toMatchObject({ id: 'parcial1', valor: '10.00', status: 'EM_PROCESSAMENTO' });
    const fee = h.sb.deps.store.state.accounts[DEFAULT.accountId]!.fees.refund.fixed;
    await h.advance(60);
    const state = () => JSON.stringify(h.sb.deps.store.state.accounts[DEFAULT.accountId]);
    const frozen = state();
    const tooMuch = await documented(h, '/pix/{e2eid}/devolucao/{id}', 'PUT', `/pix/${month4}/devolucao/demais1`, { valor: '25.01' });
    expect(tooMuch.status, tooMuch.text).toBe(400);
    expect(tooMuch.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain('devolucao.valor');
    expect(tooMuch.body.violacoes[0].razao).toContain('25.00');
    expect(state()).toBe(frozen);
    const rest = await documented(h, '/pix/{e2eid}/devolucao/{id}', 'PUT', `/pix/${month4}/devolucao/resto1`, { valor: '25.00' });
    expect(rest.status, rest.text).toBe(201);
    await h.advance(60);
    const refunded = await documented(h, '/pix/{e2eid}', 'GET', `/pix/${month4}`);
    expect(refunded.body.devolucoes).toEqual([expect.objectContaining({ id: 'parcial1', valor: '10.00', status: 'DEVOLVIDO' }), expect.objectContaining({ id: 'resto1', valor: '25.00', status: 'DEVOLVIDO' })]);
    expect(await available(h)).toBe(before - 3500 - 2 * Math.round(fee * 100));
    expect((await apiPix(h, 'PUT', `/pix/${month4}/devolucao/mais1`, { body: { valor: '0.01' } })).status).toBe(400);
    const cobr4 = await documented(h, '/cobr/{txid}', 'GET', '/cobr/assinatura2026mes0400000001');
    expect(cobr4.body.pix[0].devolucoes.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([['parcial1', 'DEVOLVIDO'], ['resto1', 'DEVOLVIDO']]);
  };
  for (let k = 0; k < 12; k++) {
    const due = monthDay(k);
    await at(h, `${monthDay(k - 1, 25)}T12:00:00Z`);
    const txid = `assinatura2026mes${String(k + 1).padStart(2, '0')}00000001`;
    expect((await apiPix(h, 'PUT', `/cobr/${txid}`, { body: cobrBody(idRec, due, { ajusteDiaUtil: false }) })).status).toBe(201);
    await apiPix(h, 'GET', `/cobr/${txid}`);
    await at(h, `${due}T12:00:00Z`);
    const cobr = (await apiPix(h, 'GET', `/cobr/${txid}`)).body;
    expect(cobr.status, JSON.stringify(cobr)).toBe('CONCLUIDA');
    const pix = await documented(h, '/pix/{e2eid}', 'GET', `/pix/${cobr.pix[0].endToEndId}`);
    expect(pix.status, pix.text).toBe(200);
    expect(pix.body).toMatchObject({ endToEndId: cobr.pix[0].endToEndId, txid, valor: '35.00', horario: `${due}T09:00:00.000Z` });
    e2e.push(pix.body.endToEndId);
    if (k === 3) await refundMonth4(pix.body.endToEndId);
  }
  const list = await documented(h, '/pix', 'GET', '/pix?inicio=2026-03-01T00:00:00Z&fim=2027-04-01T00:00:00Z');
  expect(list.body.pix.map((p: { endToEndId: string }) => p.endToEndId)).toEqual(e2e);
  const byTxid = await documented(h, '/pix', 'GET', '/pix?inicio=2026-03-01T00:00:00Z&fim=2027-04-01T00:00:00Z&txid=assinatura2026mes0400000001');
  expect(byTxid.body.pix.map((p: { endToEndId: string }) => p.endToEndId)).toEqual([e2e[3]]);

  expectLedgerBalanced(h.sb);

  // webhookcobr heard each devolução end, with the cobr's pix and its devoluções (CobRNotification).
  const told = (posted as Posted[]).filter((p) => p.url.endsWith('/cobr') && p.body.cobsr[0].txid === 'assinatura2026mes0400000001' && p.body.cobsr[0].pix?.[0]?.devolucoes);
  expect(told.map((p) => p.body.cobsr[0].pix[0].devolucoes.length)).toEqual([1, 2]);
  for (const p of told) expectSchema('CobRNotification', p.body.cobsr[0]);
});

test('a fixed valorRec is every cobr value: another value, below or above, is 400 naming valor.original and the value, nothing created', async () => {
  const { h } = await harnessRecordingPosts();
  harnesses.push(h);
  const idRec = await approvedRec(h, recBody({ valor: { valorRec: '49.90' } }));
  await at(h, '2026-03-22T12:00:00Z');
  for (const original of ['40.00', '49.91']) {
    const before = JSON.stringify(h.sb.deps.store.state.accounts[DEFAULT.accountId]);
    const res = await documented(h, '/cobr/{txid}', 'PUT', '/cobr/assinatura2026abril000000001', cobrBody(idRec, '2026-04-01', { valor: { original } }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.violacoes).toEqual([expect.objectContaining({ propriedade: 'cobr.valor.original', razao: expect.stringContaining('49.90') })]);
    expect(JSON.stringify(h.sb.deps.store.state.accounts[DEFAULT.accountId])).toBe(before);
  }
  expect((await apiPix(h, 'PUT', '/cobr/assinatura2026abril000000001', { body: cobrBody(idRec, '2026-04-01', { valor: { original: '49.90' } }) })).status).toBe(201);
});

test('valorMinimoRecebedor is the floor of the payer maximum, not of each cobr; a cobr above the maximum fails its debit with AM02', async () => {
  const { h } = await harnessRecordingPosts();
  harnesses.push(h);
  const idRec = await createRec(h, recBody({ valor: { valorMinimoRecebedor: '20.00' }, politicaRetentativa: 'NAO_PERMITE' }));
  const solic = await sendSolicRec(h, idRec);
  const below = await h.control('POST', `/api-pix/solicrec/${solic}/accept`, { valorMaximoPagador: '19.99' });
  expect(below.status, below.text).toBe(400);
  expect(below.text).toContain('valorMaximoPagador');
  expect(below.text).toContain('20.00');
  expect((await h.control('POST', `/api-pix/solicrec/${solic}/accept`, { valorMaximoPagador: '50.00' })).status).toBe(200);
  await at(h, '2026-03-22T12:00:00Z');
  // 15.00 is below valorMinimoRecebedor: a cobr takes it, and it is debited.
  expect((await apiPix(h, 'PUT', '/cobr/assinatura2026abril000000001', { body: cobrBody(idRec, '2026-04-01', { valor: { original: '15.00' } }) })).status).toBe(201);
  await apiPix(h, 'GET', '/cobr/assinatura2026abril000000001');
  await at(h, '2026-04-01T12:00:00Z');
  expect((await apiPix(h, 'GET', '/cobr/assinatura2026abril000000001')).body.status).toBe('CONCLUIDA');
  // 50.01 is above the payer's maximum: taken, then its debit fails (AM02), the policy (NAO_PERMITE) ending it.
  await at(h, '2026-04-22T12:00:00Z');
  expect((await apiPix(h, 'PUT', '/cobr/assinatura2026maio0000000001', { body: cobrBody(idRec, '2026-05-01', { valor: { original: '50.01' } }) })).status).toBe(201);
  await apiPix(h, 'GET', '/cobr/assinatura2026maio0000000001');
  // 1 May is Labour Day: with ajusteDiaUtil the debit moves to the next business day, Monday 4 May.
  await at(h, '2026-05-04T12:00:00Z');
  const failed = await documented(h, '/cobr/{txid}', 'GET', '/cobr/assinatura2026maio0000000001');
  expect(failed.body).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AM02' } } });
  expect(failed.body.tentativas[0]).toMatchObject({ status: 'REJEITADA', rejeicao: { codigo: 'AM02', descricao: expect.stringContaining('máximo') } });
});

test('a payer maximum beside a fixed valorRec is refused, and the request stays unanswered', async () => {
  const { h } = await harnessRecordingPosts();
  harnesses.push(h);
  const idRec = await createRec(h);
  const solic = await sendSolicRec(h, idRec);
  const res = await h.control('POST', `/api-pix/solicrec/${solic}/accept`, { valorMaximoPagador: '80.00' });
  expect(res.status, res.text).toBe(400);
  expect(res.text).toContain('valorRec');
  expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('CRIADA');
});

test('the receiver accounts a cobr names are in the control API account answer', async () => {
  const { h } = await harnessRecordingPosts();
  harnesses.push(h);
  const res = await h.control('GET', `/accounts/${DEFAULT.accountId}`);
  expect(res.body.receiverAccounts).toEqual([DEFAULT_RECEIVER]);
});
