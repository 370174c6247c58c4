// A monthly subscription walked on the sandbox clock (sandbox.md 15): three months charged and paid (one debit failed
// and retried), then cancelled by the payer with the next month's charge pending; webhookrec and webhookcobr hear
// every change, in order, each notice validated against the document's schemas. And the whole of it survives a
// restart on a data file.
import { afterEach, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../../helpers/harness';
import { apiPix } from '../../helpers/api-pix';
import { approvedRec, at, cobrBody, expectSchema, harnessRecordingPosts } from '../../helpers/api-pix-rec';
import { tempDir } from '../../foundation/process';

const DAY = 86_400;
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.sb.close();
});

test('three months paid (one retried), then cancelled by the payer: charges, money and webhooks in order', async () => {
  const { h, posted } = await harnessRecordingPosts();
  harnesses.push(h);
  for (const which of ['webhookrec', 'webhookcobr']) expect((await apiPix(h, 'PUT', `/${which}`, { body: { webhookUrl: 'https://loja.example/pix-automatico' } })).status).toBe(200);
  const idRec = await approvedRec(h);

  const month = async (txid: string, due: string, windowDay: string, fail?: string) => {
    await at(h, `${windowDay}T12:00:00Z`);
    const res = await apiPix(h, 'PUT', `/cobr/${txid}`, { body: cobrBody(idRec, due) });
    expect(res.status, res.text).toBe(201);
    await apiPix(h, 'GET', `/cobr/${txid}`); // scheduled at the payer's PSP
    if (fail) {
      expect((await h.control('POST', `/api-pix/cobr/${txid}/fail`)).status).toBe(200);
      await at(h, `${due}T12:00:00Z`);
      expect((await apiPix(h, 'POST', `/cobr/${txid}/retentativa/${fail}`)).status).toBe(201);
      await at(h, `${fail}T12:00:00Z`);
    } else await at(h, `${due}T12:00:00Z`);
    return (await apiPix(h, 'GET', `/cobr/${txid}`)).body;
  };
  const april = await month('assinatura2026abril000000001', '2026-04-01', '2026-03-25');
  const may = await month('assinatura2026maio0000000001', '2026-05-01', '2026-04-25', '2026-05-04');
  const june = await month('assinatura2026junho000000001', '2026-06-01', '2026-05-25');
  for (const paid of [april, may, june]) expect(paid).toMatchObject({ status: 'CONCLUIDA', pix: [expect.objectContaining({ valor: '35.00' })] });
  expect(may.tentativas.map((t: { status: string; tipo: string }) => `${t.tipo} ${t.status}`)).toEqual(['AGND REJEITADA', 'NTAG PAGA']);
  expect(may.pix[0].horario).toBe('2026-05-04T09:00:00.000Z');

  await at(h, '2026-06-22T12:00:00Z');
  expect((await apiPix(h, 'PUT', '/cobr/assinatura2026julho000000001', { body: cobrBody(idRec, '2026-07-01') })).status).toBe(201);
  await at(h, '2026-06-25T12:00:00Z');
  const cancelled = await h.control('POST', `/api-pix/rec/${idRec}/cancel`);
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLDB' } } });
  await at(h, '2026-07-02T12:00:00Z');
  const july = (await apiPix(h, 'GET', '/cobr/assinatura2026julho000000001')).body;
  expect(july).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_PAGADOR' } } });

  // The money: three payments of 35.00 through the ledger, with their payment_completed events.
  const account = h.sb.deps.store.state.accounts[DEFAULT.accountId]!;
  const payments = Object.values(account.transactions).filter((t) => t.type === 'payment' && t.status === 'completed');
  expect(payments.map((t) => t.amount)).toEqual([3500, 3500, 3500]);
  expect(account.events.filter((e) => e.event === 'payment_completed')).toHaveLength(3);
  expectLedgerBalanced(h.sb);

  // The notices, in the order they were posted.
  await h.sb.settle();
  const recs = posted.filter((p) => p.url === 'https://loja.example/pix-automatico/rec').map((p) => p.body);
  for (const body of recs) for (const r of body.recs) expectSchema('RecNotification', r);
  expect(recs.map((b) => b.recs[0].status)).toEqual(['CRIADA', 'APROVADA', 'CANCELADA']);
  const cobrs = posted.filter((p) => p.url === 'https://loja.example/pix-automatico/cobr').map((p) => p.body.cobsr[0]);
  for (const c of cobrs) expectSchema('CobRNotification', c);
  const story = (txid: string) => cobrs.filter((c) => c.txid === txid).map((c) => [c.status, ...(c.tentativas ?? []).map((t: { status: string }) => t.status)].join(' '));
  expect(story('assinatura2026abril000000001')).toEqual(['CRIADA', 'ATIVA AGENDADA', 'CONCLUIDA PAGA']);
  expect(story('assinatura2026maio0000000001')).toEqual(['CRIADA', 'ATIVA AGENDADA', 'ATIVA REJEITADA', 'ATIVA REJEITADA AGENDADA', 'CONCLUIDA REJEITADA PAGA']);
  expect(story('assinatura2026julho000000001')).toEqual(['CRIADA', 'ATIVA AGENDADA', 'CANCELADA CANCELADA']);
  const log = await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries?event=cobr`);
  expect(log.body.items.every((d: { state: string }) => d.state === 'succeeded')).toBe(true);
});

test('recurrences, requests and charges survive a restart on a data file, and the debit still falls due', async () => {
  const tmp = tempDir();
  const file = tmp.file('state.json');
  try {
    const first = await startHarness({ dataFile: file });
    harnesses.push(first);
    const idRec = await approvedRec(first);
    await first.advance(12 * DAY);
    expect((await apiPix(first, 'PUT', '/cobr/assinatura2026abril000000001', { body: cobrBody(idRec, '2026-04-01') })).status).toBe(201);
    await apiPix(first, 'GET', '/cobr/assinatura2026abril000000001');
    await first.sb.close();
    harnesses.splice(0);
    const second = await startHarness({ dataFile: file });
    harnesses.push(second);
    expect((await apiPix(second, 'GET', `/rec/${idRec}`)).body).toMatchObject({ status: 'APROVADA', solicitacao: [expect.objectContaining({ status: 'ACEITA' })] });
    await second.advance(10 * DAY);
    expect((await apiPix(second, 'GET', '/cobr/assinatura2026abril000000001')).body.status).toBe('CONCLUIDA');
  } finally {
    for (const h of harnesses.splice(0)) await h.sb.close();
    tmp.cleanup();
  }
});
