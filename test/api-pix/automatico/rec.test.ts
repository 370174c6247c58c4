// Pix Automático's recurrences, their locations and confirmation requests (sandbox.md 15): every answer validated
// against the document's schemas, every violacao the document names refused with its problem type and nothing kept.
import { compactVerify, createLocalJWKSet } from 'jose';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startHarness, type Harness } from '../../helpers/harness';
import { apiPix, cobBody, KEYS, pixToken, putCob } from '../../helpers/api-pix';
import { parseBrCode, parseTlv } from '../../../src/pix';
import { approvedRec, createRec, documented, expectDocumented, expectSchema, recBody, sendSolicRec, solicBody } from '../../helpers/api-pix-rec';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.sb.close());

const period = 'inicio=2026-03-01T00:00:00Z&fim=2026-04-01T00:00:00Z';
const state = () => JSON.stringify(h.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']);

describe('rec', () => {
  test('POST /rec answers a recurrence CRIADA with its idRec, receiver and history; GET and the list show it', async () => {
    const made = await documented(h, '/rec', 'POST', '/rec', recBody());
    expect(made.status, made.text).toBe(201);
    expect(made.body.idRec).toMatch(/^RR[0-9A-Z]{8}20260310[a-zA-Z0-9]{11}$/);
    expect(made.body).toMatchObject({ status: 'CRIADA', politicaRetentativa: 'PERMITE_3R_7D', valor: { valorRec: '35.00' }, atualizacao: [{ status: 'CRIADA', data: '2026-03-10T12:00:00.000Z' }] });
    const got = await documented(h, '/rec/{idRec}', 'GET', `/rec/${made.body.idRec}`);
    expect(got.body.vinculo).toEqual(recBody().vinculo);
    const list = await documented(h, '/rec', 'GET', `/rec?${period}&cpf=45164632481&status=CRIADA`);
    expect(list.body.recs.map((r: { idRec: string }) => r.idRec)).toEqual([made.body.idRec]);
    const none = await documented(h, '/rec', 'GET', `/rec?${period}&status=APROVADA`);
    expect(none.body.recs).toEqual([]);
  });

  test('a recurrence without retries gets an idRec starting RN', async () => {
    const idRec = await createRec(h, recBody({ politicaRetentativa: 'NAO_PERMITE', valor: { valorMinimoRecebedor: '10.00' } }));
    expect(idRec.startsWith('RN')).toBe(true);
  });

  test.each([
    ['a first day before today', { calendario: { dataInicial: '2026-03-09', periodicidade: 'MENSAL' } }, 'rec.calendario.dataInicial'],
    ['a last day before the first', { calendario: { dataInicial: '2026-04-01', dataFinal: '2026-03-31', periodicidade: 'MENSAL' } }, 'rec.calendario.dataFinal'],
    ['an unknown periodicidade', { calendario: { dataInicial: '2026-04-01', periodicidade: 'DIARIA' } }, 'rec.calendario.periodicidade'],
    ['both values', { valor: { valorRec: '35.00', valorMinimoRecebedor: '10.00' } }, 'rec.valor'],
    ['a value without 2 decimals', { valor: { valorRec: '35' } }, 'rec.valor.valorRec'],
    ['no vinculo', { vinculo: undefined }, 'rec.vinculo'],
    ['an unknown policy', { politicaRetentativa: 'SEMPRE' }, 'rec.politicaRetentativa'],
    ['a location that does not exist', { loc: 99 }, 'rec.loc'],
  ])('POST /rec with %s is RecOperacaoInvalida naming %s, and creates nothing', async (_name, over, propriedade) => {
    const before = state();
    const res = await documented(h, '/rec', 'POST', '/rec', recBody(over));
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida');
    expect(res.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain(propriedade);
    expect(state()).toBe(before);
  });

  test('GET /rec/{idRec} of an unknown recurrence is 404 RecNaoEncontrada', async () => {
    const res = await documented(h, '/rec/{idRec}', 'GET', '/rec/RR1234567820260310abcdefghijk');
    expect(res.status).toBe(404);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrada');
  });

  test('the rec scopes: a token of cob.read cannot create a recurrence; one of rec.read reads', async () => {
    const denied = await apiPix(h, 'POST', '/rec', { body: recBody(), token: await pixToken(h, 'cob.read') });
    expect(denied.status, denied.text).toBe(403);
    expect(denied.body.detail).toContain('rec.write');
    const read = await apiPix(h, 'GET', `/rec?${period}`, { token: await pixToken(h, 'rec.read') });
    expect(read.status, read.text).toBe(200);
  });

  test('PATCH cancels (USUARIO_RECEBEDOR, SLCR); a cancelled recurrence is not revised again', async () => {
    const idRec = await createRec(h);
    const patched = await documented(h, '/rec/{idRec}', 'PATCH', `/rec/${idRec}`, { vinculo: { devedor: { nome: 'Fulano Tal' } }, calendario: { dataInicial: '2026-04-05' } });
    expect(patched.body).toMatchObject({ status: 'CRIADA', calendario: { dataInicial: '2026-04-05' }, vinculo: { devedor: { nome: 'Fulano Tal' } } });
    const cancelled = await documented(h, '/rec/{idRec}', 'PATCH', `/rec/${idRec}`, { status: 'CANCELADA' });
    expect(cancelled.body).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } } });
    expect(cancelled.body.atualizacao.map((a: { status: string }) => a.status)).toEqual(['CRIADA', 'CANCELADA']);
    const again = await documented(h, '/rec/{idRec}', 'PATCH', `/rec/${idRec}`, { status: 'CANCELADA' });
    expect(again.status).toBe(400);
    expect(again.body.type).toContain('RecOperacaoInvalida');
  });

  test('an approved recurrence keeps its first day and location: changing them is refused', async () => {
    const idRec = await approvedRec(h);
    const res = await documented(h, '/rec/{idRec}', 'PATCH', `/rec/${idRec}`, { calendario: { dataInicial: '2026-04-10' } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.violacoes[0].propriedade).toBe('rec.calendario.dataInicial');
  });
});

