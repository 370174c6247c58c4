import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isE2eId, makeE2eId } from '../../src/pix';

const counter = () => {
  let n = 0;
  return (max: number) => n++ % max;
};

describe('makeE2eId', () => {
  test('is E, the ISPB, the UTC minute and 11 alphanumerics: 32 characters', () => {
    const id = makeE2eId('18236120', new Date('2026-03-09T23:59:59.999Z'), counter());
    expect(id).toBe('E18236120202603092359ABCDEFGHIJK');
    expect(id).toHaveLength(32);
  });

  test('uses UTC, not the local time zone', () => {
    expect(makeE2eId('00000000', new Date('2025-12-31T22:30:00-03:00'), counter()).slice(9, 21)).toBe('202601010130');
  });

  test('always gives an id isE2eId accepts, for any ISPB, minute and random source', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{8}$/),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.array(fc.nat(), { minLength: 11, maxLength: 11 }),
        (ispb, at, picks) => {
          const id = makeE2eId(ispb, at, (max) => picks.shift()! % max);
          expect(id).toMatch(/^E\d{20}[A-Za-z0-9]{11}$/);
          expect(id.slice(1, 9)).toBe(ispb);
          expect(id.slice(9, 21)).toBe(at.toISOString().slice(0, 16).replace(/\D/g, ''));
          expect(isE2eId(id)).toBe(true);
        },
      ),
    );
  });

  test.each(['1823612', '182361200', '1823612a', ''])('refuses the ISPB %j with a RangeError', (ispb) => {
    expect(() => makeE2eId(ispb, new Date('2026-01-01T00:00:00Z'), counter())).toThrow(RangeError);
  });

  test('refuses an invalid date with a RangeError', () => {
    expect(() => makeE2eId('18236120', new Date(Number.NaN), counter())).toThrow(RangeError);
  });
});

describe('isE2eId', () => {
  test.each([
    ['a well-formed id', 'E18236120202603092359ABCDEFGHIJK', true],
    ['the 29th of February of a leap year', 'E18236120202402291200abcdefghijk', true],
    ['the 29th of February of a common year', 'E18236120202502291200abcdefghijk', false],
    ['month 13', 'E18236120202613011200abcdefghijk', false],
    ['hour 24', 'E18236120202601012400abcdefghijk', false],
    ['day 00', 'E18236120202601001200abcdefghijk', false],
    ['31 characters', 'E18236120202603092359ABCDEFGHIJ', false],
    ['a D prefix', 'D18236120202603092359ABCDEFGHIJK', false],
    ['a dash in the random part', 'E18236120202603092359ABCDE-GHIJK', false],
  ])('says %s is %s', (_, id, expected) => {
    expect(isE2eId(id)).toBe(expected);
  });
});
