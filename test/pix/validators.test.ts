// The BR Codes of POST /v2/pix as the field validators integrators use read them: @brazilian-utils/brazilian-utils
// (isValidPixPayload, getPixPayloadInfo) and pix-utils (parsePix). Both must take every code as a dynamic one whose
// location is pix-sandbox.test/pix/qr/<id>. Neither reports field 54 of a dynamic code (the location is the source of
// truth for the amount, as the Pix manual says), so the amount is read with pix-utils' own EMV reader and from the
// location payload the sandbox serves at that path.
import { getPixPayloadInfo, isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { parsePix } from 'pix-utils';
import { parseEmv } from 'pix-utils/dist/main/emvHandler';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildDynamicBrCode } from '../../src/pix';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';

const HOST = 'pix-sandbox.test';

/** Checks one code with both libraries and against the location the sandbox serves; returns the location payload. */
async function expectValidDynamic(h: Harness, created: { id: string; pixCopyPaste: string }, amount: string, merchantName: string) {
  const code = created.pixCopyPaste;
  const location = `${HOST}/pix/qr/${created.id}`;
  expect(isValidPixPayload(code), code).toBe(true);
  expect(getPixPayloadInfo(code), code).toEqual({ merchantName, merchantCity: 'Sao Paulo', pointOfInitiation: 'dynamic', url: location });

  const parsed = parsePix(code);
  expect(parsed, code).toMatchObject({ type: 'DYNAMIC', url: location, merchantName, merchantCity: 'Sao Paulo', countryCode: 'BR', transactionCurrency: '986' });
  const emv = parseEmv({ emvCode: code });
  expect(emv.isValid, code).toBe(true);
  expect(emv.isValid && emv.getTag(54), code).toBe(amount);

  const served = await h.sb.app.request(location.slice(HOST.length), { headers: { accept: 'application/json' } });
  expect(served.status, location).toBe(200);
  const payload = (await served.json()) as { valor: { original: string }; status: string; solicitacaoPagador?: string };
  expect(payload.valor.original).toBe(amount);
  expect(payload.status).toBe('ATIVA');
  return payload;
}

describe('BR Codes of POST /v2/pix pass @brazilian-utils/brazilian-utils and pix-utils as dynamic codes', () => {
  test.each([
    [1, '1.00'],
    [1.5, '1.50'],
    [10, '10.00'],
    [25.9, '25.90'],
    [1234.56, '1234.56'],
    [999_999.99, '999999.99'],
    [1_000_000.01, '1000000.01'],
    [999_999_999.99, '999999999.99'],
  ])('amount %d: field 54 "%s", valid and dynamic in both libraries', async (amount, text) => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: { amount, description: 'Pedido 1' } });
    expect(res.status, res.text).toBe(201);
    await expectValidDynamic(h, res.body, text, 'Loja Exemplo LTDA');
  });

  // Descriptions never enter a dynamic code (26-02 belongs to static ones): they are the location payload's
  // solicitacaoPagador, cut to the 140 characters the cob allows. The code stays valid whatever they hold.
  test.each([
    ['empty', ''],
    ['255 characters', 'a'.repeat(255)],
    ['accents', 'Pão de queijo, café e açaí — promoção de verão'],
    ['emoji', '🍕 Pizza grande 🍕 + 🥤'],
    ['control and markup characters', 'tab\there\nnew line "aspas" <b>&amp;</b> \\ 100%'],
  ])('description %s: the code validates and the location payload carries it', async (_, description) => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: { amount: 12.34, description } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.pixCopyPaste).toMatch(/^[\x20-\x7e]+$/);
    const payload = await expectValidDynamic(h, res.body, '12.34', 'Loja Exemplo LTDA');
    if (description) expect(payload.solicitacaoPagador).toBe(description.slice(0, 140));
    else expect(payload).not.toHaveProperty('solicitacaoPagador');
  });

  // A sub-account's charge carries the sub-account's name in field 59: accents stripped, anything outside printable
  // ASCII dropped, cut to 25 characters, PIX SANDBOX when nothing is left.
  test.each([
    ['accents', 'Café & Cia — Filial Nº 2', 'Cafe & Cia Filial N 2'],
    ['all accented letters', 'ÁÉÍÓÚ ÂÊÔ ÃÕ Ç àèìòù', 'AEIOU AEO AO C aeiou'],
    ['a long name', 'Padaria e Confeitaria São João da Boa Vista', 'Padaria e Confeitaria Sao'],
    ['only emoji', '☕☕☕', 'PIX SANDBOX'],
    ['quotes and symbols', 'Loja "Aspas" <tag> 100%', 'Loja "Aspas" <tag> 100%'],
  ])('sub-account name with %s: field 59 "%s" and valid in both libraries', async (_, name, field59) => {
    const h = await startHarness();
    const added = await h.control('POST', `/accounts/${DEFAULT.accountId}/sub-accounts`, { reference: 'loja-teste', name });
    expect(added.status, added.text).toBe(201);
    const res = await h.v2('POST', '/pix', { body: { amount: 99.9, description: 'x' }, subAccount: 'loja-teste' });
    expect(res.status, res.text).toBe(201);
    await expectValidDynamic(h, res.body, '99.90', field59);
  });

  test('a --public-host with a port (a phone on the LAN) parses in pix-utils but brazilian-utils refuses it: the reason for the default', async () => {
    const h = await startHarness({ publicHost: '192.168.0.10:4747' });
    const res = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
    expect(res.status, res.text).toBe(201);
    expect(parsePix(res.body.pixCopyPaste)).toMatchObject({ type: 'DYNAMIC', url: `192.168.0.10:4747/pix/qr/${res.body.id}` });
    expect(isValidPixPayload(res.body.pixCopyPaste)).toBe(false);
  });

  test('a --public-host without a port (a LAN address served on port 80, or a name) passes both', async () => {
    const h = await startHarness({ publicHost: 'pix.loja.test' });
    const res = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
    expect(getPixPayloadInfo(res.body.pixCopyPaste)).toMatchObject({ pointOfInitiation: 'dynamic', url: `pix.loja.test/pix/qr/${res.body.id}` });
    expect(parsePix(res.body.pixCopyPaste)).toMatchObject({ type: 'DYNAMIC', url: `pix.loja.test/pix/qr/${res.body.id}` });
  });

  test('any amount the encoder takes, with any merchant name and city, passes both libraries at the default host', () => {
    const text = fc.string({ unit: fc.constantFrom(...'aãâáàçéêíóôõúüAÃÇÉÍÓÕÚ -.&\'"%<>/0123456789ñß☕🍕\t'.split('')), maxLength: 60 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999_999 }), text, text, fc.uuid(), (amountCents, merchantName, merchantCity, id) => {
        const location = `${HOST}/pix/qr/${id}`;
        const code = buildDynamicBrCode({ location, merchantName, merchantCity, amountCents });
        expect(getPixPayloadInfo(code), code).toMatchObject({ pointOfInitiation: 'dynamic', url: location });
        expect(parsePix(code), code).toMatchObject({ type: 'DYNAMIC', url: location });
        const emv = parseEmv({ emvCode: code });
        expect(emv.isValid && Math.round(Number(emv.getTag(54)) * 100), code).toBe(amountCents);
      }),
      { numRuns: 300 },
    );
  });
});