describe('locrec and the recurrence payload location', () => {
  test('POST /locrec, a recurrence bound to it, GET, the list, the JWS a bank reads, and DELETE idRec', async () => {
    const loc = await documented(h, '/locrec', 'POST', '/locrec');
    expect(loc.status, loc.text).toBe(201);
    expect(loc.body.location).toMatch(/\/api-pix\/qr\/v2\/rec\/[a-z0-9]{24}$/);
    const idRec = await createRec(h, recBody({ loc: loc.body.id }));
    const taken = await apiPix(h, 'POST', '/rec', { body: recBody({ loc: loc.body.id }) });
    expect(taken.status, taken.text).toBe(400);
    expect(taken.body.violacoes[0].razao).toContain(idRec);
    expect((await documented(h, '/locrec/{id}', 'GET', `/locrec/${loc.body.id}`)).body.idRec).toBe(idRec);
    expect((await documented(h, '/rec/{idRec}', 'GET', `/rec/${idRec}`)).body.loc).toMatchObject({ id: loc.body.id, idRec });
    const listed = await documented(h, '/locrec', 'GET', `/locrec?${period}&idRecPresente=true`);
    expect(listed.body.loc).toHaveLength(1);

    const jws = await h.api('GET', new URL(`http://${loc.body.location.replace(/^https?:\/\//, '')}`).pathname);
    expect(jws.status, jws.text).toBe(200);
    expect(jws.headers.get('content-type')).toContain('application/jose');
    const jwks = createLocalJWKSet((await h.api('GET', '/.well-known/jwks.json')).body);
    const payload = JSON.parse(new TextDecoder().decode((await compactVerify(jws.text, jwks)).payload));
    expectSchema('RecPayload', payload);
    expect(payload).toMatchObject({ idRec, valor: { valorRec: '35.00' } });

    const unbound = await documented(h, '/locrec/{id}/idRec', 'DELETE', `/locrec/${loc.body.id}/idRec`);
    expect(unbound.body.idRec).toBeUndefined();
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.loc).toBeUndefined();
    const gone = await h.api('GET', new URL(`http://${loc.body.location.replace(/^https?:\/\//, '')}`).pathname);
    expect(gone.status).toBe(404);
    expect(gone.body.type).toContain('RecPayloadNaoEncontrado');
  });

  test('an unknown location is 404 PayloadLocationRecNaoEncontrado', async () => {
    const res = await documented(h, '/locrec/{id}', 'GET', '/locrec/77');
    expect(res.status).toBe(404);
    expect(res.body.type).toContain('PayloadLocationRecNaoEncontrado');
  });
});

