// Recurrences reach EXPIRADA on the sandbox clock (docs/reference.md, "API Pix recurrence expiry"): a request left
// unanswered past its dataExpiracaoSolicitacao takes its never-approved recurrence with it, and a recurrence past its
// dataFinal ends; each change reaches the webhookrec, and an expired recurrence takes no request or charge.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Harness } from '../../helpers/harness';
import { apiPix } from '../../helpers/api-pix';
import { approvedRec, cobrBody, createRec, documented, expectSchema, recBody, sendSolicRec, solicBody, harnessRecordingPosts, type Posted } from '../../helpers/api-pix-rec';

let h: Harness;
let posted: Posted[];
beforeEach(async () => {
  ({ h, posted } = await harnessRecordingPosts());
  expect((await apiPix(h, 'PUT', '/webhookrec', { body: { webhookUrl: 'https://loja.example/automatico' } })).status).toBe(200);
});
afterEach(() => h.sb.close());

/** The statuses the webhookrec was told of for `idRec`, in order. */
async function noticed(idRec: string) {
  await h.sb.settle();
  const recs = posted.filter((p) => p.url === 'https://loja.example/automatico/rec').flatMap((p) => p.body.recs);
  for (const r of recs) expectSchema('RecNotification', r);
  return recs.filter((r) => r.idRec === idRec).map((r) => r.status);
}

describe('a confirmation request not answered by its expiry', () => {
  // T0 is 2026-03-10T12:00Z; the request expires an hour later.
  const expiry = { calendario: { dataExpiracaoSolicitacao: '2026-03-10T13:00:00Z' } };

  test('expires, and its recurrence (never approved) with it: EXPIRADA, told to the webhookrec; no other request is taken', async () => {
    const idRec = await createRec(h);
    const id = await sendSolicRec(h, idRec, expiry);
    await h.advance(3599);
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('CRIADA');
    await h.advance(1);
    const rec = await documented(h, '/rec/{idRec}', 'GET', `/rec/${idRec}`);
    expect(rec.body.status).toBe('EXPIRADA');
    expect(rec.body.atualizacao.map((a: { status: string }) => a.status)).toEqual(['CRIADA', 'EXPIRADA']);
    expect(rec.body.atualizacao[1].data).toBe('2026-03-10T13:00:00.000Z');
    expect(rec.body.solicitacao.map((s: { status: string }) => s.status)).toEqual(['EXPIRADA']);
    expect((await documented(h, '/solicrec/{idSolicRec}', 'GET', `/solicrec/${id}`)).body.status).toBe('EXPIRADA');
    expect(await noticed(idRec)).toEqual(['CRIADA', 'EXPIRADA']);

    const again = await documented(h, '/solicrec', 'POST', '/solicrec', solicBody(idRec, { calendario: { dataExpiracaoSolicitacao: '2026-03-20T12:00:00Z' } }));
    expect(again.status).toBe(400);
    expect(again.body.violacoes[0]).toMatchObject({ propriedade: 'solicrec.idRec' });
    expect((await h.control('POST', `/api-pix/solicrec/${id}/accept`)).status).toBe(409);
    const patched = await documented(h, '/rec/{idRec}', 'PATCH', `/rec/${idRec}`, { status: 'CANCELADA' });
    expect(patched.status).toBe(400);
  });

  test('answered in time, the recurrence stays APROVADA past the expiry', async () => {
    const idRec = await createRec(h);
    const id = await sendSolicRec(h, idRec, expiry);
    expect((await h.control('POST', `/api-pix/solicrec/${id}/accept`)).status).toBe(200);
    await h.advance(7200);
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('APROVADA');
    expect((await apiPix(h, 'GET', `/solicrec/${id}`)).body.status).toBe('ACEITA');
    expect(await noticed(idRec)).toEqual(['CRIADA', 'APROVADA']);
  });

  test('cancelled by the receiver, it does not expire the recurrence, which can be sent again', async () => {
    const idRec = await createRec(h);
    const id = await sendSolicRec(h, idRec, expiry);
    expect((await apiPix(h, 'PATCH', `/solicrec/${id}`, { body: { status: 'CANCELADA' } })).status).toBe(201); // the document's status for it
    await h.advance(7200);
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('CRIADA');
    await sendSolicRec(h, idRec);
  });
});

describe('a recurrence past its dataFinal', () => {
  const DAY = 86_400;
  // Monthly from 2026-04-01 to 2026-05-01: it ends at 00:00 Brasília of 2026-05-02 (03:00Z).
  const bounded = recBody({ calendario: { dataInicial: '2026-04-01', dataFinal: '2026-05-01', periodicidade: 'MENSAL' } });
  const endsAt = Date.parse('2026-05-02T03:00:00Z');
  const toEnd = async (offsetSeconds = 0) => h.advance((endsAt - Date.parse('2026-03-10T12:00:00Z')) / 1000 + offsetSeconds);

  test('approved: EXPIRADA when its last day is over, told to the webhookrec; its charge of that day was still debited', async () => {
    expect((await apiPix(h, 'PUT', '/webhookcobr', { body: { webhookUrl: 'https://loja.example/automatico' } })).status).toBe(200);
    const idRec = await approvedRec(h, bounded);
    await h.advance(42 * DAY); // 2026-04-21: May's charge is in its window
    const txid = 'ultimacobranca2026maio000001';
    expect((await apiPix(h, 'PUT', `/cobr/${txid}`, { body: cobrBody(idRec, '2026-05-01', { ajusteDiaUtil: false }) })).status).toBe(201); // 1 May is a holiday: not moved
    const after = (await apiPix(h, 'GET', `/rec/${idRec}`)).body;
    expect(after.status).toBe('APROVADA');
    await toEnd(-(42 * DAY) - 1);
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('APROVADA');
    expect((await apiPix(h, 'GET', `/cobr/${txid}`)).body.status).toBe('CONCLUIDA');
    await h.advance(1);
    const rec = await documented(h, '/rec/{idRec}', 'GET', `/rec/${idRec}`);
    expect(rec.body.status).toBe('EXPIRADA');
    expect(rec.body.atualizacao.at(-1)).toEqual({ status: 'EXPIRADA', data: '2026-05-02T03:00:00.000Z' });
    expect(await noticed(idRec)).toEqual(['CRIADA', 'APROVADA', 'EXPIRADA']);
    const late = await documented(h, '/cobr/{txid}', 'PUT', '/cobr/depoisdofim2026junho00000001', cobrBody(idRec, '2026-06-01'));
    expect(late.status).toBe(400);
    expect(late.body.type).toContain('CobROperacaoInvalida');
  });

  test('never answered (no request sent): EXPIRADA too; a recurrence without dataFinal never expires by itself', async () => {
    const idRec = await createRec(h, bounded);
    const open = await createRec(h);
    await toEnd();
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('EXPIRADA');
    expect((await apiPix(h, 'GET', `/rec/${open}`)).body.status).toBe('CRIADA');
    expect(await noticed(idRec)).toEqual(['CRIADA', 'EXPIRADA']);
  });

  test('cancelled before its end, it stays CANCELADA', async () => {
    const idRec = await approvedRec(h, bounded);
    expect((await apiPix(h, 'PATCH', `/rec/${idRec}`, { body: { status: 'CANCELADA' } })).status).toBe(200);
    await toEnd();
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('CANCELADA');
  });
});
