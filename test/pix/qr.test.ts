import fc from 'fast-check';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import QRCode, { type QRCodeSegment } from 'qrcode';
import { describe, expect, test } from 'vitest';
import { buildDynamicBrCode, buildStaticBrCode, qrMatrix, qrPng, qrPngDataUrl, qrSegments } from '../../src/pix';

function readPng(dataUrl: string): PNG {
  expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
  return PNG.sync.read(Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64'));
}

function decode(dataUrl: string): string | undefined {
  const png = readPng(dataUrl);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

const longest = buildStaticBrCode({
  key: `${'k'.repeat(60)}@example.com.br.x`,
  description: 'Pagamento da fatura de setembro, parcela 3 de 12',
  merchantName: 'Comércio de Peças e Acessórios Automotivos Ltda',
  merchantCity: 'São José do Rio Preto',
  amountCents: 999_999_999_999,
  txid: 'A1B2C3D4E5F6G7H8I9J0K1L2M',
});

const codes: Array<[string, string]> = [
  ['the BCB static example', '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'],
  ['a sandbox charge', buildDynamicBrCode({ location: '127.0.0.1:4747/pix/qr/8b3da2f3-9a41-40d1-a91a-bd93113bd441', merchantName: 'Padaria São João', merchantCity: 'São Paulo', amountCents: 2590 })],
  ['a dynamic code with a 77-character location', buildDynamicBrCode({ location: `pix.example.com/${'a1b2c3'.repeat(10)}x`, merchantName: 'Fulano', merchantCity: 'Recife', amountCents: 1 })],
  [`a static code with every field at its longest (${longest.length} characters)`, longest],
  ['a short text', 'PIX'],
  ['text with accents and an emoji (UTF-8 bytes)', 'Pagamento: São João ☕ R$ 10,00'],
  ['1,200 characters (version 28, lines of 5 words)', 'Lorem ipsum dolor sit amet 0123456789 ABC/:*+-. '.repeat(25)],
  ['5,590 digits (version 40, the largest, lines of 6 words)', '0123456789'.repeat(559)],
];

describe('qrPngDataUrl', () => {
  test.each(codes)('draws a QR that jsQR decodes to exactly the text: %s', (_, text) => {
    expect(decode(qrPngDataUrl(text))).toBe(text);
  });

  test('draws 4 pixels per module with a quiet zone of 4 modules, black on white', () => {
    const text = codes[1]![1];
    const { size, modules } = qrMatrix(text);
    const png = readPng(qrPngDataUrl(text));
    expect(png.width).toBe((size + 8) * 4);
    expect(png.height).toBe(png.width);
    const pixel = (x: number, y: number) => png.data[(y * png.width + x) * 4]!;
    for (let y = 0; y < 16; y++) for (let x = 0; x < png.width; x++) expect(pixel(x, y)).toBe(255);
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const expected = modules[r * size + c] ? 0 : 255;
        expect(pixel((c + 4) * 4, (r + 4) * 4)).toBe(expected);
        expect(pixel((c + 4) * 4 + 3, (r + 4) * 4 + 3)).toBe(expected);
      }
    }
  });

  test('writes a 1-bit grayscale PNG that is much smaller than qrcode.toDataURL gives', async () => {
    const text = codes[1]![1];
    const png = qrPng(text);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect(png[24]).toBe(1); // bit depth
    expect(png[25]).toBe(0); // colour type: grayscale
    expect(qrPngDataUrl(text).length).toBeLessThan((await QRCode.toDataURL(text)).length / 2);
  });

  test('honours another scale and margin, and still decodes', () => {
    const text = codes[1]![1];
    const url = qrPngDataUrl(text, { scale: 6, margin: 2 });
    expect(readPng(url).width).toBe((qrMatrix(text).size + 4) * 6);
    expect(decode(url)).toBe(text);
  });

  // Small and large scales (a module inside one byte, across bytes, many bytes), margins with and without a whole
  // byte, and a version 40 code (rows copied in several pieces of at most 258 bytes).
  test.each([
    [1, 0, 'PIX 0123456789'],
    [1, 4, 'PIX 0123456789'],
    [2, 1, 'PIX 0123456789'],
    [3, 5, 'PIX 0123456789'],
    [5, 2, 'PIX 0123456789'],
    [8, 0, 'PIX 0123456789'],
    [64, 4, 'PIX 0123456789'],
    [4, 4, codes[1]![1]],
    [7, 3, codes[1]![1]],
    [3, 4, codes[7]![1]],
  ])('scale %i, margin %i: every pixel is its module, white around (%s)', (scale, margin, text) => {
    const { size, modules } = qrMatrix(text);
    const png = readPng(qrPngDataUrl(text, { scale, margin }));
    const side = (size + 2 * margin) * scale;
    expect([png.width, png.height]).toEqual([side, side]);
    let wrong = 0;
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const r = Math.floor(y / scale) - margin;
        const c = Math.floor(x / scale) - margin;
        const dark = r >= 0 && r < size && c >= 0 && c < size && modules[r * size + c] === 1;
        if (png.data[(y * side + x) * 4] !== (dark ? 0 : 255)) wrong++;
      }
    }
    expect(wrong).toBe(0);
  });

  test('gives the same image for the same text', () => {
    expect(qrPngDataUrl(codes[1]![1])).toBe(qrPngDataUrl(codes[1]![1]));
  });

  test('refuses an empty text, a bad scale and a text too long for any QR code', () => {
    expect(() => qrPngDataUrl('')).toThrow(RangeError);
    expect(() => qrPngDataUrl('x', { scale: 0 })).toThrow(RangeError);
    expect(() => qrPngDataUrl('x'.repeat(3000))).toThrow(/too long for a QR code/);
  });
});