describe('solicrec', () => {
  test('POST answers CRIADA with the recurrence it carries; the payer receives it at once on the clock', async () => {
    const idRec = await createRec(h);
    const made = await documented(h, '/solicrec', 'POST', '/solicrec', solicBody(idRec));
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ idRec, status: 'CRIADA', recPayload: { idRec } });
    expect(made.body.idSolicRec).toMatch(/^SC[0-9A-Z]{8}20260310[a-zA-Z0-9]{11}$/);
    const got = await documented(h, '/solicrec/{idSolicRec}', 'GET', `/solicrec/${made.body.idSolicRec}`);
    expect(got.body.atualizacao.map((a: { status: string }) => a.status)).toEqual(['CRIADA', 'ENVIADA', 'RECEBIDA']);
  });

  test('a second request while one is active is SolicRecOperacaoInvalida; so is one for an unknown recurrence or an expiry past', async () => {
    const idRec = await createRec(h);
    const first = await sendSolicRec(h, idRec);
    await apiPix(h, 'GET', `/solicrec/${first}`); // the payer's PSP receives it (a job due now) before the snapshots
    for (const body of [solicBody(idRec), solicBody('RR1234567820260310abcdefghijk'), solicBody(idRec, { calendario: { dataExpiracaoSolicitacao: '2026-03-01T00:00:00Z' } })]) {
      const before = state();
      const res = await documented(h, '/solicrec', 'POST', '/solicrec', body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.type).toContain('SolicRecOperacaoInvalida');
      expect(state()).toBe(before);
    }
  });

  test('PATCH cancels a request not answered; an answered one is refused', async () => {
    const idRec = await createRec(h);
    const id = await sendSolicRec(h, idRec);
    const cancelled = await documented(h, '/solicrec/{idSolicRec}', 'PATCH', `/solicrec/${id}`, { status: 'CANCELADA' });
    expect(cancelled.status, cancelled.text).toBe(201);
    expect(cancelled.body.status).toBe('CANCELADA');
    const second = await sendSolicRec(h, idRec);
    expect((await h.control('POST', `/api-pix/solicrec/${second}/accept`)).status).toBe(200);
    const late = await documented(h, '/solicrec/{idSolicRec}', 'PATCH', `/solicrec/${second}`, { status: 'CANCELADA' });
    expect(late.status).toBe(400);
    expect(late.body.type).toContain('SolicRecOperacaoInvalida');
  });

  test('accepted, the recurrence is APROVADA with its payer and JORNADA_1; rejected, REJEITADA with its reason', async () => {
    const idRec = await approvedRec(h);
    const rec = await documented(h, '/rec/{idRec}', 'GET', `/rec/${idRec}`);
    expect(rec.body).toMatchObject({ status: 'APROVADA', pagador: { cpf: '45164632481', ispbParticipante: '91193552' }, ativacao: { tipoJornada: 'JORNADA_1' } });
    expect(rec.body.solicitacao[0].status).toBe('ACEITA');
    const other = await createRec(h);
    const id = await sendSolicRec(h, other);
    const rejected = await h.control('POST', `/api-pix/solicrec/${id}/reject`);
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'REJEITADA', rec: { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13' } } } });
    const twice = await h.control('POST', `/api-pix/solicrec/${id}/accept`);
    expect(twice.status, twice.text).toBe(409);
  });

  test('an unanswered request expires at dataExpiracaoSolicitacao on the clock', async () => {
    const idRec = await createRec(h);
    const id = await sendSolicRec(h, idRec, { calendario: { dataExpiracaoSolicitacao: '2026-03-10T13:00:00Z' } });
    await h.advance(3600);
    expect((await apiPix(h, 'GET', `/solicrec/${id}`)).body.status).toBe('EXPIRADA');
  });

  test.each([
    ['00000000604', 'APROVADA', 'ACEITA'],
    ['00000000787', 'REJEITADA', 'REJEITADA'],
    ['00000000868', 'APROVADA', 'ACEITA'],
  ])('a magic debtor %s answers 5 s after receiving: the recurrence %s', async (cpf, recStatus, solicStatus) => {
    const idRec = await createRec(h, recBody({ vinculo: { contrato: 'c1', devedor: { cpf, nome: 'Magia' } } }));
    const id = await sendSolicRec(h, idRec);
    await h.advance(4);
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('CRIADA');
    await h.advance(1);
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe(recStatus);
    expect((await apiPix(h, 'GET', `/solicrec/${id}`)).body.status).toBe(solicStatus);
  });
});

