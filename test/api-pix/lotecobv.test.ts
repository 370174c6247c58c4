// lotecobv (sandbox.md 15): a batch creates or revises its cobv one by one on the sandbox clock, each request
// EM_PROCESSAMENTO and then CRIADA or NEGADA with the Problema PUT /cobv/{txid} would have answered; the charges are
// ordinary cobv. A refused batch request changes nothing. T0 is Tuesday 2026-03-10, 09:00 BRT.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { apiPix, basic, KEYS, pixToken, tokenResponse } from '../helpers/api-pix';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.sb.close());

const A = 'lotecobva00000000000000000001';
const B = 'lotecobvb00000000000000000001';
const C = 'lotecobvc00000000000000000001';
const cobv = (txid: string, over: Record<string, unknown> = {}) => ({
  txid,
  calendario: { dataDeVencimento: '2026-03-20', validadeAposVencimento: 5 },
  devedor: { cpf: '12345678909', nome: 'Francisco da Silva' },
  valor: { original: '100.00' },
  chave: KEYS.cnpj,
  ...over,
});
const lote = (cobsv = [cobv(A), cobv(B), cobv(C, { chave: 'fulano@example.com' })]) => ({ descricao: 'Mensalidades de março', cobsv });
const period = 'inicio=2026-03-01T00:00:00Z&fim=2026-04-01T00:00:00Z';
const statuses = async (id = 1001) => Object.fromEntries(((await apiPix(h, 'GET', `/lotecobv/${id}`)).body.cobsv as Array<{ txid: string; status: string }>).map((e) => [e.txid, e.status]));

