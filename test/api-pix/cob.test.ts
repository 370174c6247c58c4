// The standard face's token and cob (sandbox.md 9): a cob is a charge of the core, paid through the same ledger.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';
import { apiPix, basic, cobBody, KEYS, payCob, pixToken, putCob, tokenResponse, TXID } from '../helpers/api-pix';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.sb.close());

describe('token', () => {
  test('client credentials over HTTP Basic answer a Bearer token with every scope the credential may have', async () => {
    const res = await tokenResponse(h, 'grant_type=client_credentials');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(res.body.scope.split(' ')).toContain('cob.write');
    expect(res.body.scope.split(' ')).toContain('webhook.write');
  });

  test('a narrower scope is granted as asked, and an operation outside it is 403 AcessoNegado', async () => {
    const token = await pixToken(h, 'cob.read');
    const res = await apiPix(h, 'PUT', `/cob/${TXID}`, { body: cobBody(), token });
    expect(res.status, res.text).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado', status: 403 });
    expect(res.body.detail).toContain('cob.write');
  });

  test.each([
    ['no credentials', 'grant_type=client_credentials', '', 401, 'invalid_client'],
    ['a wrong secret', 'grant_type=client_credentials', basic(DEFAULT.full.clientId, 'nope'), 401, 'invalid_client'],
    ['another grant', 'grant_type=password', undefined, 400, 'unsupported_grant_type'],
    ['no grant_type', 'scope=cob.read', undefined, 400, 'invalid_request'],
    ['an unknown scope', 'grant_type=client_credentials&scope=nada.read', undefined, 400, 'invalid_scope'],
  ])('%s is refused with the OAuth2 error', async (_name, form, auth, status, error) => {
    const res = await tokenResponse(h, form, auth);
    expect(res.status, res.text).toBe(status);
    expect(res.body.error).toBe(error);
  });

  test('a credential limited to PIX:WRITE cannot have webhook.write', async () => {
    const res = await tokenResponse(h, 'grant_type=client_credentials&scope=webhook.write', basic(DEFAULT.pixOnly.clientId, DEFAULT.pixOnly.clientSecret));
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe('invalid_scope');
  });

  test('a token of POST /v2/auth gets the scopes its credential gives; an API Pix token on /v2 only the permissions its scope covers', async () => {
    const read = await apiPix(h, 'GET', `/cob/${TXID}`, { token: await h.token() });
    expect(read.status, read.text).toBe(404); // let in (FULL_ACCESS gives cob.read); there is no such cob yet
    const webhook = await apiPix(h, 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://example.com/pix' }, token: await h.token(DEFAULT.pixOnly.clientId, DEFAULT.pixOnly.clientSecret) });
    expect(webhook.status, webhook.text).toBe(403); // PIX:WRITE gives no webhook.write
    expect(webhook.body.detail).toContain('webhook.write');
    const created = await h.api('POST', '/v2/pix', { body: { amount: 1000, description: 'x', customer: { name: 'A', document: '12345678909' } }, token: await pixToken(h) });
    expect(created.status, created.text).toBe(201);
    const account = await h.api('GET', '/v2/account', { token: await pixToken(h) });
    expect(account.status, account.text).toBe(403);
    expect(account.body.message).toContain('POST /v2/auth');
  });

  test('no token is a 401 problem that says where to get one', async () => {
    const res = await h.api('GET', `/api-pix/v2/cob/${TXID}`);
    expect(res.status, res.text).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect(res.body.detail).toContain('/api-pix/oauth/token');
  });
});

describe('cob', () => {
  test('PUT creates an ATIVA cob with its location and a BR Code pointing at it', async () => {
    const res = await putCob(h);
    expect(res.body).toMatchObject({ txid: TXID, revisao: 0, status: 'ATIVA', valor: { original: '123.45' }, chave: KEYS.evp, calendario: { expiracao: 3600, criacao: '2026-03-10T12:00:00.000Z' } });
    expect(res.body.location).toMatch(/^pix-sandbox\.test\/api-pix\/qr\/v2\/[a-z0-9]{24}$/);
    expect(res.body.loc).toMatchObject({ id: 1, tipoCob: 'cob', location: res.body.location });
    expect(res.body.pixCopiaECola).toContain(res.body.location);
    expect(res.body.pixCopiaECola).toContain('5406123.45');
  });

  test('POST makes the txid; GET answers the same cob', async () => {
    const made = await apiPix(h, 'POST', '/cob', { body: cobBody() });
    expect(made.status, made.text).toBe(201);
    expect(made.body.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    const got = await apiPix(h, 'GET', `/cob/${made.body.txid}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(made.body);
  });

  test('a txid already used is CobOperacaoInvalida naming cob.txid, and no second charge is made', async () => {
    await putCob(h);
    const before = Object.keys(h.sb.deps.store.state.accounts[DEFAULT.accountId]!.transactions).length;
    const res = await apiPix(h, 'PUT', `/cob/${TXID}`, { body: cobBody() });
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    expect(res.body.violacoes[0].propriedade).toBe('cob.txid');
    expect(Object.keys(h.sb.deps.store.state.accounts[DEFAULT.accountId]!.transactions).length).toBe(before);
  });

  test.each([
    ['a txid too short', 'abc', cobBody(), 'cob.txid'],
    ['a value without 2 decimals', TXID, cobBody({ valor: { original: '10' } }), 'cob.valor.original'],
    ['a zero value', TXID, cobBody({ valor: { original: '0.00' } }), 'cob.valor.original'],
    ['a key of no one', TXID, cobBody({ chave: 'fulano@example.com' }), 'cob.chave'],
    ['an expiry of zero', TXID, cobBody({ calendario: { expiracao: 0 } }), 'cob.calendario.expiracao'],
    ['a CPF of 12 digits', TXID, cobBody({ devedor: { cpf: '123456789001', nome: 'X' } }), 'cob.devedor.cpf'],
    ['both cpf and cnpj', TXID, cobBody({ devedor: { cpf: '12345678909', cnpj: '11222333000181', nome: 'X' } }), 'cob.devedor.cpf'],
    ['a missing chave', TXID, { valor: { original: '1.00' } }, 'cob.chave'],
    ['a location that does not exist', TXID, cobBody({ loc: { id: 99 } }), 'cob.loc.id'],
    ['Pix Saque', TXID, cobBody({ valor: { original: '0.00', retirada: { saque: {} } } }), 'cob.valor.retirada'],
  ])('%s is a 400 problem whose violacoes name %s', async (_name, txid, body, property) => {
    const res = await apiPix(h, 'PUT', `/cob/${txid}`, { body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    expect(res.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain(property);
    expect(Object.keys(h.sb.deps.store.state.accounts[DEFAULT.accountId]!.cobs)).toEqual([]);
  });

  test('a body that is not JSON is a 400 problem, never a 5xx', async () => {
    const res = await apiPix(h, 'PUT', `/cob/${TXID}`, { raw: '{"valor":', contentType: 'application/json' });
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida');
  });

  test('PATCH revises an ATIVA cob (revisao + 1) and its BR Code follows the new value', async () => {
    await putCob(h);
    const res = await apiPix(h, 'PATCH', `/cob/${TXID}`, { body: { valor: { original: '50.00' }, solicitacaoPagador: 'Novo' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ revisao: 1, valor: { original: '50.00' }, solicitacaoPagador: 'Novo', status: 'ATIVA' });
    expect(res.body.pixCopiaECola).toContain('540550.00');
  });

  test('PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR removes it; with other changes it is refused', async () => {
    await putCob(h);
    const mixed = await apiPix(h, 'PATCH', `/cob/${TXID}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '1.00' } } });
    expect(mixed.status, mixed.text).toBe(400);
    const res = await apiPix(h, 'PATCH', `/cob/${TXID}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
  });

  test('paid, a cob is CONCLUIDA with its pix entry, and the money lands in the wallet through the ledger', async () => {
    const created = await putCob(h);
    const before = (await h.v2('GET', '/account')).body;
    await payCob(h, TXID, { infoPagador: 'Pedido 1234' });
    const got = await apiPix(h, 'GET', `/cob/${TXID}`);
    expect(got.body.status).toBe('CONCLUIDA');
    expect(got.body.pix).toHaveLength(1);
    expect(got.body.pix[0]).toMatchObject({ txid: TXID, valor: '123.45', chave: KEYS.evp, horario: '2026-03-10T12:00:00.000Z', infoPagador: 'Pedido 1234' });
    expect(got.body.pix[0].endToEndId).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    const after = (await h.v2('GET', '/account')).body;
    const fee = h.sb.deps.store.state.accounts[DEFAULT.accountId]!.transactions[created.headers.get('x-sandbox-transaction-id')!]!.charge!.feeAmount!;
    expect(fee).toBeGreaterThan(0);
    expect(after.balance.available.amount).toBe(before.balance.available.amount + 12345 - fee);
    const tx = await h.v2('GET', `/transactions/${created.headers.get('x-sandbox-transaction-id')}`);
    expect(tx.body.status).toBe('completed');
    expectLedgerBalanced(h.sb);
  });

  test('PATCH on a CONCLUIDA cob is refused as the document says, changing nothing', async () => {
    await putCob(h);
    await payCob(h);
    const res = await apiPix(h, 'PATCH', `/cob/${TXID}`, { body: { valor: { original: '1.00' } } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    expect(res.body.detail).toContain('CONCLUIDA');
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.revisao).toBe(0);
  });

  test('expired on the sandbox clock, a cob is REMOVIDA_PELO_PSP', async () => {
    await putCob(h);
    await h.advance(3601);
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.status).toBe('REMOVIDA_PELO_PSP');
  });

  test('a cob moved to a later expiry by PATCH is not expired by its first deadline', async () => {
    await putCob(h);
    await apiPix(h, 'PATCH', `/cob/${TXID}`, { body: { calendario: { expiracao: 7200 } } });
    await h.advance(3601);
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.status).toBe('ATIVA');
    await h.advance(3600);
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.status).toBe('REMOVIDA_PELO_PSP');
  });

  test('the control actions and /pay act on it: its BR Code decodes as payable and pays through the charge id', async () => {
    const created = await putCob(h);
    const decoded = await h.control('POST', '/brcodes/decode', { code: created.body.pixCopiaECola });
    expect(decoded.body.verdict, decoded.text).toBe('payable');
    expect(decoded.body.chargeId).toBe(created.headers.get('x-sandbox-transaction-id'));
    const paid = await h.control('POST', `/transactions/${decoded.body.chargeId}/pay`, {});
    expect(paid.status, paid.text).toBe(200);
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.status).toBe('CONCLUIDA');
  });

  test('GET /cob lists by period, status and debtor, with parametros.paginacao', async () => {
    await putCob(h);
    await putCob(h, 'outrotxid00000000000000000002', cobBody({ devedor: { cnpj: '11222333000181', nome: 'Empresa' } }));
    await payCob(h);
    const q = (extra: string) => apiPix(h, 'GET', `/cob?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z${extra}`);
    const all = await q('');
    expect(all.status, all.text).toBe(200);
    expect(all.body.parametros.paginacao).toEqual({ paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 2 });
    expect((await q('&status=CONCLUIDA')).body.cobs.map((c: { txid: string }) => c.txid)).toEqual([TXID]);
    expect((await q('&cnpj=11222333000181')).body.cobs).toHaveLength(1);
    const page = await q('&paginacao.itensPorPagina=1&paginacao.paginaAtual=1');
    expect(page.body.cobs).toHaveLength(1);
    expect(page.body.parametros.paginacao.quantidadeDePaginas).toBe(2);
    const bad = await q('&cpf=12345678909&cnpj=11222333000181');
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida');
    const missing = await apiPix(h, 'GET', '/cob');
    expect(missing.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toEqual(['inicio', 'fim']);
  });

  test('an unknown txid is CobNaoEncontrado; an unknown route of the face is NaoEncontrado', async () => {
    const res = await apiPix(h, 'GET', `/cob/${TXID}`);
    expect(res.status).toBe(404);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado');
    const lote = await apiPix(h, 'GET', '/naoexiste');
    expect(lote.status).toBe(404);
    expect(lote.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/NaoEncontrado');
  });
});
