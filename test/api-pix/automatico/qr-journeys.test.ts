// The QR journeys of Pix Automático on the payer's side (sandbox.md 15): the code GET /rec/{idRec} gives (dadosQR)
// decoded by POST /_sandbox/brcodes/decode names the recurrence, and the payer's answer from the code
// (POST /_sandbox/api-pix/rec/{idRec}/authorise|decline, what /pay calls) approves or rejects it, paying the charge of a
// QR Composto in the same request; a request waiting for the payer is answered as .../solicrec/{id}/accept answers it.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../../helpers/harness';
import { apiPix, cobBody, putCob } from '../../helpers/api-pix';
import { createRec, recBody, sendSolicRec } from '../../helpers/api-pix-rec';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.sb.close());

const account = () => h.sb.deps.store.state.accounts[DEFAULT.accountId]!;
const COB = 'jornada3cob0000000000000000001';

/** A recurrence with a location, and the code GET /rec/{idRec} gives for it (with `txid`, the QR Composto). */
async function recWithQr(over: Record<string, unknown> = {}, txid?: string) {
  const loc = (await apiPix(h, 'POST', '/locrec')).body;
  const idRec = await createRec(h, recBody({ loc: loc.id, ...over }));
  const got = await apiPix(h, 'GET', `/rec/${idRec}${txid ? `?txid=${txid}` : ''}`);
  expect(got.status, got.text).toBe(200);
  return { idRec, code: got.body.dadosQR.pixCopiaECola as string };
}

describe('decoding a Pix Automático code', () => {
  test("a recurrence's own code (Jornada 2): verdict authorise, the recurrence named, nothing to pay", async () => {
    const { idRec, code } = await recWithQr();
    const res = await h.control('POST', '/brcodes/decode', { code });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ verdict: 'authorise', valid: true, charge: null, recurrence: { idRec, receiver: 'Loja Exemplo LTDA', objeto: 'Streaming de música', valorRec: 35, periodicidade: 'MENSAL', status: 'CRIADA', jornada: 'JORNADA_2', txid: null } });
    expect(res.body.checks.find((c: { check: string }) => c.check === 'recurrence')).toMatchObject({ ok: true, field: '80' });
    expect(res.body.decoded.recLocation).toContain(`/api-pix/qr/v2/rec/`);
  });

  test("a QR Composto (Jornada 3): the cob payable, and the recurrence with the cob's txid", async () => {
    await putCob(h, COB, cobBody({ valor: { original: '35.00' } }));
    const { idRec, code } = await recWithQr({ ativacao: { dadosJornada: { txid: COB } } }, COB);
    const res = await h.control('POST', '/brcodes/decode', { code });
    expect(res.body).toMatchObject({ verdict: 'payable', charge: { amount: 35, status: 'pending' }, recurrence: { idRec, jornada: 'JORNADA_3', txid: COB } });
    expect(res.body.message).toContain(`asks you to authorise the recurrence ${idRec}`);
  });

  test('a code whose recurrence location is not this sandbox\'s is not_ours; a damaged field 80 is invalid', async () => {
    const { code } = await recWithQr();
    const { withRecurrence, buildRecBrCode } = await import('../../../src/pix');
    const foreign = buildRecBrCode({ recLocation: 'pix.example.com/rec/abc', merchantName: 'X', merchantCity: 'Y' });
    expect((await h.control('POST', '/brcodes/decode', { code: foreign })).body.verdict).toBe('not_ours');
    const broken = withRecurrence(code, 'pix.example.com/rec/abc').replace('2523pix.example.com/rec/abc', '9923pix.example.com/rec/abc');
    expect((await h.control('POST', '/brcodes/decode', { code: broken })).body.verdict).toBe('invalid');
  });
});

describe('answering from the code', () => {
  test('authorise (Jornada 2): APROVADA, its payer the debtor, JORNADA_2; decoding again says nothing to authorise', async () => {
    const { idRec, code } = await recWithQr();
    const res = await h.control('POST', `/api-pix/rec/${idRec}/authorise`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ idRec, status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_2' } });
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.pagador).toEqual({ cpf: '45164632481', ispbParticipante: expect.stringMatching(/^\d{8}$/) });
    expect((await h.control('POST', '/brcodes/decode', { code })).body).toMatchObject({ verdict: 'not_payable', recurrence: { status: 'APROVADA' } });
  });

  test('authorise with the txid (Jornada 3): the cob paid (CONCLUIDA, money in the wallet) and the recurrence APROVADA in one request', async () => {
    await putCob(h, COB, cobBody({ valor: { original: '35.00' } }));
    const { idRec } = await recWithQr({ ativacao: { dadosJornada: { txid: COB } } }, COB);
    const res = await h.control('POST', `/api-pix/rec/${idRec}/authorise`, { txid: COB });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid: COB } } });
    expect((await apiPix(h, 'GET', `/cob/${COB}`)).body.status).toBe('CONCLUIDA');
    expectLedgerBalanced(h.sb);
  });

  test('a confirmation request waiting for the payer is answered as .../solicrec/{id}/accept answers it', async () => {
    const { idRec } = await recWithQr();
    const id = await sendSolicRec(h, idRec);
    expect((await h.control('POST', `/api-pix/rec/${idRec}/authorise`)).status).toBe(200);
    expect((await apiPix(h, 'GET', `/solicrec/${id}`)).body.status).toBe('ACEITA');
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.pagador).toEqual({ cpf: '45164632481', ispbParticipante: '91193552' });
  });

  test('decline: REJEITADA (AP13)', async () => {
    const { idRec } = await recWithQr();
    const res = await h.control('POST', `/api-pix/rec/${idRec}/decline`);
    expect(res.body).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13' } } });
  });

  test("authorising with a cob other than the recurrence's own immediate charge is 400 naming txid, and nothing is paid", async () => {
    const OTHER = 'jornada3cob0000000000000000002';
    await putCob(h, COB, cobBody({ valor: { original: '35.00' } }));
    await putCob(h, OTHER, cobBody({ valor: { original: '35.00' } }));
    const { idRec } = await recWithQr({ ativacao: { dadosJornada: { txid: COB } } }, COB);
    const before = JSON.stringify(account());
    const res = await h.control('POST', `/api-pix/rec/${idRec}/authorise`, { txid: OTHER });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields[0]).toMatchObject({ field: 'txid' });
    expect(res.body.details.fields[0].message).toContain(COB);
    expect(JSON.stringify(account())).toBe(before);
  });

  test('a recurrence already answered is 409, and its charge is not paid', async () => {
    await putCob(h, COB, cobBody({ valor: { original: '35.00' } }));
    const { idRec } = await recWithQr({ ativacao: { dadosJornada: { txid: COB } } }, COB);
    expect((await h.control('POST', `/api-pix/rec/${idRec}/decline`)).status).toBe(200);
    const before = JSON.stringify(account());
    const again = await h.control('POST', `/api-pix/rec/${idRec}/authorise`, { txid: COB });
    expect(again.status, again.text).toBe(409);
    expect(JSON.stringify(account())).toBe(before);
  });
});
