import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  buildDynamicBrCode,
  buildStaticBrCode,
  crc16CcittFalse,
  encodeTlv,
  parseBrCode,
  parseTlv,
  toBrCodeText,
} from '../../src/pix';

// Published BR Codes. Each one's CRC was checked against this implementation before it was added here.
const published = {
  // Banco Central do Brasil, Manual de Padrões para Iniciação do Pix, example of a static QR (key, no amount). The
  // same text is quoted by many public test suites (e.g. ACBr's TTestQRCodeEstatico, saskenuba/pix-toolbelt).
  bcbStatic:
    '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
  // Same manual, example of a dynamic QR (location URL, single use, no amount); quoted in
  // saskenuba/pix-toolbelt crates/br-code-spec/src/lexer.rs (bacen_dynamic_sample).
  bcbDynamic:
    '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4',
  // Dynamic QR with an amount and a reference label: README of github.com/rprata/pixcode (parser example), after the
  // BCB's Manual do BR Code.
  pixcodeParsed:
    '00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd4415204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62190515RP12345678-2019630445C8',
  // README of github.com/rprata/pixcode (generator example output).
  pixcodeGenerated:
    '00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441520400005303986540599.995802BR5914Ciclano de Tal6014RIO DE JANEIRO62190515RP12345678-201963047A12',
  // Static QR with an email key, a description (26-02) and an amount: saskenuba/pix-toolbelt,
  // crates/br-code-spec/src/lexer.rs (generated_sample).
  pixToolbeltGenerated:
    '00020126530014br.gov.bcb.pix0119saskenuba@gmail.com0208[Pix.ae]520400005303986540550.005802BR5903Pix6003Pix62070503***63048287',
} as const;

