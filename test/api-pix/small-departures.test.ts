// On a real port, what PSPs' SDKs send and what a payer's PSP checks: one trailing slash routes as the path without
// it on every face (a Sandbox-Warning on v1 and v2 only); GET /loc/{id}/qrcode answers the QR as PSPs document it;
// 401 and 405 carry their documented types; a payload JWS names its key set (jku) and certificate (x5t#S256); a
// recurrence shows ativacao AGUARDANDO_DEFINICAO until activated; ajusteDiaUtil skips a national holiday.
import { createHash, X509Certificate } from 'node:crypto';
import { compactVerify, createRemoteJWKSet, decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { apiPix, cobBody, putCob, TXID } from '../helpers/api-pix';
import { approvedRec, cobrBody, createRec, recBody } from '../helpers/api-pix-rec';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({}, 'port');
});
afterEach(() => h.sb.close());

const RANGE = 'inicio=2026-01-01T00:00:00Z&fim=2027-01-01T00:00:00Z';
const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/';

describe('one trailing slash', () => {
  test.each([
    ['API Pix cobv list', (h: Harness) => apiPix(h, 'GET', `/cobv/?${RANGE}`), 'cobs', false],
    ['API Pix pix list', (h: Harness) => apiPix(h, 'GET', `/pix/?${RANGE}`), 'pix', false],
    ['API Pix cob by txid', (h: Harness) => apiPix(h, 'GET', `/cob/${TXID}/`), 'txid', false],
    ['v2 account', (h: Harness) => h.v2('GET', '/account/'), 'balance', true],
    ['v1 account', (h: Harness) => h.api('GET', '/v1/account/', { headers: { 'x-api-key': DEFAULT.full.clientId } }), undefined, true],
    ['control health', (h: Harness) => h.api('GET', '/_sandbox/health/'), undefined, false],
  ] as const)('%s answers as without it', async (_name, call, field, warned) => {
    await putCob(h);
    await apiPix(h, 'PUT', `/cobv/${TXID}v`, { body: { ...cobBody(), calendario: { dataDeVencimento: '2026-04-01' }, devedor: { cpf: '12345678909', nome: 'Fulano' } } });
    const res = await call(h);
    if (res.status === 401) expect(field, 'v1 needs its key; routed all the same').toBeUndefined();
    else expect(res.status, res.text).toBe(200);
    if (field) expect(res.body).toHaveProperty(field);
    const warning = res.headers.get('sandbox-warning') ?? '';
    if (warned) expect(warning).toMatch(/trailing slash/);
    else expect(warning).not.toMatch(/trailing slash/);
  });
});

test('GET /loc/{id}/qrcode answers the BR Code, its PNG and the checkout page; a location without a charge is a 400', async () => {
  const cob = (await putCob(h)).body;
  const res = await apiPix(h, 'GET', `/loc/${cob.loc.id}/qrcode/`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.qrcode).toBe(cob.pixCopiaECola);
  expect(res.body.imagemQrcode).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  const page = await fetch(res.body.linkVisualizacao, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<html');
  const free = await apiPix(h, 'POST', '/loc', { body: { tipoCob: 'cob' } });
  const none = await apiPix(h, 'GET', `/loc/${free.body.id}/qrcode`);
  expect(none.status).toBe(400);
  expect(none.body).toMatchObject({ type: `${PROBLEM}PayloadLocationConsultaInvalida`, violacoes: [{ propriedade: 'id' }] });
});

test.each([
  ['no token', () => h.api('GET', `/api-pix/v2/cob?${RANGE}`), 401, 'NaoAutenticado'],
  ['a bad token', () => h.api('GET', `/api-pix/v2/cob?${RANGE}`, { token: 'x.y.z' }), 401, 'NaoAutenticado'],
  ['a method the path does not take', () => apiPix(h, 'DELETE', `/cob/${TXID}`), 405, 'MetodoNaoPermitido'],
])('%s: its status and problem type', async (_name, call, status, type) => {
  const res = await call();
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({ type: `${PROBLEM}${type}`, status });
});

test("a location's JWS names its key set (jku) and certificate (x5t#S256); the key fetched through jku verifies it", async () => {
  const cob = (await putCob(h)).body;
  const path = `/${cob.location.split('/').slice(1).join('/')}`;
  const jws = (await h.api('GET', path)).text;
  const header = decodeProtectedHeader(jws);
  expect(header.jku).toBe(`${h.url}/.well-known/jwks.json`);
  const { payload } = await compactVerify(jws, createRemoteJWKSet(new URL(header.jku!)));
  expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ txid: TXID });
  const key = ((await (await fetch(header.jku!)).json()) as { keys: any[] }).keys.find((k: { kid: string }) => k.kid === header.kid);
  const der = Buffer.from(key.x5c[0], 'base64');
  expect(header['x5t#S256']).toBe(createHash('sha256').update(der).digest('base64url'));
  expect(key['x5t#S256']).toBe(header['x5t#S256']);
  const certKey = new X509Certificate(der).publicKey.export({ format: 'jwk' });
  expect({ x: certKey.x, y: certKey.y }).toEqual({ x: key.x, y: key.y });
});

test('ativacao.tipoJornada is AGUARDANDO_DEFINICAO until the recurrence is activated, then its journey', async () => {
  const idRec = await createRec(h);
  expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.ativacao).toEqual({ tipoJornada: 'AGUARDANDO_DEFINICAO' });
  const approved = await approvedRec(h);
  expect((await apiPix(h, 'GET', `/rec/${approved}`)).body.ativacao).toEqual({ tipoJornada: 'JORNADA_1' });
});

test('a cobr due on Tiradentes (Tuesday 2026-04-21) with ajusteDiaUtil is debited on Wednesday the 22nd at 06:00 BRT', async () => {
  const idRec = await approvedRec(h, recBody({ calendario: { dataInicial: '2026-04-21', periodicidade: 'MENSAL' } }));
  await h.advance(32 * 86_400); // 2026-04-11 12:00Z: 10 days before
  const made = await apiPix(h, 'POST', '/cobr', { body: cobrBody(idRec, '2026-04-21') });
  expect(made.status, made.text).toBe(201);
  const txid = made.body.txid;
  expect((await apiPix(h, 'GET', `/cobr/${txid}`)).body.tentativas[0].dataLiquidacao).toBe('2026-04-22');
  await h.advance(9 * 86_400 + 21 * 3600); // 2026-04-21 09:00Z, 06:00 BRT on the holiday
  expect((await apiPix(h, 'GET', `/cobr/${txid}`)).body.status).toBe('ATIVA');
  await h.advance(86_400); // the 22nd, 06:00 BRT
  expect((await apiPix(h, 'GET', `/cobr/${txid}`)).body.status).toBe('CONCLUIDA');
});
