import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { crc16CcittFalse, encodeTlv, parseTlv } from '../../src/pix';

describe('encodeTlv', () => {
  test('writes the id, the length in two digits and the value', () => {
    expect(encodeTlv('59', 'Fulano de Tal')).toBe('5913Fulano de Tal');
    expect(encodeTlv('53', '986')).toBe('5303986');
    expect(encodeTlv('05', '')).toBe('0500');
  });

  test('accepts a value of exactly 99 characters and refuses 100 with a RangeError', () => {
    expect(encodeTlv('26', 'x'.repeat(99))).toBe(`2699${'x'.repeat(99)}`);
    expect(() => encodeTlv('26', 'x'.repeat(100))).toThrow(RangeError);
  });

  test.each(['5', '590', 'ab', '', ' 5'])('refuses the id %j with a RangeError', (id) => {
    expect(() => encodeTlv(id, 'v')).toThrow(RangeError);
  });
});

describe('parseTlv', () => {
  test('splits consecutive fields in order, keeping empty values', () => {
    expect(parseTlv('000201' + '5913Fulano de Tal' + '0500')).toEqual([
      { id: '00', value: '01' },
      { id: '59', value: 'Fulano de Tal' },
      { id: '05', value: '' },
    ]);
  });

  test('reads back whatever encodeTlv wrote', () => {
    const fields = [
      { id: '26', value: '0014br.gov.bcb.pix' },
      { id: '54', value: '123.45' },
      { id: '62', value: '0503***' },
    ];
    expect(parseTlv(fields.map((f) => encodeTlv(f.id, f.value)).join(''))).toEqual(fields);
  });

  test('returns no fields for the empty string', () => {
    expect(parseTlv('')).toEqual([]);
  });

  test.each([
    ['a length running past the end', '0005abc', /declares 5 characters but only 3 remain/],
    ['a truncated header', '000201590', /expected a 2-digit id and a 2-digit length/],
    ['a non-numeric id', 'AB02xx', /id must be 2 digits/],
    ['a non-numeric length', '00x201', /length of field 00 must be 2 digits/],
  ])('throws a clear error on %s', (_, text, message) => {
    expect(() => parseTlv(text)).toThrow(message);
  });
});

/** Reference: one bit at a time, straight from the definition (poly 0x1021, init 0xFFFF, no reflection, no xorout). */
function bitwiseCrc(bytes: Uint8Array): string {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

describe('crc16CcittFalse', () => {
  test('gives the standard check value 29B1 for "123456789"', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
  });

  test('gives FFFF (the initial value) for the empty string, and always 4 uppercase hex digits', () => {
    expect(crc16CcittFalse('')).toBe('FFFF');
    expect(crc16CcittFalse('A')).toMatch(/^[0-9A-F]{4}$/);
  });

  test('computes the CRC of the BR Code manual example up to and including "6304" as 1D3D', () => {
    expect(
      crc16CcittFalse(
        '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304',
      ),
    ).toBe('1D3D');
  });

  test('matches a bit-by-bit CRC-16/CCITT-FALSE over the UTF-8 bytes of any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        expect(crc16CcittFalse(text)).toBe(bitwiseCrc(Buffer.from(text, 'utf8')));
      }),
      { numRuns: 300 },
    );
  });
});
