// Brazilian documents (CPF, CNPJ numeric and alphanumeric) and PIX keys: validation with messages that say what to
// send instead, and generators of valid documents from a RandomInt.
import { randomString, type RandomInt } from './random';

export type PixKeyType = 'cpf' | 'cnpj' | 'email' | 'phone' | 'random';
export type HolderDocumentType = 'cpf' | 'cnpj';

const DIGITS = '0123456789';
const CNPJ_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Strips the punctuation people write documents with ('.', '-', '/') and uppercases: "12.abc.345/01de-35" -> "12ABC34501DE35". */
export function normalizeDocument(s: string): string {
  return s.replace(/[.\-/]/g, '').toUpperCase();
}

const allSame = (s: string) => s.split('').every((c) => c === s[0]);

/** The two CPF check digits of a 9-digit base. */
function cpfCheckDigits(base: string): string {
  let digits = base;
  for (let round = 0; round < 2; round++) {
    let sum = 0;
    for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (digits.length + 1 - i);
    const rest = (sum * 10) % 11;
    digits += String(rest === 10 ? 0 : rest);
  }
  return digits.slice(base.length);
}

/** A CPF in canonical form: 11 digits, correct check digits, not all the same digit. */
export function isValidCpf(s: string): boolean {
  return /^\d{11}$/.test(s) && !allSame(s) && cpfCheckDigits(s.slice(0, 9)) === s.slice(9);
}

/**
 * The two CNPJ check digits of a 12-character base, for numeric and alphanumeric CNPJs alike: each character counts
 * as its code minus 48 ('0'-'9' -> 0-9, 'A' -> 17 ... 'Z' -> 42), weights 2 to 9 cycling from the right, mod 11.
 */
function cnpjCheckDigits(base: string): string {
  let chars = base;
  for (let round = 0; round < 2; round++) {
    let sum = 0;
    for (let i = chars.length - 1, weight = 2; i >= 0; i--, weight = weight === 9 ? 2 : weight + 1) {
      sum += (chars.charCodeAt(i) - 48) * weight;
    }
    const rest = sum % 11;
    chars += String(rest < 2 ? 0 : 11 - rest);
  }
  return chars.slice(base.length);
}

/**
 * A CNPJ in canonical form: 14 characters, the first 12 digits or uppercase letters (alphanumeric CNPJ, from July
 * 2026), the last 2 the check digits; not all the same character. No punctuation: see normalizeDocument.
 */
export function isValidCnpj(s: string): boolean {
  return /^[0-9A-Z]{12}\d{2}$/.test(s) && !allSame(s) && cnpjCheckDigits(s.slice(0, 12)) === s.slice(12);
}

/**
 * The kind of document a text has the shape of, check digits aside: 'cpf' for 11 digits, 'cnpj' for 12 digits or
 * uppercase letters and 2 digits. The service takes any document of the right shape (sandbox.md 13).
 */
export function documentKind(s: string): HolderDocumentType | undefined {
  return /^\d{11}$/.test(s) ? 'cpf' : /^[0-9A-Z]{12}\d{2}$/.test(s) ? 'cnpj' : undefined;
}

/** Null when a document of the right shape is a real one; else why not, naming the check digits it would need. */
export function checkDigitsProblem(s: string): string | null {
  const kind = documentKind(s);
  if (kind === undefined || (kind === 'cpf' ? isValidCpf(s) : isValidCnpj(s))) return null;
  if (allSame(s)) return `is not a real ${kind.toUpperCase()} (every character is the same)`;
  const base = s.slice(0, kind === 'cpf' ? 9 : 12);
  const digits = kind === 'cpf' ? cpfCheckDigits(base) : cnpjCheckDigits(base);
  return `is not a real ${kind.toUpperCase()}: its check digits would be ${digits} (${base}${digits})`;
}

/** A valid CPF (11 digits) drawn from `random`. */
export function generateCpf(random: RandomInt): string {
  for (;;) {
    const base = randomString(random, DIGITS, 9);
    if (!allSame(base)) return base + cpfCheckDigits(base);
  }
}

/**
 * A valid CNPJ drawn from `random`: by default numeric, an 8-digit root and branch 0001 (a head office); with
 * `alphanumeric`, 12 characters from [0-9A-Z] as the new format allows.
 */
export function generateCnpj(random: RandomInt, options: { alphanumeric?: boolean } = {}): string {
  for (;;) {
    const base = options.alphanumeric ? randomString(random, CNPJ_CHARS, 12) : `${randomString(random, DIGITS, 8)}0001`;
    if (!allSame(base)) return base + cnpjCheckDigits(base);
  }
}

const CPF_HELP = 'a valid CPF: 11 digits with correct check digits and no punctuation, like 12345678909';
const CNPJ_HELP =
  'a valid CNPJ: 14 characters with no punctuation, 12 digits or uppercase letters followed by 2 check digits, like 11222333000181 or 12ABC34501DE35';

const CPF_SHAPE = 'a CPF: 11 digits with no punctuation, like 12345678909';
const CNPJ_SHAPE = 'a CNPJ: 14 characters with no punctuation, 12 digits or uppercase letters followed by 2 digits, like 11222333000181 or 12ABC34501DE35';

const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE = /^\+55[1-9]{2}\d{8,9}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Null when `key` is a valid PIX key of `type`; otherwise a message saying what to send instead. */
export function validatePixKey(type: PixKeyType, key: string): string | null {
  switch (type) {
    case 'cpf':
      return isValidCpf(key) ? null : `pixKey must be ${CPF_HELP}`;
    case 'cnpj':
      return isValidCnpj(key) ? null : `pixKey must be ${CNPJ_HELP}`;
    case 'email':
      return key.length <= 77 && EMAIL.test(key) ? null : 'pixKey must be an email address of at most 77 characters, like fulano@example.com';
    case 'phone':
      return PHONE.test(key)
        ? null
        : 'pixKey must be a phone number as +55, the 2-digit area code (DDD) and the 8- or 9-digit number, with no spaces or punctuation, like +5511987654321';
    case 'random':
      return UUID.test(key) ? null : 'pixKey must be a random key (EVP): a UUID like 123e4567-e12b-12d1-a456-426655440000';
    default:
      return `pixKeyType must be one of cpf, cnpj, email, phone, random; got ${JSON.stringify(type)}`;
  }
}

/**
 * Null when `doc` has the shape of a holder document of `type`; otherwise a message saying what to send instead. Check
 * digits are not asked for, as the service does not (checkDigitsProblem says what is wrong with them, for a warning).
 */
export function validateHolderDocument(type: HolderDocumentType, doc: string): string | null {
  switch (type) {
    case 'cpf':
      return documentKind(doc) === 'cpf' ? null : `document must be ${CPF_SHAPE}`;
    case 'cnpj':
      return documentKind(doc) === 'cnpj' ? null : `document must be ${CNPJ_SHAPE}`;
    default:
      return `documentType must be cpf or cnpj; got ${JSON.stringify(type)}`;
  }
}
