// Payload locations, Pix received, devoluções and the webhook of a key (sandbox.md 9).
import { compactVerify, createLocalJWKSet } from 'jose';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';
import { apiPix, cobBody, KEYS, payCob, putCob, TXID } from '../helpers/api-pix';

let h: Harness;
let posted: Array<{ url: string; body: string; headers: Record<string, string> }>;
let status = 200;
beforeEach(async () => {
  posted = [];
  status = 200;
  const fetch = (async (url: string, init: RequestInit) => {
    posted.push({ url, body: String(init.body), headers: init.headers as Record<string, string> });
    return new Response('ok', { status });
  }) as unknown as typeof globalThis.fetch;
  h = await startHarness({ fetch });
});
afterEach(() => h.sb.close());

async function verifyJws(jws: string) {
  const jwks = createLocalJWKSet((await h.api('GET', '/.well-known/jwks.json')).body);
  const { payload } = await compactVerify(jws, jwks);
  return JSON.parse(new TextDecoder().decode(payload));
}

describe('payload locations', () => {
  test('the location a cob BR Code carries answers its signed payload (application/jose)', async () => {
    const cob = (await putCob(h)).body;
    const path = `/${cob.location.split('/').slice(1).join('/')}`;
    const res = await h.api('GET', path);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/jose');
    const payload = await verifyJws(res.text);
    expect(payload).toMatchObject({ txid: TXID, revisao: 0, status: 'ATIVA', valor: { original: '123.45' }, chave: KEYS.evp, calendario: { expiracao: 3600, apresentacao: '2026-03-10T12:00:00.000Z' } });
  });

  test('POST /loc makes a free location; a cob bound to it by loc.id; DELETE /loc/{id}/txid unbinds it', async () => {
    const loc = await apiPix(h, 'POST', '/loc', { body: { tipoCob: 'cob' } });
    expect(loc.status, loc.text).toBe(201);
    expect(loc.body).toMatchObject({ id: 1, tipoCob: 'cob' });
    expect(loc.body.txid).toBeUndefined();
    const cob = await putCob(h, TXID, cobBody({ loc: { id: 1 } }));
    expect(cob.body.location).toBe(loc.body.location);
    expect((await apiPix(h, 'GET', '/loc/1')).body.txid).toBe(TXID);
    const taken = await apiPix(h, 'PUT', '/cob/outrotxid00000000000000000002', { body: cobBody({ loc: { id: 1 } }) });
    expect(taken.status, taken.text).toBe(400);
    expect(taken.body.violacoes[0].propriedade).toBe('cob.loc.id');
    const unbound = await apiPix(h, 'DELETE', '/loc/1/txid');
    expect(unbound.status, unbound.text).toBe(200);
    expect(unbound.body.txid).toBeUndefined();
    const gone = await h.api('GET', `/${loc.body.location.split('/').slice(1).join('/')}`);
    expect(gone.status).toBe(404);
    expect(gone.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobPayloadNaoEncontrado');
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.location).toBeUndefined();
  });

  test('GET /loc lists by period, tipoCob and txIdPresente; an unknown location is PayloadLocationNaoEncontrado', async () => {
    await apiPix(h, 'POST', '/loc', { body: { tipoCob: 'cobv' } });
    await putCob(h);
    const list = await apiPix(h, 'GET', '/loc?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&txIdPresente=true');
    expect(list.status, list.text).toBe(200);
    expect(list.body.loc.map((l: { id: number }) => l.id)).toEqual([2]);
    const missing = await apiPix(h, 'GET', '/loc/42');
    expect(missing.status).toBe(404);
    expect(missing.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PayloadLocationNaoEncontrado');
    const bad = await apiPix(h, 'POST', '/loc', { body: { tipoCob: 'rec' } });
    expect(bad.status).toBe(400);
    expect(bad.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PayloadLocationOperacaoInvalida');
  });
});

describe('pix and devolução', () => {
  async function paidPix() {
    await putCob(h);
    await payCob(h);
    return (await apiPix(h, 'GET', `/cob/${TXID}`)).body.pix[0];
  }

  test('GET /pix/{e2eid} and GET /pix answer the Pix received', async () => {
    const pix = await paidPix();
    const one = await apiPix(h, 'GET', `/pix/${pix.endToEndId}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(pix);
    const list = await apiPix(h, 'GET', '/pix?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z');
    expect(list.body.pix).toEqual([pix]);
    const none = await apiPix(h, 'GET', `/pix?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&txid=${'x'.repeat(30)}`);
    expect(none.body.pix).toEqual([]);
    const missing = await apiPix(h, 'GET', '/pix/E99999004202603101200aaaaaaaaaaa');
    expect(missing.status).toBe(404);
    expect(missing.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PixNaoEncontrado');
  });

  test('PUT devolucao answers EM_PROCESSAMENTO, debits through the ledger, and ends DEVOLVIDO on the sandbox clock', async () => {
    const pix = await paidPix();
    const before = (await h.v2('GET', '/account')).body.balance.available.amount;
    const res = await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor: '123.45', descricao: 'Devolução do pedido' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: 'D1', valor: '123.45', status: 'EM_PROCESSAMENTO', natureza: 'ORIGINAL', descricao: 'Devolução do pedido', horario: { solicitacao: '2026-03-10T12:00:00.000Z' } });
    expect(res.body.rtrId).toMatch(/^D[a-zA-Z0-9]{31}$/);
    expect((await h.v2('GET', '/account')).body.balance.available.amount).toBe(before - 12345);
    await h.advance(5);
    const done = await apiPix(h, 'GET', `/pix/${pix.endToEndId}/devolucao/D1`);
    expect(done.body).toMatchObject({ status: 'DEVOLVIDO', horario: { liquidacao: '2026-03-10T12:00:02.000Z' } });
    expect((await apiPix(h, 'GET', `/pix/${pix.endToEndId}`)).body.devolucoes).toEqual([done.body]);
    expectLedgerBalanced(h.sb);
  });

  test('a devolução the PSP fails ends NAO_REALIZADO with its motivo, and the money comes back', async () => {
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
    const pix = await paidPix();
    const before = (await h.v2('GET', '/account')).body.balance.available.amount;
    const res = await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor: '123.45' } });
    const failed = await h.control('POST', `/transactions/${res.headers.get('x-sandbox-transaction-id')}/fail`, { reason: 'Conta encerrada' });
    expect(failed.status, failed.text).toBe(200);
    const got = await apiPix(h, 'GET', `/pix/${pix.endToEndId}/devolucao/D1`);
    expect(got.body).toMatchObject({ status: 'NAO_REALIZADO', motivo: 'Conta encerrada' });
    expect((await h.v2('GET', '/account')).body.balance.available.amount).toBe(before);
  });

  test.each([
    ['more than the Pix', '200.00', 'devolucao.valor'],
    ['no 2 decimals', '10', 'devolucao.valor'],
  ])('a devolução of %s is PixDevolucaoInvalida and changes nothing', async (_n, valor, property) => {
    const pix = await paidPix();
    const before = JSON.stringify(h.sb.deps.store.state);
    const res = await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida');
    expect(res.body.violacoes[0].propriedade).toBe(property);
    expect(JSON.stringify(h.sb.deps.store.state)).toBe(before);
  });

  test('a devolução once all is returned, an id already used, and a balance too small are refused under the service rules', async () => {
    const pix = await paidPix();
    expect((await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor: '123.45' } })).status).toBe(201);
    const again = await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor: '123.45' } });
    expect(again.status, again.text).toBe(400);
    expect(again.body.violacoes[0].propriedade).toBe('devolucao.id');
    const second = await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D2`, { body: { valor: '123.45' } });
    expect(second.status, second.text).toBe(400);
    expect(second.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida');
    expect(second.body.violacoes[0]).toMatchObject({ propriedade: 'devolucao.valor', razao: expect.stringContaining('what is left to return of this Pix: 0.00') });
  });

  test('a devolução larger than the balance is refused with what the wallet can spend', async () => {
    await putCob(h, TXID, cobBody({ valor: { original: '0.50' } }));
    await payCob(h);
    const pix = (await apiPix(h, 'GET', `/cob/${TXID}`)).body.pix[0];
    const available = (await h.v2('GET', '/account')).body.balance.available.amount as number;
    const drained = await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: -(available - 10) / 100 });
    expect(drained.status, drained.text).toBe(201);
    const res = await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor: '0.50' } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida');
  });
});