describe('published BR Codes', () => {
  test.each([
    ['the BCB static example', published.bcbStatic, () =>
      buildStaticBrCode({ key: '123e4567-e12b-12d1-a456-426655440000', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' })],
    ['the BCB dynamic example (no amount, so assembled from TLV fields)', published.bcbDynamic, () => {
      const body =
        encodeTlv('00', '01') +
        encodeTlv('01', '12') +
        encodeTlv('26', encodeTlv('00', 'br.gov.bcb.pix') + encodeTlv('25', 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441')) +
        encodeTlv('52', '0000') +
        encodeTlv('53', '986') +
        encodeTlv('58', 'BR') +
        encodeTlv('59', 'Fulano de Tal') +
        encodeTlv('60', 'BRASILIA') +
        encodeTlv('62', encodeTlv('05', '***')) +
        '6304';
      return body + crc16CcittFalse(body);
    }],
    ['the pixcode parser example (dynamic, 123.45)', published.pixcodeParsed, () =>
      buildDynamicBrCode({
        location: 'bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441',
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
        amountCents: 12345,
        txid: 'RP12345678-2019',
      })],
    ['the pixcode generator example (dynamic, 99.99)', published.pixcodeGenerated, () =>
      buildDynamicBrCode({
        location: 'bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441',
        merchantName: 'Ciclano de Tal',
        merchantCity: 'RIO DE JANEIRO',
        amountCents: 9999,
        txid: 'RP12345678-2019',
      })],
    ['the pix-toolbelt example (static, description, 50.00)', published.pixToolbeltGenerated, () =>
      buildStaticBrCode({ key: 'saskenuba@gmail.com', description: '[Pix.ae]', amountCents: 5000, merchantName: 'Pix', merchantCity: 'Pix' })],
  ])('%s has a valid CRC and is reproduced byte for byte', (_, code, build) => {
    expect(crc16CcittFalse(code.slice(0, -4))).toBe(code.slice(-4));
    expect(parseBrCode(code).crcValid).toBe(true);
    expect(build()).toBe(code);
  });

  test('the BCB static example parses into its key, name, city and txid, with no amount', () => {
    const parsed = parseBrCode(published.bcbStatic);
    expect(parsed.fields).toMatchObject({ '00': '01', '52': '0000', '53': '986', '58': 'BR', '59': 'Fulano de Tal', '60': 'BRASILIA', '63': '1D3D' });
    expect(parsed.fields['01']).toBeUndefined();
    expect(parsed.merchantAccount).toEqual({ '00': 'br.gov.bcb.pix', '01': '123e4567-e12b-12d1-a456-426655440000' });
    expect(parsed.additionalData).toEqual({ '05': '***' });
    expect(parsed.amountCents).toBeUndefined();
    expect(parsed.crcValid).toBe(true);
  });

  test('the BCB dynamic example parses into a single-use code pointing at its location', () => {
    const parsed = parseBrCode(published.bcbDynamic);
    expect(parsed.fields['01']).toBe('12');
    expect(parsed.merchantAccount['25']).toBe('pix.example.com/8b3da2f39a4140d1a91abd93113bd441');
  });

  test('amounts come back in integer cents: 123.45 -> 12345, 50.00 -> 5000', () => {
    expect(parseBrCode(published.pixcodeParsed).amountCents).toBe(12345);
    expect(parseBrCode(published.pixToolbeltGenerated).amountCents).toBe(5000);
    expect(parseBrCode(published.pixToolbeltGenerated).merchantAccount['02']).toBe('[Pix.ae]');
  });
});

describe('buildDynamicBrCode', () => {
  const input = { location: 'pix.example.com/qr/v2/9d36b84f', merchantName: 'Loja', merchantCity: 'Recife', amountCents: 12345 };

  test('writes the fields of a dynamic code in order, with "***" as txid and the CRC last', () => {
    const code = buildDynamicBrCode(input);
    expect(parseTlv(code).map((f) => f.id)).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    const parsed = parseBrCode(code);
    expect(parsed.fields).toMatchObject({ '00': '01', '01': '12', '52': '0000', '53': '986', '54': '123.45', '58': 'BR', '59': 'Loja', '60': 'Recife' });
    expect(parsed.merchantAccount).toEqual({ '00': 'br.gov.bcb.pix', '25': 'pix.example.com/qr/v2/9d36b84f' });
    expect(parsed.additionalData).toEqual({ '05': '***' });
    expect(parsed.crcValid).toBe(true);
  });

  test.each([
    [1, '0.01'],
    [5, '0.05'],
    [99, '0.99'],
    [100, '1.00'],
    [12345, '123.45'],
    [999_999_999_999, '9999999999.99'],
  ])('writes %i cents as the amount "%s"', (amountCents, amount) => {
    expect(parseBrCode(buildDynamicBrCode({ ...input, amountCents })).fields['54']).toBe(amount);
  });

  test.each([0, -1, 1.5, Number.NaN, 1_000_000_000_000])('refuses the amount %d cents with a RangeError', (amountCents) => {
    expect(() => buildDynamicBrCode({ ...input, amountCents })).toThrow(RangeError);
  });

  test('accepts an IP host with a port (--public-host for a phone on the LAN)', () => {
    const code = buildDynamicBrCode({ ...input, location: '192.168.0.10:4747/pix/qr/8b3da2f3-9a41-40d1-a91a-bd93113bd441' });
    expect(parseBrCode(code).merchantAccount['25']).toBe('192.168.0.10:4747/pix/qr/8b3da2f3-9a41-40d1-a91a-bd93113bd441');
  });

  test.each([
    ['a scheme', 'https://pix.example.com/qr/1', /scheme/],
    ['no dot in the host', 'localhost:4747/pix/qr/1', /host with a dot/],
    ['a space', 'pix.example.com/qr 1', /host with a dot/],
    ['78 characters', `pix.example.com/${'a'.repeat(62)}`, /at most 77/],
    ['nothing', '', /host with a dot/],
  ])('refuses a location with %s with a RangeError', (_, location, message) => {
    expect(() => buildDynamicBrCode({ ...input, location })).toThrow(RangeError);
    expect(() => buildDynamicBrCode({ ...input, location })).toThrow(message);
  });

  test('accepts a location of exactly 77 characters', () => {
    const location = `pix.example.com/${'a'.repeat(61)}`;
    expect(location).toHaveLength(77);
    expect(parseBrCode(buildDynamicBrCode({ ...input, location })).merchantAccount['25']).toBe(location);
  });

  test('strips accents from name and city and cuts them to 25 and 15 characters', () => {
    const parsed = parseBrCode(
      buildDynamicBrCode({ ...input, merchantName: 'Padaria e Confeitaria São João da Boa Vista', merchantCity: 'São José dos Campos' }),
    );
    expect(parsed.fields['59']).toBe('Padaria e Confeitaria Sao');
    expect(parsed.fields['60']).toBe('Sao Jose dos Ca');
  });

  test('falls back to PIX SANDBOX and SAO PAULO when nothing printable is left of name or city', () => {
    const parsed = parseBrCode(buildDynamicBrCode({ ...input, merchantName: '  ☕☕ ', merchantCity: '東京' }));
    expect(parsed.fields['59']).toBe('PIX SANDBOX');
    expect(parsed.fields['60']).toBe('SAO PAULO');
  });

  test('every code parses back to its amount, location, name and city with a valid CRC', () => {
    const accented = fc.string({ unit: fc.constantFrom(...'aãâáàçéêíóôõúüAÃÇÉÍÓÕÚ -.&\'0123456789ñß☕'.split('')), maxLength: 40 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999_999_999 }),
        accented,
        accented,
        fc.stringMatching(/^[a-z0-9-]{1,20}\.[a-z]{2,6}(\/[A-Za-z0-9._~-]{0,40})?$/),
        (amountCents, merchantName, merchantCity, location) => {
          const code = buildDynamicBrCode({ location, merchantName, merchantCity, amountCents });
          const parsed = parseBrCode(code);
          expect(parsed.crcValid).toBe(true);
          expect(parsed.amountCents).toBe(amountCents);
          expect(parsed.merchantAccount['25']).toBe(location);
          expect(parsed.fields['59']).toBe(toBrCodeText(merchantName, 25) || 'PIX SANDBOX');
          expect(parsed.fields['60']).toBe(toBrCodeText(merchantCity, 15) || 'SAO PAULO');
          expect(code).toMatch(/^[\x20-\x7E]+$/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('buildStaticBrCode', () => {
  const base = { key: 'loja@example.com', merchantName: 'Loja', merchantCity: 'Recife' };

  test('carries key, description, amount and txid, and no field 01', () => {
    const parsed = parseBrCode(buildStaticBrCode({ ...base, amountCents: 1205, txid: 'pedido123', description: 'Pedido 123' }));
    expect(parsed.fields['01']).toBeUndefined();
    expect(parsed.merchantAccount).toEqual({ '00': 'br.gov.bcb.pix', '01': 'loja@example.com', '02': 'Pedido 123' });
    expect(parsed.additionalData).toEqual({ '05': 'pedido123' });
    expect(parsed.amountCents).toBe(1205);
    expect(parsed.crcValid).toBe(true);
  });

  test('cuts the description to the room left in field 26, which holds at most 99 characters', () => {
    const parsed = parseBrCode(buildStaticBrCode({ ...base, description: 'x'.repeat(200) }));
    expect(parsed.fields['26']).toHaveLength(99);
    expect(parsed.merchantAccount['02']).toBe('x'.repeat(99 - 18 - 20 - 4));
  });

  test.each([
    ['an empty key', { key: '' }],
    ['a key with a space', { key: 'a b' }],
    ['a key of 78 characters', { key: 'k'.repeat(78) }],
    ['a txid with a dash', { txid: 'pedido-123' }],
    ['a txid of 26 characters', { txid: 'A'.repeat(26) }],
    ['an amount of 0', { amountCents: 0 }],
  ])('refuses %s with a RangeError', (_, over) => {
    expect(() => buildStaticBrCode({ ...base, ...over })).toThrow(RangeError);
  });
});

describe('toBrCodeText', () => {
  test.each([
    ['São João', 30, 'Sao Joao'],
    ['  Açaí \t\n  da   Praça  ', 30, 'Acai da Praca'],
    ['Jørgen ☕ Müller', 30, 'Jrgen Muller'],
    ['Über', 2, 'Ub'],
    ['abc def', 4, 'abc'],
    ['\u00a0nbsp\u00a0here', 30, 'nbsp here'],
    ['João'.normalize('NFD'), 30, 'Joao'],
    ['', 10, ''],
  ])('turns %j (max %i) into %j', (input, max, expected) => {
    expect(toBrCodeText(input, max)).toBe(expected);
  });

  test('always gives printable ASCII, without leading, trailing or double spaces, within the limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer({ min: 0, max: 30 }), (s, max) => {
        const out = toBrCodeText(s, max);
        expect(out).toMatch(/^[\x20-\x7E]*$/);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).toBe(out.trim());
        expect(out).not.toContain('  ');
      }),
    );
  });
});

describe('parseBrCode', () => {
  const code = published.bcbStatic;
  const withCrc = (body: string) => `${body}6304${crc16CcittFalse(`${body}6304`)}`;

  test('reports crcValid false when a character changed or the CRC is wrong', () => {
    expect(parseBrCode(code.replace('Fulano', 'Fulana')).crcValid).toBe(false);
    expect(parseBrCode(`${code.slice(0, -4)}1D3E`).crcValid).toBe(false);
  });

  test('accepts the CRC in lowercase hex', () => {
    expect(parseBrCode(`${code.slice(0, -4)}1d3d`).crcValid).toBe(true);
  });

  test.each([
    ['the empty string', '', /must end with field 63/],
    ['a code without 6304 at the end', code.slice(0, -8), /must end with field 63/],
    ['a CRC that is not hex', `${code.slice(0, -4)}1D3G`, /must end with field 63/],
    ['a length running past the end', `00020126990014br.gov.bcb.pix6304ABCD`, /Malformed BR Code/],
    ['a code not starting with field 00', withCrc('520400005303986'), /payload format indicator/],
    ['a field 26 that is not TLV', withCrc('0002012604abcd'), /field 26 does not hold valid TLV/],
    ['a field 54 that is not an amount', withCrc('000201540312a'), /field 54 must be a decimal amount/],
    ['a field that appears twice', withCrc('000201' + '59015' + '59015'), /field 59 appears twice/],
  ])('throws a clear Error on %s', (_, text, message) => {
    expect(() => parseBrCode(text)).toThrow(message);
  });
});
