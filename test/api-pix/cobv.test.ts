// cobv (sandbox.md 9): a charge with a due date whose value (valor.final, the BR Code amount, what is paid) follows
// fines, interest, discounts and abatement on the sandbox clock, in Brasília days. T0 is Tuesday 2026-03-10, 09:00 BRT.
import { compactVerify, createLocalJWKSet } from 'jose';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { dueAmounts, dayOf } from '../../src/domain/api-pix';
import { expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';
import { apiPix, KEYS, payCob, TXID } from '../helpers/api-pix';
import type { DueRules } from '../../src/domain/types';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.sb.close());

const DAY = 86_400;
const cobvBody = (over: Record<string, unknown> = {}, valor: Record<string, unknown> = {}) => ({
  calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 5 },
  devedor: { cpf: '12345678909', nome: 'Francisco da Silva', cidade: 'Sao Paulo', uf: 'SP' },
  valor: {
    original: '100.00',
    multa: { modalidade: 2, valorPerc: '2.00' },
    juros: { modalidade: 2, valorPerc: '1.00' },
    desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-11', valorPerc: '5.00' }] },
    ...valor,
  },
  chave: KEYS.cnpj,
  ...over,
});

async function payload(location: string, query = '') {
  const res = await h.api('GET', `/${location.split('/').slice(1).join('/')}${query}`);
  if (res.status !== 200) return res;
  const jwks = createLocalJWKSet((await h.api('GET', '/.well-known/jwks.json')).body);
  return { ...res, body: JSON.parse(new TextDecoder().decode((await compactVerify(res.text, jwks)).payload)) };
}