describe('webhook of a key', () => {
  test('PUT /webhook/{chave} keeps a URL; each Pix received is posted to {webhookUrl}/pix as {"pix":[...]}, unsigned', async () => {
    const put = await apiPix(h, 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://loja.example/hooks' } });
    expect(put.status, put.text).toBe(200);
    const got = await apiPix(h, 'GET', `/webhook/${KEYS.evp}`);
    expect(got.body).toMatchObject({ webhookUrl: 'https://loja.example/hooks', chave: KEYS.evp, cnpj: KEYS.cnpj, criacao: '2026-03-10T12:00:00.000Z' });
    await putCob(h);
    await payCob(h, TXID, { infoPagador: 'Obrigado' });
    await h.sb.settle();
    const notices = posted.filter((p) => p.url === 'https://loja.example/hooks/pix');
    expect(notices).toHaveLength(1);
    const body = JSON.parse(notices[0]!.body);
    expect(body.pix).toHaveLength(1);
    expect(body.pix[0]).toMatchObject({ txid: TXID, valor: '123.45', chave: KEYS.evp, infoPagador: 'Obrigado' });
    expect(Object.keys(notices[0]!.headers).some((k) => /signature/i.test(k))).toBe(false);
    // The service's default endpoint (no URL) and its events are untouched; the delivery is in the log like any.
    const log = await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries?event=pix`);
    expect(log.status, log.text).toBe(200);
    expect(log.body.items).toHaveLength(1);
    expect(log.body.items[0]).toMatchObject({ state: 'succeeded', event: 'pix', endpoint: { url: 'https://loja.example/hooks/pix' } });
  });

  test('a failed notice is retried on the sandbox clock and can be replayed', async () => {
    await apiPix(h, 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://loja.example/hooks' } });
    status = 500;
    await putCob(h);
    await payCob(h);
    await h.sb.settle();
    status = 200;
    await h.advance(5);
    await h.sb.settle();
    const log = (await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries?event=pix`)).body.items;
    expect(log[0].state).toBe('succeeded');
    expect(log[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    const replay = await h.control('POST', `/deliveries/${log[0].id}/replay`);
    expect(replay.status, replay.text).toBe(201);
  });

  test('a devolução that ends notifies the key webhook again, with its devolucoes', async () => {
    await apiPix(h, 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://loja.example/hooks' } });
    await putCob(h);
    await payCob(h);
    const pix = (await apiPix(h, 'GET', `/cob/${TXID}`)).body.pix[0];
    await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor: '123.45' } });
    await h.advance(5);
    await h.sb.settle();
    const bodies = posted.filter((p) => p.url.endsWith('/pix')).map((p) => JSON.parse(p.body));
    expect(bodies).toHaveLength(2);
    expect(bodies[1].pix[0].devolucoes[0]).toMatchObject({ id: 'D1', status: 'DEVOLVIDO' });
  });

  test('GET /webhook lists; DELETE removes; a key of no one is refused; an unknown one is 404', async () => {
    await apiPix(h, 'PUT', `/webhook/${KEYS.cnpj}`, { body: { webhookUrl: 'http://127.0.0.1:9/hook' } });
    const list = await apiPix(h, 'GET', '/webhook');
    expect(list.status, list.text).toBe(200);
    expect(list.body.webhooks.map((w: { chave: string }) => w.chave)).toEqual([KEYS.cnpj]);
    expect((await apiPix(h, 'DELETE', `/webhook/${KEYS.cnpj}`)).status).toBe(204);
    expect((await apiPix(h, 'GET', `/webhook/${KEYS.cnpj}`)).status).toBe(404);
    const foreign = await apiPix(h, 'PUT', '/webhook/fulano@example.com', { body: { webhookUrl: 'https://x.example/h' } });
    expect(foreign.status, foreign.text).toBe(400);
    expect(foreign.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida');
    const badUrl = await apiPix(h, 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'not a url' } });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.violacoes[0].propriedade).toBe('webhook.webhookUrl');
  });
});
