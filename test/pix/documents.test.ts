import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  checkDigitsProblem,
  generateCnpj,
  generateCpf,
  isValidCnpj,
  isValidCpf,
  normalizeDocument,
  validateHolderDocument,
  validatePixKey,
  type RandomInt,
} from '../../src/pix';

/** A seeded RandomInt (an LCG), so that the seed fast-check picks decides every draw. */
const replay = (seed: number): RandomInt => {
  let a = seed >>> 0;
  return (max) => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a % max;
  };
};

describe('isValidCpf', () => {
  test.each(['12345678909', '52998224725', '11144477735', '00000000191'])('accepts %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  test.each([
    ['a wrong first check digit', '12345678919'],
    ['a wrong second check digit', '12345678908'],
    ['all the same digit, though its check digits add up', '11111111111'],
    ['all zeros', '00000000000'],
    ['punctuation', '123.456.789-09'],
    ['10 digits', '1234567890'],
    ['12 digits', '123456789090'],
    ['a letter', '1234567890A'],
    ['nothing', ''],
  ])('refuses %s (%s)', (_, cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });
});

describe('isValidCnpj', () => {
  test.each([
    ['a numeric CNPJ', '11222333000181'],
    ['the Banco Central', '00038166000105'],
    ['the alphanumeric example published by the Receita Federal (12.ABC.345/01DE-35)', '12ABC34501DE35'],
    ['an alphanumeric CNPJ from an independent generator', 'OGZP0N77444Y42'],
  ])('accepts %s: %s', (_, cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  test.each([
    ['a wrong second check digit', '11222333000182'],
    ['a wrong first check digit', '12ABC34501DE25'],
    ['lowercase letters', '12abc34501de35'],
    ['a letter among the check digits', '12ABC34501DE3A'],
    ['punctuation', '12.ABC.345/01DE-35'],
    ['all the same digit, though its check digits add up', '00000000000000'],
    ['13 characters', '1222333000181'],
    ['a character outside [0-9A-Z]', '12ABC3450*DE35'],
    ['nothing', ''],
  ])('refuses %s: %s', (_, cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  test('values letters as their code minus 48 (A = 17), not as A = 10 like base-36 digits', () => {
    // With A = 10, B = 11 ... the check digits of 12ABC34501DE would be 45 instead of 35.
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12ABC34501DE45')).toBe(false);
    expect(isValidCnpj('ABCDEFGHIJKL80')).toBe(true);
    expect(isValidCnpj('ABCDEFGHIJKL77')).toBe(false);
  });
});

describe('normalizeDocument', () => {
  test.each([
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    ['123.456.789-09', '12345678909'],
    ['11.222.333/0001-81', '11222333000181'],
    ['12345678909', '12345678909'],
  ])('turns %s into %s', (input, expected) => {
    expect(normalizeDocument(input)).toBe(expected);
  });

  test('makes the punctuated forms valid', () => {
    expect(isValidCnpj(normalizeDocument('12.abc.345/01de-35'))).toBe(true);
    expect(isValidCpf(normalizeDocument('529.982.247-25'))).toBe(true);
  });
});

describe('generators', () => {
  test('generateCpf always gives a valid CPF of 11 digits', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const cpf = generateCpf(replay(seed));
        expect(cpf).toMatch(/^\d{11}$/);
        expect(isValidCpf(cpf)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('generateCnpj always gives a valid numeric head-office CNPJ, and an alphanumeric one when asked', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const numeric = generateCnpj(replay(seed));
        expect(numeric).toMatch(/^\d{8}0001\d{2}$/);
        expect(isValidCnpj(numeric)).toBe(true);
        const alphanumeric = generateCnpj(replay(seed), { alphanumeric: true });
        expect(alphanumeric).toMatch(/^[0-9A-Z]{12}\d{2}$/);
        expect(isValidCnpj(alphanumeric)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('draws again instead of returning an all-same-digit CPF', () => {
    const draws = [...Array(9).fill(1), 5, 2, 9, 9, 8, 2, 2, 4, 7];
    const cpf = generateCpf(() => draws.shift()!);
    expect(cpf).toBe('52998224725');
  });

  test('gives the same documents for the same random source', () => {
    expect(generateCpf(replay(7))).toBe(generateCpf(replay(7)));
    expect(generateCnpj(replay(7))).toBe(generateCnpj(replay(7)));
  });

  test('refuses a random source that breaks its contract', () => {
    expect(() => generateCpf(() => 10)).toThrow(RangeError);
    expect(() => generateCpf(() => 0.5)).toThrow(RangeError);
  });
});

describe('validatePixKey', () => {
  test.each([
    ['cpf', '12345678909'],
    ['cnpj', '11222333000181'],
    ['cnpj', '12ABC34501DE35'],
    ['email', 'fulano@example.com'],
    ['email', 'Fulano.de_Tal+pix@mail.example.com.br'],
    ['email', `${'a'.repeat(65)}@example.com`],
    ['phone', '+5511987654321'],
    ['phone', '+556132345678'],
    ['random', '123e4567-e12b-12d1-a456-426655440000'],
    ['random', '123E4567-E12B-12D1-A456-426655440000'],
  ] as const)('accepts the %s key %s', (type, key) => {
    expect(validatePixKey(type, key)).toBeNull();
  });

  test.each([
    ['cpf', '12345678900', /valid CPF: 11 digits .* like 12345678909/],
    ['cpf', '123.456.789-09', /valid CPF/],
    ['cnpj', '11222333000180', /valid CNPJ: 14 characters .* like 11222333000181 or 12ABC34501DE35/],
    ['cnpj', '12.ABC.345/01DE-35', /valid CNPJ/],
    ['email', 'fulano@exemplo', /email address .* like fulano@example.com/],
    ['email', 'fulano example@example.com', /email address/],
    ['email', `${'a'.repeat(66)}@example.com`, /at most 77 characters/],
    ['phone', '11987654321', /\+55, the 2-digit area code .* like \+5511987654321/],
    ['phone', '+55 11 98765-4321', /phone number/],
    ['phone', '+15551234567', /phone number/],
    ['phone', '+55119876543210', /phone number/],
    ['phone', '+550987654321', /phone number/],
    ['random', '123e4567e12b12d1a456426655440000', /UUID like 123e4567-e12b-12d1-a456-426655440000/],
    ['random', '123e4567-e12b-12d1-a456-42665544000g', /random key/],
  ] as const)('refuses the %s key %s, saying what to send instead', (type, key, message) => {
    const error = validatePixKey(type, key);
    expect(error).toMatch(/^pixKey must be /);
    expect(error).toMatch(message);
  });

  test('names the accepted types when the type itself is unknown', () => {
    expect(validatePixKey('evp' as never, 'x')).toMatch(/cpf, cnpj, email, phone, random/);
  });
});

describe('validateHolderDocument', () => {
  test.each([
    ['cpf', '52998224725', null],
    ['cnpj', '12ABC34501DE35', null],
    // The service takes any check digits (sandbox.md 13): the shape is what is checked here.
    ['cpf', '52998224724', null],
    ['cnpj', '11222333000180', null],
    ['cpf', '529.982.247-25', 'document must be a CPF: 11 digits with no punctuation, like 12345678909'],
    ['cpf', '11222333000181', 'document must be a CPF: 11 digits with no punctuation, like 12345678909'],
    ['cnpj', '52998224725', expect.stringMatching(/^document must be a CNPJ: 14 characters/)],
  ] as const)('checks a %s %s', (type, doc, expected) => {
    expect(validateHolderDocument(type, doc)).toEqual(expected);
  });
});

describe('checkDigitsProblem', () => {
  test.each([
    ['a real CPF', '52998224725', null],
    ['a real alphanumeric CNPJ', '12ABC34501DE35', null],
    ['not a document at all', '1234', null],
    ['a CPF with wrong check digits', '12345678900', 'is not a real CPF: its check digits would be 09 (12345678909)'],
    ['a CNPJ with wrong check digits', '11222333000180', 'is not a real CNPJ: its check digits would be 81 (11222333000181)'],
    ['a CPF of one digit repeated', '00000000000', 'is not a real CPF (every character is the same)'],
  ])('%s: %s', (_name, doc, expected) => {
    expect(checkDigitsProblem(doc)).toBe(expected);
  });
});