describe('webhookrec and webhookcobr', () => {
  test.each(['webhookrec', 'webhookcobr'])('%s: PUT, GET and DELETE; GET without one is 404', async (which) => {
    const template = `/${which}`;
    const put = await documented(h, template, 'PUT', `/${which}`, { webhookUrl: 'https://loja.example/hooks' });
    expect(put.status, put.text).toBe(200);
    const got = await documented(h, template, 'GET', `/${which}`);
    expect(got.body.webhookUrl).toBe('https://loja.example/hooks');
    expect((await documented(h, template, 'DELETE', `/${which}`)).status).toBe(204);
    const missing = await apiPix(h, 'GET', `/${which}`);
    expectDocumented(template, 'GET', missing);
    expect(missing.status).toBe(404);
    // The standard's /webhook/{chave} does not see them.
    expect((await apiPix(h, 'GET', '/webhook')).body.webhooks).toEqual([]);
  });

  test('a webhookUrl that is not a URL is WebhookRecOperacaoInvalida; with a webhookrec set, a refused POST /rec records no notice', async () => {
    const bad = await documented(h, '/webhookrec', 'PUT', '/webhookrec', { webhookUrl: 'nada' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/WebhookRecOperacaoInvalida', violacoes: [{ propriedade: 'webhook.webhookUrl' }] });
    await apiPix(h, 'PUT', '/webhookrec', { body: { webhookUrl: 'https://loja.example/hooks' } });
    const before = state();
    expect((await apiPix(h, 'POST', '/rec', { body: recBody({ valor: { valorRec: '1.00', valorMinimoRecebedor: '1.00' } }) })).status).toBe(400);
    expect(state()).toBe(before);
    expect((await apiPix(h, 'POST', '/rec', { body: recBody() })).status).toBe(201);
    expect(h.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!.events.filter((e) => e.event === 'rec')).toHaveLength(1);
  });

  test.each([
    ['/rec', 'RecConsultaInvalida'],
    ['/cobr', 'CobRConsultaInvalida'],
    ['/locrec', 'PayloadLocationRecConsultaInvalida'],
  ])('GET %s with fim before inicio is %s', async (path, name) => {
    const res = await apiPix(h, 'GET', `${path}?inicio=2026-04-01T00:00:00Z&fim=2026-03-01T00:00:00Z`);
    expectDocumented(path, 'GET', res);
    expect(res.status).toBe(400);
    expect(res.body.type).toBe(`https://pix.bcb.gov.br/api/v2/error/${name}`);
    expect(res.body.violacoes[0].propriedade).toBe('fim');
  });
});

describe('GET /rec/{idRec} with and without txid: the QR Composto of the journey (dadosQR)', () => {
  const recLocationOf = (location: string) => location.replace(/^https?:\/\//, '');
  const cobvBody = {
    calendario: { dataDeVencimento: '2026-03-20' },
    devedor: { cpf: '45164632481', nome: 'Fulano de Tal' },
    valor: { original: '35.00' },
    chave: KEYS.cnpj,
  };

  test('without txid: Jornada 2, a code of the recurrence alone (field 26 only the GUI, no amount, field 80 its location)', async () => {
    const loc = (await apiPix(h, 'POST', '/locrec')).body;
    const idRec = await createRec(h, recBody({ loc: loc.id }));
    const res = await documented(h, '/rec/{idRec}', 'GET', `/rec/${idRec}`);
    expect(res.body.dadosQR.jornada).toBe('JORNADA_2');
    const code = parseBrCode(res.body.dadosQR.pixCopiaECola);
    expect(code.crcValid).toBe(true);
    expect(code.merchantAccount).toEqual({ '00': 'br.gov.bcb.pix' });
    expect(code.amountCents).toBeUndefined();
    expect(parseTlv(code.fields['80']!)).toEqual([{ id: '00', value: 'br.gov.bcb.pix' }, { id: '25', value: recLocationOf(loc.location) }]);
    // no location, no QR
    const bare = await createRec(h);
    expect((await documented(h, '/rec/{idRec}', 'GET', `/rec/${bare}`)).body.dadosQR).toBeUndefined();
  });

  test("with its immediate cob's txid: Jornada 3, the cob's code with field 80; with a cobv's: Jornada 4 unless the recurrence is a Jornada 3", async () => {
    const cob = await putCob(h, 'jornada3cob0000000000000000001', cobBody({ valor: { original: '35.00' } }));
    const loc = (await apiPix(h, 'POST', '/locrec')).body;
    const idRec = await createRec(h, recBody({ loc: loc.id, ativacao: { dadosJornada: { txid: 'jornada3cob0000000000000000001' } } }));
    const res = await documented(h, '/rec/{idRec}', 'GET', `/rec/${idRec}?txid=jornada3cob0000000000000000001`);
    expect(res.body.dadosQR.jornada).toBe('JORNADA_3');
    const code = parseBrCode(res.body.dadosQR.pixCopiaECola);
    expect(code.crcValid).toBe(true);
    expect(code.merchantAccount['25']).toBe(recLocationOf(cob.body.location));
    expect(code.amountCents).toBe(3500);
    expect(parseTlv(code.fields['80']!).find((f) => f.id === '25')?.value).toBe(recLocationOf(loc.location));
    expect(res.body.dadosQR.pixCopiaECola.startsWith(cob.body.pixCopiaECola.slice(0, -8))).toBe(true);

    expect((await apiPix(h, 'PUT', '/cobv/jornada4cobv000000000000000001', { body: cobvBody })).status).toBe(201);
    const cobvForJ3 = await documented(h, '/rec/{idRec}', 'GET', `/rec/${idRec}?txid=jornada4cobv000000000000000001`);
    expect(cobvForJ3.status).toBe(400);
    expect(cobvForJ3.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida', violacoes: [{ propriedade: 'txid' }] });

    const other = await createRec(h, recBody({ loc: (await apiPix(h, 'POST', '/locrec')).body.id }));
    const j4 = await documented(h, '/rec/{idRec}', 'GET', `/rec/${other}?txid=jornada4cobv000000000000000001`);
    expect(j4.body.dadosQR.jornada).toBe('JORNADA_4');
    expect(parseBrCode(j4.body.dadosQR.pixCopiaECola).merchantAccount['25']).toContain('/cobv/');
  });

  test.each([
    ['a txid of no charge', 'naoexiste000000000000000000'],
    ["a cob other than the recurrence's dadosJornada.txid", 'outracob00000000000000000001'],
  ])('%s is 400 RecConsultaInvalida naming txid', async (_what, txid) => {
    await putCob(h, 'jornada3cob0000000000000000001');
    await putCob(h, 'outracob00000000000000000001');
    const idRec = await createRec(h, recBody({ ativacao: { dadosJornada: { txid: 'jornada3cob0000000000000000001' } } }));
    const res = await documented(h, '/rec/{idRec}', 'GET', `/rec/${idRec}?txid=${txid}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida', violacoes: [{ propriedade: 'txid' }] });
  });
});
