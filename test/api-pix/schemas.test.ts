// Every answer of the standard face, 2xx and error alike, validates against the document the sandbox serves
// (/openapi-api-pix.json: the Central Bank's, its errata corrected in scripts/api-pix-errata.mjs), read as an
// integrator's ajv reads it: ajv-formats and OpenAPI's int32/int64, nothing corrected here.
import type Ajv from 'ajv';
import { compactVerify, createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { ajvOf, apiPix, cobBody, expectAnswerValid, KEYS, payCob, pixToken, TXID } from '../helpers/api-pix';
import { cobrBody, recBody, solicBody } from '../helpers/api-pix-rec';

let doc: any;
let ajv: Ajv;

const checked: string[] = [];
function expectValid(template: string, method: string, res: ApiResponse) {
  checked.push(`${method} ${template} ${res.status}`);
  expectAnswerValid(doc, ajv, template, method, res);
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  doc = (await h.api('GET', '/openapi-api-pix.json')).body;
  ajv = ajvOf(doc);
});
afterAll(() => h.sb.close());

async function call(template: string, method: string, path: string, opts: Parameters<typeof apiPix>[3] = {}) {
  const res = await apiPix(h, method, path, opts);
  expectValid(template, method, res);
  return res;
}

const period = 'inicio=2026-03-01T00:00:00Z&fim=2026-04-01T00:00:00Z';
const cobvBody = {
  calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 5 },
  devedor: { cnpj: '11222333000181', nome: 'Empresa', logradouro: 'Rua 1', cidade: 'Sao Paulo', uf: 'SP', cep: '01000000' },
  valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '1.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-11', valorPerc: '5.00' }] } },
  chave: KEYS.cnpj,
  solicitacaoPagador: 'Boleto de março',
  infoAdicionais: [{ nome: 'Pedido', valor: '1234' }],
};
const COBV = 'cobvtxid000000000000000000001';
const COBR = 'cobrtxid000000000000000000001';