describe('qrMatrix', () => {
  test.each(codes)('is module for module what QRCode.create draws from the same segments: %s', (_, text) => {
    const mine = qrMatrix(text);
    const theirs = QRCode.create(qrSegments(text) as QRCodeSegment[], { errorCorrectionLevel: 'M' });
    expect(mine.size).toBe(theirs.modules.size);
    expect(mine.maskPattern).toBe(theirs.maskPattern);
    expect(Buffer.from(mine.modules).equals(Buffer.from(theirs.modules.data))).toBe(true);
  });

  test('chooses the mask qrcode chooses, for any text from 1 to 1,800 characters', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 40 }),
          fc.string({ unit: fc.constantFrom(...'0123456789ABC $%*+-./:abc'.split('')), minLength: 1, maxLength: 400 }),
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 }),
          fc.integer({ min: 1, max: 1800 }).map((n) => '0123456789'.repeat(200).slice(0, n)),
        ),
        (text) => {
          const mine = qrMatrix(text);
          const theirs = QRCode.create(qrSegments(text) as QRCodeSegment[], { errorCorrectionLevel: 'M' });
          expect(mine.maskPattern).toBe(theirs.maskPattern);
          expect(Buffer.from(mine.modules).equals(Buffer.from(theirs.modules.data))).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });

  // The function patterns (finders, timing, alignment, version and format information) are drawn here, not by
  // qrcode: every version 1-40, each reached by the longest run of digits that fits it at level M.
  const DIGITS_M = [34, 63, 101, 149, 202, 255, 293, 365, 432, 513, 604, 691, 796, 871, 991, 1082, 1212, 1346, 1500, 1600, 1708, 1872, 2059, 2188, 2395, 2544, 2701, 2857, 3035, 3289, 3486, 3693, 3909, 4134, 4343, 4588, 4775, 5039, 5313, 5596];
  test.each(DIGITS_M.map((n, i) => [i + 1, n]))('draws version %i (%i digits) as QRCode.create does', (version, n) => {
    const text = '31415926535897932384626433832795028841971693993751'.repeat(120).slice(0, n);
    const mine = qrMatrix(text);
    const theirs = QRCode.create(qrSegments(text) as QRCodeSegment[], { errorCorrectionLevel: 'M' });
    expect(mine.size).toBe(17 + 4 * version);
    expect(theirs.modules.size).toBe(17 + 4 * version);
    expect(Buffer.from(mine.modules).equals(Buffer.from(theirs.modules.data))).toBe(true);
  });
});

describe('qrSegments', () => {
  test('splits a BR Code into numeric, alphanumeric and byte runs that join back to the text', () => {
    const text = codes[1]![1];
    const segments = qrSegments(text);
    expect(segments.map((s) => s.data).join('')).toBe(text);
    expect(new Set(segments.map((s) => s.mode))).toEqual(new Set(['numeric', 'alphanumeric', 'byte']));
  });

  test('never takes a bigger QR version than qrcode would for a BR Code', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), fc.uuid(), fc.string({ maxLength: 30 }), (amountCents, id, name) => {
        const text = buildDynamicBrCode({ location: `127.0.0.1:4747/pix/qr/${id}`, merchantName: name, merchantCity: 'Sao Paulo', amountCents });
        expect(qrMatrix(text).size).toBeLessThanOrEqual(QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size);
      }),
      { numRuns: 60 },
    );
  });
});