describe('a batch of cobv', () => {
  test('PUT answers 202; each charge is EM_PROCESSAMENTO, then CRIADA, or NEGADA with the problema of PUT /cobv/{txid}', async () => {
    const put = await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote() });
    expect(put.status, put.text).toBe(202);
    expect(put.text).toBe('');
    expect(await statuses()).toEqual({ [A]: 'EM_PROCESSAMENTO', [B]: 'EM_PROCESSAMENTO', [C]: 'EM_PROCESSAMENTO' });
    expect((await apiPix(h, 'GET', `/cobv/${A}`)).status).toBe(404); // a request in process is no charge yet

    await h.advance(1);
    const res = await apiPix(h, 'GET', '/lotecobv/1001');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: 1001, descricao: 'Mensalidades de março', criacao: '2026-03-10T12:00:00.000Z' });
    expect(res.body.cobsv).toEqual([
      { txid: A, status: 'CRIADA', criacao: '2026-03-10T12:00:01.000Z' },
      { txid: B, status: 'CRIADA', criacao: '2026-03-10T12:00:01.000Z' },
      { txid: C, status: 'NEGADA', problema: expect.objectContaining({ type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida', status: 400 }) },
    ]);
    expect(res.body.cobsv[2].problema.violacoes.map((v: { propriedade: string }) => v.propriedade)).toEqual(['cobv.chave']);
    const single = await apiPix(h, 'GET', `/cobv/${A}`);
    expect(single.body, single.text).toMatchObject({ txid: A, status: 'ATIVA', revisao: 0, valor: { original: '100.00' } });
    expect((await apiPix(h, 'GET', `/cobv/${C}`)).status).toBe(404);
    const listed = await apiPix(h, 'GET', `/cobv?${period}`);
    expect(listed.body.cobs.map((c: { txid: string }) => c.txid).sort()).toEqual([A, B]);
  });

  test('PATCH revises some of its charges one by one; the revised cobv shows revisao 1', async () => {
    await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote() });
    await h.advance(1);
    const patch = await apiPix(h, 'PATCH', '/lotecobv/1001', { body: { descricao: 'Março, revisto', cobsv: [{ txid: B, valor: { original: '80.00' } }, { txid: C, valor: { original: '80.00' } }] } });
    expect(patch.status, patch.text).toBe(202);
    expect(await statuses()).toEqual({ [A]: 'CRIADA', [B]: 'EM_PROCESSAMENTO', [C]: 'EM_PROCESSAMENTO' });
    await h.advance(1);
    const res = await apiPix(h, 'GET', '/lotecobv/1001');
    expect(res.body.descricao).toBe('Março, revisto');
    expect(res.body.cobsv[1]).toEqual({ txid: B, status: 'CRIADA', criacao: '2026-03-10T12:00:01.000Z' });
    // C was never created: a revision has nothing to revise, and says to send the whole request.
    expect(res.body.cobsv[2]).toMatchObject({ txid: C, status: 'NEGADA', problema: { type: 'https://pix.bcb.gov.br/api/v2/error/CobVNaoEncontrada', status: 404 } });
    expect((await apiPix(h, 'GET', `/cobv/${B}`)).body).toMatchObject({ revisao: 1, valor: { original: '80.00' } });
    expect((await apiPix(h, 'GET', `/cobv/${A}`)).body).toMatchObject({ revisao: 0, valor: { original: '100.00' } });
  });

  test('PUT of the same charges again revises those it created and creates the one refused before', async () => {
    await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote() });
    await h.advance(1);
    const again = await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote([cobv(A, { valor: { original: '90.00' } }), cobv(B), cobv(C)]) });
    expect(again.status, again.text).toBe(202);
    await h.advance(1);
    expect(await statuses()).toEqual({ [A]: 'CRIADA', [B]: 'CRIADA', [C]: 'CRIADA' });
    expect((await apiPix(h, 'GET', `/cobv/${A}`)).body).toMatchObject({ revisao: 1, valor: { original: '90.00' } });
    expect((await apiPix(h, 'GET', `/cobv/${C}`)).body).toMatchObject({ revisao: 0, status: 'ATIVA' });
  });

  test('a charge paid since is NEGADA when the batch revises it; the others are revised', async () => {
    await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote([cobv(A), cobv(B)]) });
    await h.advance(1);
    expect((await h.control('POST', `/api-pix/cob/${A}/pay`, {})).status).toBe(200);
    await apiPix(h, 'PATCH', '/lotecobv/1001', { body: { cobsv: [{ txid: A, valor: { original: '1.00' } }, { txid: B, valor: { original: '1.00' } }] } });
    await h.advance(1);
    const res = await apiPix(h, 'GET', '/lotecobv/1001');
    expect(res.body.cobsv[0]).toMatchObject({ txid: A, status: 'NEGADA', problema: { type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida' } });
    expect(res.body.cobsv[0].problema.detail).toContain('CONCLUIDA');
    expect(res.body.cobsv[1]).toMatchObject({ txid: B, status: 'CRIADA' });
    expect((await apiPix(h, 'GET', `/cobv/${A}`)).body).toMatchObject({ status: 'CONCLUIDA', valor: { original: '100.00' } });
  });

  test('GET /lotecobv lists the batches of the period, in pages', async () => {
    await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote([cobv(A)]) });
    await h.advance(60);
    await apiPix(h, 'PUT', '/lotecobv/7', { body: lote([cobv(B)]) });
    const all = await apiPix(h, 'GET', `/lotecobv?${period}`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.lotes.map((l: { id: number }) => l.id)).toEqual([1001, 7]);
    expect(all.body.parametros).toEqual({ inicio: '2026-03-01T00:00:00Z', fim: '2026-04-01T00:00:00Z', paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 2 } });
    const second = await apiPix(h, 'GET', `/lotecobv?${period}&paginacao.itensPorPagina=1&paginacao.paginaAtual=1`);
    expect(second.body.lotes.map((l: { id: number }) => l.id)).toEqual([7]);
    const early = await apiPix(h, 'GET', '/lotecobv?inicio=2026-03-10T12:00:00Z&fim=2026-03-10T12:00:30Z');
    expect(early.body.lotes.map((l: { id: number }) => l.id)).toEqual([1001]);
  });

  test('the batch, its requests and its charges survive a restart with --data, and a batch left in process is processed after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lotecobv-data-'));
    try {
      const dataFile = join(dir, 'state.json');
      const first = await startHarness({ dataFile });
      await apiPix(first, 'PUT', '/lotecobv/1001', { body: lote() });
      await first.advance(1);
      await apiPix(first, 'PATCH', '/lotecobv/1001', { body: { cobsv: [{ txid: B, valor: { original: '70.00' } }] } });
      await first.sb.close();
      const second = await startHarness({ dataFile });
      const before = await apiPix(second, 'GET', '/lotecobv/1001');
      expect(before.body.cobsv.map((e: { status: string }) => e.status)).toEqual(['CRIADA', 'EM_PROCESSAMENTO', 'NEGADA']);
      await second.advance(1);
      expect((await apiPix(second, 'GET', '/lotecobv/1001')).body.cobsv[1]).toMatchObject({ txid: B, status: 'CRIADA' });
      expect((await apiPix(second, 'GET', `/cobv/${B}`)).body).toMatchObject({ revisao: 1, valor: { original: '70.00' } });
      await second.sb.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('refused batch requests change nothing', () => {
  test.each([
    ['a txid twice', '/lotecobv/1001', lote([cobv(A), cobv(B), cobv(A)]), 'loteCobV.cobsv[2].txid'],
    ['no descricao', '/lotecobv/1001', { cobsv: [cobv(A)] }, 'loteCobV.descricao'],
    ['no charges', '/lotecobv/1001', lote([]), 'loteCobV.cobsv'],
    ['a charge without txid', '/lotecobv/1001', lote([{ ...cobv(A), txid: undefined } as never]), 'loteCobV.cobsv[0].txid'],
    ['a charge that breaks the cobv schema', '/lotecobv/1001', lote([cobv(A), cobv(B, { valor: { original: '10' } })]), 'loteCobV.cobsv[1].valor.original'],
    ['an id that is not a number', '/lotecobv/lote1', lote(), 'id'],
  ])('PUT with %s is LoteCobVOperacaoInvalida naming it', async (_name, path, body, property) => {
    const res = await apiPix(h, 'PUT', path, { body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/LoteCobVOperacaoInvalida');
    expect(res.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain(property);
    await h.advance(1);
    expect((await apiPix(h, 'GET', `/lotecobv?${period}`)).body.lotes).toEqual([]);
    expect((await apiPix(h, 'GET', `/cobv?${period}`)).body.cobs).toEqual([]);
  });

  test('a txid that is already a cobv, or in another batch, is refused', async () => {
    expect((await apiPix(h, 'PUT', `/cobv/${A}`, { body: { ...cobv(A), txid: undefined } })).status).toBe(201);
    const taken = await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote([cobv(B), cobv(A)]) });
    expect(taken.status, taken.text).toBe(400);
    expect(taken.body.violacoes).toEqual([expect.objectContaining({ propriedade: 'loteCobV.cobsv[1].txid' })]);
    expect((await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote([cobv(B)]) })).status).toBe(202);
    const elsewhere = await apiPix(h, 'PUT', '/lotecobv/1002', { body: lote([cobv(C), cobv(B)]) });
    expect(elsewhere.status, elsewhere.text).toBe(400);
    expect(elsewhere.body.violacoes[0].razao).toContain('already in batch 1001');
    expect((await apiPix(h, 'GET', '/lotecobv/1002')).status).toBe(404);
  });

  test('another set of charges for an existing batch is refused, by PUT and by PATCH, and the batch stays as it was', async () => {
    await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote([cobv(A), cobv(B)]) });
    await h.advance(1);
    for (const body of [lote([cobv(A)]), lote([cobv(A), cobv(B), cobv(C)])]) {
      const res = await apiPix(h, 'PUT', '/lotecobv/1001', { body });
      expect(res.status, res.text).toBe(400);
      expect(res.body.violacoes[0].propriedade).toBe('loteCobV.cobsv');
    }
    const patch = await apiPix(h, 'PATCH', '/lotecobv/1001', { body: { descricao: 'outra', cobsv: [{ txid: A, valor: { original: '5.00' } }, { txid: C, valor: { original: '5.00' } }] } });
    expect(patch.status, patch.text).toBe(400);
    expect(patch.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/LoteCobVOperacaoInvalida', violacoes: [{ propriedade: 'loteCobV.cobsv[1].txid' }] });
    await h.advance(1);
    const res = await apiPix(h, 'GET', '/lotecobv/1001');
    expect(res.body).toMatchObject({ descricao: 'Mensalidades de março', cobsv: [{ txid: A, status: 'CRIADA' }, { txid: B, status: 'CRIADA' }] });
    expect((await apiPix(h, 'GET', `/cobv/${A}`)).body.revisao).toBe(0);
  });

  test.each([
    ['PATCH', '/lotecobv/999', { descricao: 'x' }],
    ['GET', '/lotecobv/999', undefined],
    ['GET', '/lotecobv/abc', undefined],
  ])('%s %s of no batch is LoteCobVNaoEncontrado', async (method, path, body) => {
    const res = await apiPix(h, method, path, body ? { body } : {});
    expect(res.status, res.text).toBe(404);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/LoteCobVNaoEncontrado');
  });

  test.each([
    ['without inicio', '/lotecobv?fim=2026-04-01T00:00:00Z', 'inicio'],
    ['with fim before inicio', '/lotecobv?inicio=2026-04-01T00:00:00Z&fim=2026-03-01T00:00:00Z', 'fim'],
    ['with a negative page', `/lotecobv?${period}&paginacao.paginaAtual=-1`, 'paginacao.paginaAtual'],
  ])('GET /lotecobv %s is LoteCobVConsultaInvalida', async (_name, path, property) => {
    const res = await apiPix(h, 'GET', path);
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/LoteCobVConsultaInvalida');
    expect(res.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain(property);
  });

  test('lotecobv takes the scopes lotecobv.write and lotecobv.read', async () => {
    const cobOnly = await pixToken(h, 'cobv.write cobv.read');
    expect((await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote(), token: cobOnly })).status).toBe(403);
    const reader = await pixToken(h, 'lotecobv.read');
    expect((await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote(), token: reader })).status).toBe(403);
    expect((await apiPix(h, 'GET', `/lotecobv?${period}`, { token: reader })).status).toBe(200);
    const writer = await pixToken(h, 'lotecobv.write');
    expect((await apiPix(h, 'PUT', '/lotecobv/1001', { body: lote(), token: writer })).status).toBe(202);
  });

  test("PIX:WRITE gives the lotecobv scopes, and a token asking PIX:WRITE's other scopes by name still creates charges on /v2", async () => {
    const pixOnly = DEFAULT.pixOnly;
    const all = await tokenResponse(h, 'grant_type=client_credentials', basic(pixOnly.clientId, pixOnly.clientSecret));
    expect(all.body.scope.split(' ')).toEqual(expect.arrayContaining(['lotecobv.write', 'lotecobv.read']));
    const named = await pixToken(h, 'cob.write cob.read cobv.write cobv.read payloadlocation.write payloadlocation.read', pixOnly);
    const created = await h.api('POST', '/v2/pix', { body: { amount: 1000, description: 'x', customer: { name: 'A', document: '12345678909' } }, token: named });
    expect(created.status, created.text).toBe(201);
  });
});