describe('the answers of every operation validate against the document', () => {
  test('cob: PUT, POST, PATCH, GET and the list, active, paid and removed', async () => {
    await call('/cob/{txid}', 'PUT', `/cob/${TXID}`, { body: cobBody({ infoAdicionais: [{ nome: 'Campo 1', valor: 'x' }] }) });
    const made = await call('/cob', 'POST', '/cob', { body: cobBody({ devedor: { cnpj: '11222333000181', nome: 'Empresa' } }) });
    await call('/cob/{txid}', 'PATCH', `/cob/${made.body.txid}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    await call('/cob/{txid}', 'PATCH', `/cob/${TXID}`, { body: { valor: { original: '10.00', modalidadeAlteracao: 1 } } });
    await payCob(h, TXID, { infoPagador: 'Obrigado' });
    await call('/cob/{txid}', 'GET', `/cob/${TXID}`);
    await call('/cob', 'GET', `/cob?${period}`);
    await call('/cob', 'GET', `/cob?${period}&status=CONCLUIDA&cpf=12345678909&paginacao.itensPorPagina=1`);
  });

  test('cobv: PUT, PATCH, GET and the list', async () => {
    await call('/cobv/{txid}', 'PUT', `/cobv/${COBV}`, { body: cobvBody });
    await call('/cobv/{txid}', 'PATCH', `/cobv/${COBV}`, { body: { valor: { abatimento: { modalidade: 1, valorPerc: '1.00' } } } });
    await call('/cobv/{txid}', 'GET', `/cobv/${COBV}`);
    await call('/cobv', 'GET', `/cobv?${period}`);
  });

  test('loc: POST, GET, the list and DELETE txid', async () => {
    const loc = await call('/loc', 'POST', '/loc', { body: { tipoCob: 'cob' } });
    await call('/loc/{id}', 'GET', `/loc/${loc.body.id}`);
    await call('/loc', 'GET', `/loc?${period}`);
    await call('/loc/{id}/txid', 'DELETE', `/loc/${loc.body.id}/txid`);
  });

  test('pix and devolução: GET, the list, PUT and GET devolução', async () => {
    const pix = (await apiPix(h, 'GET', `/cob/${TXID}`)).body.pix[0];
    await call('/pix/{e2eid}/devolucao/{id}', 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor: '10.00', natureza: 'ORIGINAL', descricao: 'Devolução' } });
    await call('/pix/{e2eid}', 'GET', `/pix/${pix.endToEndId}`);
    await h.advance(5);
    await call('/pix/{e2eid}/devolucao/{id}', 'GET', `/pix/${pix.endToEndId}/devolucao/D1`);
    await call('/pix', 'GET', `/pix?${period}&devolucaoPresente=true`);
  });

  test('webhook: PUT, GET, the list and DELETE', async () => {
    await call('/webhook/{chave}', 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://loja.example/hooks' } });
    await call('/webhook/{chave}', 'GET', `/webhook/${KEYS.evp}`);
    await call('/webhook', 'GET', '/webhook');
    await call('/webhook/{chave}', 'DELETE', `/webhook/${KEYS.evp}`);
  });

  test('lotecobv: PUT, PATCH, GET and the list, with a charge CRIADA and one NEGADA', async () => {
    const item = (txid: string, chave: string) => ({ ...cobvBody, txid, chave });
    await call('/lotecobv/{id}', 'PUT', '/lotecobv/1', { body: { descricao: 'Lote', cobsv: [item('lotecobvschema000000000000001', KEYS.cnpj), item('lotecobvschema000000000000002', 'fulano@example.com')] } });
    await call('/lotecobv/{id}', 'GET', '/lotecobv/1');
    await h.advance(1);
    await call('/lotecobv/{id}', 'PATCH', '/lotecobv/1', { body: { cobsv: [{ txid: 'lotecobvschema000000000000001', valor: { original: '99.00' } }] } });
    await h.advance(1);
    const done = await call('/lotecobv/{id}', 'GET', '/lotecobv/1');
    expect(done.body.cobsv.map((e: { status: string }) => e.status)).toEqual(['CRIADA', 'NEGADA']);
    await call('/lotecobv', 'GET', `/lotecobv?${period}`);
  });

  test('the payload locations answer a JWS whose payload is a CobPayload or CobVPayload, at the location and under {api_pix}', async () => {
    const jwks = createLocalJWKSet((await h.api('GET', '/.well-known/jwks.json')).body);
    const cob = await call('/cob/{txid}', 'PUT', '/cob/jwscob00000000000000000000001', { body: cobBody() });
    const cobv = (await apiPix(h, 'GET', `/cobv/${COBV}`)).body;
    for (const [location, template, name] of [[cob.body.location, '/qr/{pixUrlAccessToken}', 'CobPayload'], [cobv.location, '/qr/cobv/{pixUrlAccessToken}', 'CobVPayload']] as const) {
      expect(doc.paths[template].get.responses['200'].content['application/jose'].schema.$ref).toBe(`#/components/schemas/${name}`);
      const token = location.split('/').pop()!;
      const atLocation = await h.api('GET', `/${location.split('/').slice(1).join('/')}`);
      const underApi = await h.api('GET', `/api-pix/v2${template.replace('{pixUrlAccessToken}', token)}`);
      expectValid(template, 'GET', underApi);
      for (const res of [atLocation, underApi]) {
        expect(res.status, res.text).toBe(200);
        const payload = JSON.parse(new TextDecoder().decode((await compactVerify(res.text, jwks)).payload));
        const validate = ajv.getSchema(`pix#/components/schemas/${name}`)!;
        expect(validate(payload), `${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(payload)}`).toBe(true);
      }
    }
    const missing = await h.api('GET', '/api-pix/v2/qr/naoexiste');
    expectValid('/qr/{pixUrlAccessToken}', 'GET', missing);
    expect(missing.status).toBe(404);
    const bad = await h.api('GET', `/api-pix/v2/qr/cobv/${cobv.location.split('/').pop()}?DPP=2020-01-01`);
    expectValid('/qr/cobv/{pixUrlAccessToken}', 'GET', bad);
    expect(bad.status).toBe(400);
  });

  test.each([
    ['/cob/{txid}', 'PUT', `/cob/${TXID}`, { body: cobBody() }, 400],
    ['/cob/{txid}', 'PUT', '/cob/short', { body: cobBody() }, 400],
    ['/cob/{txid}', 'PATCH', `/cob/${TXID}`, { body: { valor: { original: '1.00' } } }, 400],
    ['/cob/{txid}', 'PATCH', '/cob/naoexiste000000000000000000', { body: {} }, 404],
    ['/cob/{txid}', 'GET', '/cob/naoexiste000000000000000000', {}, 404],
    ['/cob', 'POST', '/cob', { raw: 'not json', contentType: 'application/json' }, 400],
    ['/cob', 'GET', '/cob?inicio=ontem', {}, 400],
    ['/cobv/{txid}', 'PUT', '/cobv/novocobv000000000000000000001', { body: { ...cobvBody, devedor: undefined } }, 400],
    ['/cobv/{txid}', 'GET', '/cobv/naoexiste000000000000000000', {}, 404],
    ['/cobv', 'GET', '/cobv', {}, 400],
    ['/loc', 'POST', '/loc', { body: {} }, 400],
    ['/loc/{id}', 'GET', '/loc/999', {}, 404],
    ['/loc/{id}/txid', 'DELETE', '/loc/abc/txid', {}, 404],
    ['/loc', 'GET', '/loc?inicio=2026-03-02T00:00:00Z&fim=2026-03-01T00:00:00Z', {}, 400],
    ['/pix/{e2eid}', 'GET', '/pix/E99999004202603101200aaaaaaaaaaa', {}, 404],
    ['/pix', 'GET', '/pix?paginacao.paginaAtual=-1', {}, 400],
    ['/pix/{e2eid}/devolucao/{id}', 'PUT', '/pix/E99999004202603101200aaaaaaaaaaa/devolucao/D1', { body: { valor: '1.00' } }, 404],
    ['/pix/{e2eid}/devolucao/{id}', 'GET', '/pix/E99999004202603101200aaaaaaaaaaa/devolucao/D1', {}, 404],
    ['/webhook/{chave}', 'PUT', '/webhook/fulano@example.com', { body: { webhookUrl: 'https://x.example' } }, 400],
    ['/webhook/{chave}', 'GET', `/webhook/${KEYS.evp}`, {}, 404],
    ['/webhook/{chave}', 'DELETE', `/webhook/${KEYS.evp}`, {}, 404],
    ['/lotecobv/{id}', 'PUT', '/lotecobv/2', { body: { descricao: 'x', cobsv: [] } }, 400],
    ['/lotecobv/{id}', 'PATCH', '/lotecobv/999', { body: {} }, 404],
    ['/lotecobv/{id}', 'GET', '/lotecobv/999', {}, 404],
    ['/lotecobv', 'GET', '/lotecobv', {}, 400],
    ['/rec', 'POST', '/rec', { body: recBody({ valor: { valorRec: '1,00' } }) }, 400],
    ['/rec/{idRec}', 'GET', '/rec/RR1234567820260310abcdefghijk', {}, 404],
    ['/rec/{idRec}', 'PATCH', '/rec/RR1234567820260310abcdefghijk', { body: { status: 'CANCELADA' } }, 404],
    ['/rec', 'GET', '/rec?inicio=2026-04-01T00:00:00Z&fim=2026-03-01T00:00:00Z', {}, 400],
    ['/locrec/{id}', 'GET', '/locrec/77', {}, 404],
    ['/locrec/{id}/idRec', 'DELETE', '/locrec/77/idRec', {}, 404],
    ['/locrec', 'GET', '/locrec', {}, 400],
    ['/solicrec', 'POST', '/solicrec', { body: solicBody('RR1234567820260310abcdefghijk') }, 400],
    ['/solicrec/{idSolicRec}', 'GET', '/solicrec/SC1234567820260310abcdefghijk', {}, 404],
    ['/solicrec/{idSolicRec}', 'PATCH', '/solicrec/SC1234567820260310abcdefghijk', { body: { status: 'CANCELADA' } }, 404],
    ['/cobr/{txid}', 'PUT', '/cobr/naoexiste000000000000000000', { body: cobrBody('RR1234567820260310abcdefghijk', '2026-04-01') }, 400],
    ['/cobr/{txid}', 'GET', '/cobr/naoexiste000000000000000000', {}, 404],
    ['/cobr/{txid}', 'PATCH', '/cobr/naoexiste000000000000000000', { body: { status: 'CANCELADA' } }, 404],
    ['/cobr', 'POST', '/cobr', { body: {} }, 400],
    ['/cobr', 'GET', '/cobr', {}, 400],
    ['/cobr/{txid}/retentativa/{data}', 'POST', '/cobr/naoexiste000000000000000000/retentativa/2026-04-02', {}, 404],
    ['/webhookrec', 'GET', '/webhookrec', {}, 404],
    ['/webhookrec', 'DELETE', '/webhookrec', {}, 404],
    ['/webhookcobr', 'PUT', '/webhookcobr', { body: { webhookUrl: 'nada' } }, 400],
    ['/webhookcobr', 'GET', '/webhookcobr', {}, 404],
  ])('%s %s (%s) answers a Problema', async (template, method, path, opts, status) => {
    const res = await call(template, method, path, opts as never);
    expect(res.status, res.text).toBe(status);
  });

  test('Pix Automático: webhookrec, webhookcobr, locrec, rec, its payload location, solicrec, cobr and a retry', async () => {
    for (const which of ['/webhookrec', '/webhookcobr']) {
      await call(which, 'PUT', which, { body: { webhookUrl: 'https://loja.example/automatico' } });
      await call(which, 'GET', which);
      await call(which, 'DELETE', which);
    }
    const loc = await call('/locrec', 'POST', '/locrec');
    const idRec = (await call('/rec', 'POST', '/rec', { body: recBody({ loc: loc.body.id }) })).body.idRec;
    await call('/rec/{idRec}', 'PATCH', `/rec/${idRec}`, { body: { vinculo: { devedor: { nome: 'Fulano Tal' } } } });
    await call('/locrec/{id}', 'GET', `/locrec/${loc.body.id}`);
    await call('/locrec', 'GET', `/locrec?${period}`);
    const payload = await h.api('GET', `/api-pix/v2/qr/rec/${loc.body.location.split('/').pop()}`);
    expectValid('/qr/rec/{recUrlAccessToken}', 'GET', payload);
    expect(payload.status, payload.text).toBe(200);
    const solic = await call('/solicrec', 'POST', '/solicrec', { body: solicBody(idRec) });
    await call('/solicrec/{idSolicRec}', 'GET', `/solicrec/${solic.body.idSolicRec}`);
    expect((await h.control('POST', `/api-pix/solicrec/${solic.body.idSolicRec}/accept`)).status).toBe(200);
    await call('/rec/{idRec}', 'GET', `/rec/${idRec}`);
    await call('/rec', 'GET', `/rec?${period}&status=APROVADA`);
    await call('/locrec/{id}/idRec', 'DELETE', `/locrec/${loc.body.id}/idRec`);

    const other = (await apiPix(h, 'POST', '/rec', { body: recBody() })).body.idRec;
    const pending = await apiPix(h, 'POST', '/solicrec', { body: solicBody(other) });
    await call('/solicrec/{idSolicRec}', 'PATCH', `/solicrec/${pending.body.idSolicRec}`, { body: { status: 'CANCELADA' } });
    await call('/rec/{idRec}', 'PATCH', `/rec/${other}`, { body: { status: 'CANCELADA' } });

    await h.advance(12 * 86_400); // 2026-03-22: the charges due 2026-04-01 are in their window
    await call('/cobr/{txid}', 'PUT', `/cobr/${COBR}`, { body: cobrBody(idRec, '2026-04-01') });
    await call('/cobr/{txid}', 'GET', `/cobr/${COBR}`);
    expect((await h.control('POST', `/api-pix/cobr/${COBR}/fail`)).status).toBe(200);
    await call('/cobr/{txid}/retentativa/{data}', 'POST', `/cobr/${COBR}/retentativa/2026-04-02`);
    const posted = await call('/cobr', 'POST', '/cobr', { body: cobrBody(idRec, '2026-04-30') });
    expect(posted.status, posted.text).toBe(400); // one charge per cycle: April has its own
    await h.advance(10 * 86_400); // 2026-04-01: debited on the retry's day, 2026-04-02
    await call('/cobr/{txid}', 'GET', `/cobr/${COBR}`);
    await call('/cobr', 'GET', `/cobr?inicio=2026-03-01T00:00:00Z&fim=2026-05-01T00:00:00Z&idRec=${idRec}`);
    await h.advance(20 * 86_400); // 2026-04-21: May's charge, due 2026-05-01, is in its window
    const may = await call('/cobr', 'POST', '/cobr', { body: cobrBody(idRec, '2026-05-01') });
    await call('/cobr/{txid}', 'PATCH', `/cobr/${may.body.txid}`, { body: { status: 'CANCELADA' } });
  });

  test('401 and 403 are Problema bodies too', async () => {
    const none = await h.api('GET', `/api-pix/v2/cob/${TXID}`);
    expectValid('/cob/{txid}', 'GET', none);
    expect(none.status).toBe(401);
    const narrow = await apiPix(h, 'GET', `/cob/${TXID}`, { token: await pixToken(h, 'pix.read') });
    expectValid('/cob/{txid}', 'GET', narrow);
    expect(narrow.status).toBe(403);
  });

  test('every operation of the served document was checked here', () => {
    // BACEN's operations; the sandbox's extensions (x-sandbox-extension) are tested in small-departures.test.ts.
    const served = Object.entries(doc.paths as Record<string, Record<string, { 'x-sandbox-extension'?: boolean }>>).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'put', 'post', 'patch', 'delete'].includes(m) && !ops[m]!['x-sandbox-extension'])
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    const seen = new Set(checked.map((c) => c.split(' ').slice(0, 2).join(' ')));
    expect(served.filter((op) => !seen.has(op))).toEqual([]);
    expect(served).toHaveLength(51);
    // each with a 2xx answer too (the table above gives the Problema bodies)
    const statuses = (op: string) => checked.filter((c) => c.startsWith(`${op} `)).map((c) => Number(c.split(' ')[2]));
    expect(served.filter((op) => !statuses(op).some((s) => s < 300) && !op.startsWith('GET /qr/'))).toEqual([]);
  });
});