describe('cobv', () => {
  test('PUT creates it with its calendar, the receiver, and a BR Code for what it costs today (the discount applies)', async () => {
    const res = await apiPix(h, 'PUT', `/cobv/${TXID}`, { body: cobvBody() });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 5 },
      status: 'ATIVA',
      recebedor: { cnpj: KEYS.cnpj, nome: 'Loja Exemplo LTDA' },
      valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' } },
    });
    expect(res.body.location).toMatch(/\/api-pix\/qr\/v2\/cobv\/[a-z0-9]{24}$/);
    expect(res.body.pixCopiaECola).toContain('540595.00');
    const jws = await payload(res.body.location);
    expect(jws.body.valor).toEqual({ original: '100.00', multa: '0.00', juros: '0.00', abatimento: '0.00', desconto: '5.00', final: '95.00' });
    const onDue = await payload(res.body.location, '?DPP=2026-03-12&codMun=3550308');
    expect(onDue.body.valor.final).toBe('100.00');
    const decoded = await h.control('POST', '/brcodes/decode', { code: res.body.pixCopiaECola });
    expect(decoded.body.verdict, decoded.text).toBe('payable');
  });

  test('paid two days late it costs the fine and the interest, and the pix shows them', async () => {
    await apiPix(h, 'PUT', `/cobv/${TXID}`, { body: cobvBody() });
    await h.advance(4 * DAY);
    const late = await apiPix(h, 'GET', `/cobv/${TXID}`);
    expect(late.body.pixCopiaECola).toContain('5406104.00');
    await payCob(h);
    const paid = await apiPix(h, 'GET', `/cobv/${TXID}`);
    expect(paid.body.status).toBe('CONCLUIDA');
    expect(paid.body.pix[0]).toMatchObject({ valor: '104.00', componentesValor: { original: { valor: '100.00' }, multa: { valor: '2.00' }, juros: { valor: '2.00' } } });
    expectLedgerBalanced(h.sb);
  });

  test('after its last payable day it is REMOVIDA_PELO_PSP', async () => {
    await apiPix(h, 'PUT', `/cobv/${TXID}`, { body: cobvBody() });
    await h.advance(7 * DAY);
    expect((await apiPix(h, 'GET', `/cobv/${TXID}`)).body.status).toBe('ATIVA');
    await h.advance(DAY);
    expect((await apiPix(h, 'GET', `/cobv/${TXID}`)).body.status).toBe('REMOVIDA_PELO_PSP');
  });

  test("due on a Thursday with 2 days of validity, it is still paid on the following Monday (the document's example A)", async () => {
    await apiPix(h, 'PUT', `/cobv/${TXID}`, { body: cobvBody({ calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 2 } }) });
    await h.advance(5 * DAY); // Sunday 2026-03-15
    expect((await apiPix(h, 'GET', `/cobv/${TXID}`)).body.status).toBe('ATIVA');
    await h.advance(DAY); // Monday 2026-03-16
    await payCob(h);
    expect((await apiPix(h, 'GET', `/cobv/${TXID}`)).body).toMatchObject({ status: 'CONCLUIDA', pix: [{ valor: '106.00' }] }); // 2% fine, 1% a day for 4 days
  });

  test('due on a Thursday with 2 days of validity, it is removed on the Tuesday after', async () => {
    await apiPix(h, 'PUT', `/cobv/${TXID}`, { body: cobvBody({ calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 2 } }) });
    await h.advance(6 * DAY);
    expect((await apiPix(h, 'GET', `/cobv/${TXID}`)).body.status).toBe('ATIVA');
    await h.advance(DAY);
    expect((await apiPix(h, 'GET', `/cobv/${TXID}`)).body.status).toBe('REMOVIDA_PELO_PSP');
  });

  test('PATCH revises the due date and value rules; a cobv is not a cob', async () => {
    await apiPix(h, 'PUT', `/cobv/${TXID}`, { body: cobvBody() });
    const res = await apiPix(h, 'PATCH', `/cobv/${TXID}`, { body: { calendario: { dataDeVencimento: '2026-03-20' }, valor: { abatimento: { modalidade: 1, valorPerc: '10.00' } } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ revisao: 1, calendario: { dataDeVencimento: '2026-03-20', validadeAposVencimento: 5 }, valor: { abatimento: { modalidade: 1, valorPerc: '10.00' } } });
    expect(res.body.pixCopiaECola).toContain('540585.00'); // 100 - 10 abated - 5 discounted until 03-11
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).status).toBe(404);
    const missing = await apiPix(h, 'GET', '/cobv/naoexiste0000000000000000000');
    expect(missing.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobVNaoEncontrada');
  });

  test('GET /cobv lists them', async () => {
    await apiPix(h, 'PUT', `/cobv/${TXID}`, { body: cobvBody() });
    const res = await apiPix(h, 'GET', '/cobv?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z');
    expect(res.status, res.text).toBe(200);
    expect(res.body.cobs.map((c: { txid: string }) => c.txid)).toEqual([TXID]);
  });

  test.each([
    ['a due date in the past', cobvBody({ calendario: { dataDeVencimento: '2026-03-09' } }), 'cobv.calendario.dataDeVencimento'],
    ['a date that does not exist', cobvBody({ calendario: { dataDeVencimento: '2026-02-30' } }), 'cobv.calendario.dataDeVencimento'],
    ['a negative validity', cobvBody({ calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: -1 } }), 'cobv.calendario.validadeAposVencimento'],
    ['no devedor', { ...cobvBody(), devedor: undefined }, 'cobv.devedor'],
    ['an abatement of all of it', cobvBody({}, { abatimento: { modalidade: 2, valorPerc: '100.00' } }), 'cobv.valor.abatimento'],
    ['a fixed discount without dates', cobvBody({}, { desconto: { modalidade: 1, valorPerc: '1.00' } }), 'cobv.valor.desconto.descontoDataFixa'],
    ['a discount date after the due date', cobvBody({}, { desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-13', valorPerc: '1.00' }] } }), 'cobv.valor.desconto.descontoDataFixa[0].data'],
    ['an interest modality 9', cobvBody({}, { juros: { modalidade: 9, valorPerc: '1.00' } }), 'cobv.valor.juros.modalidade'],
  ])('%s is CobVOperacaoInvalida naming %s', async (_n, body, property) => {
    const res = await apiPix(h, 'PUT', `/cobv/${TXID}`, { body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida');
    expect(res.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain(property);
  });

  test('DPP outside the days it can be paid is CobPayloadOperacaoInvalida', async () => {
    const res = await apiPix(h, 'PUT', `/cobv/${TXID}`, { body: cobvBody() });
    for (const dpp of ['2026-03-09', '2026-03-30', 'amanha']) {
      const bad = await payload(res.body.location, `?DPP=${dpp}`);
      expect(bad.status).toBe(400);
      expect(bad.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobPayloadOperacaoInvalida');
    }
  });
});

describe('dueAmounts (the standard\'s value rules)', () => {
  const rules = (over: Partial<DueRules>): DueRules => ({ dataDeVencimento: '2026-03-12', validadeAposVencimento: 30, original: 10_000, ...over });
  test.each([
    ['on time, nothing', rules({}), '2026-03-12', 10_000],
    ["the document's example: 3% fine, 1% a day, 2 days late", rules({ multa: { modalidade: 2, valorPerc: '3.00' }, juros: { modalidade: 2, valorPerc: '1.00' } }), '2026-03-14', 10_500],
    ['a fixed fine and R$ 0.50 a day', rules({ multa: { modalidade: 1, valorPerc: '5.00' }, juros: { modalidade: 1, valorPerc: '0.50' } }), '2026-03-15', 10_000 + 500 + 150],
    ['30% a month is 1% a day', rules({ juros: { modalidade: 3, valorPerc: '30.00' } }), '2026-03-13', 10_100],
    ['interest in business days skips the weekend', rules({ juros: { modalidade: 6, valorPerc: '1.00' } }), '2026-03-16', 10_200],
    ['a due date on Saturday moves to Monday', rules({ dataDeVencimento: '2026-03-14', multa: { modalidade: 1, valorPerc: '5.00' } }), '2026-03-16', 10_000],
    ['R$ 1 a day paid early (calendar days)', rules({ desconto: { modalidade: 3, valorPerc: '1.00' } }), '2026-03-09', 9_700],
    ['2% a business day paid early', rules({ desconto: { modalidade: 6, valorPerc: '2.00' } }), '2026-03-09', 9_400],
    ['the first fixed date not passed wins', rules({ desconto: { modalidade: 2, descontoDataFixa: [{ data: '2026-03-12', valorPerc: '1.00' }, { data: '2026-03-10', valorPerc: '5.00' }] } }), '2026-03-11', 9_900],
    ['an abatement always applies', rules({ abatimento: { modalidade: 1, valorPerc: '10.00' }, multa: { modalidade: 1, valorPerc: '1.00' } }), '2026-03-13', 9_100],
    ['never below one cent', rules({ abatimento: { modalidade: 1, valorPerc: '99.99' }, desconto: { modalidade: 3, valorPerc: '50.00' } }), '2026-03-01', 1],
  ])('%s', (_n, r, day, final) => {
    expect(dueAmounts(r, dayOf(day)).final).toBe(final);
  });
});
