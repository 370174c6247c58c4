// BR Code (the PIX "copia e cola" text inside the QR), after the Central Bank's Manual do BR Code and Manual de Padrões
// para Iniciação do Pix: EMV MPM TLV fields, the PIX merchant account template in field 26, CRC-16 in field 63.
import { crc16CcittFalse } from './crc16';
import { encodeTlv, parseTlv, type TlvField } from './tlv';

export const PIX_GUI = 'br.gov.bcb.pix';
const DEFAULT_MERCHANT_NAME = 'PIX SANDBOX';
const DEFAULT_MERCHANT_CITY = 'SAO PAULO';
/** Largest amount field 54 can carry (13 characters: 9999999999.99). */
const MAX_AMOUNT_CENTS = 999_999_999_999;

/**
 * Text as the BR Code accepts it: accents stripped (NFD, combining marks removed), anything outside printable ASCII
 * (0x20-0x7E) removed, whitespace collapsed to single spaces, trimmed, cut to `max` characters.
 */
export function toBrCodeText(s: string, max: number): string {
  if (!Number.isInteger(max) || max < 0) throw new RangeError(`max must be a non-negative integer, got ${max}`);
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, max)
    .trimEnd();
}

/** Integer cents as the decimal amount of field 54: 12345 -> "123.45", 5 -> "0.05". */
function formatAmount(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > MAX_AMOUNT_CENTS) {
    throw new RangeError(`amountCents must be an integer from 1 to ${MAX_AMOUNT_CENTS}, got ${amountCents}`);
  }
  const s = String(amountCents).padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** The URL of a dynamic code's payload (field 26-25): no scheme, a dotted host, at most 77 characters. */
export const LOCATION = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?::\d{1,5})?(?:\/[\x21-\x7E]*)?$/;

function checkLocation(location: string): void {
  if (location.includes('://')) {
    throw new RangeError(`location must not carry a scheme (drop "https://"), like pix.example.com/qr/v2/9d36b84f, got ${JSON.stringify(location)}`);
  }
  if (location.length > 77) throw new RangeError(`location holds at most 77 characters, got ${location.length}`);
  if (!LOCATION.test(location)) {
    throw new RangeError(`location must be a host with a dot and an optional path, like pix.example.com/qr/v2/9d36b84f, got ${JSON.stringify(location)}`);
  }
}

// Fields 58-60 per merchant name and city: an account's charges all carry the same, and cleaning the text (Unicode
// normalization and regular expressions) was two thirds of building a code under load. Bounded: cleared when full.
const merchantCache = new Map<string, string>();

function merchantFields(merchantName: string, merchantCity: string): string {
  const key = `${merchantName}\u0000${merchantCity}`;
  let fields = merchantCache.get(key);
  if (fields === undefined) {
    fields =
      encodeTlv('58', 'BR') +
      encodeTlv('59', toBrCodeText(merchantName, 25) || DEFAULT_MERCHANT_NAME) +
      encodeTlv('60', toBrCodeText(merchantCity, 15) || DEFAULT_MERCHANT_CITY);
    if (merchantCache.size >= 1000) merchantCache.clear();
    merchantCache.set(key, fields);
  }
  return fields;
}

/** Appends field 63 with the CRC-16 over everything before it, "6304" included. */
function withCrc(body: string): string {
  const text = `${body}6304`;
  return text + crc16CcittFalse(text);
}

export interface DynamicBrCodeInput {
  /** URL of the charge payload without a scheme, e.g. "pix.example.com/qr/v2/9d36b84f". */
  location: string;
  merchantName: string;
  merchantCity: string;
  amountCents: number;
  /**
   * Reference label of field 62-05; "***" (the default, what the Pix manual asks of dynamic codes, whose txid lives
   * at the location) unless reproducing an older published example. 1 to 25 printable ASCII characters.
   */
  txid?: string;
}

// The fields every dynamic code has alike, made once: format 01, initiation 12 (single use), the GUI of field 26,
// category 0000, currency 986, and field 62 with the default reference label.
const DYNAMIC_HEAD = encodeTlv('00', '01') + encodeTlv('01', '12');
const GUI_FIELD = encodeTlv('00', PIX_GUI);
const CATEGORY_AND_CURRENCY = encodeTlv('52', '0000') + encodeTlv('53', '986');
const DEFAULT_TXID = '***';
const DEFAULT_TXID_FIELD = encodeTlv('62', encodeTlv('05', DEFAULT_TXID));

/** A dynamic, single-use PIX BR Code pointing at `location`. */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  checkLocation(input.location);
  const txid = input.txid ?? DEFAULT_TXID;
  if (txid !== DEFAULT_TXID && !/^[\x21-\x7E][\x20-\x7E]{0,24}$/.test(txid)) {
    throw new RangeError(`txid must be 1 to 25 printable ASCII characters, got ${JSON.stringify(txid)}`);
  }
  return withCrc(
    DYNAMIC_HEAD +
      encodeTlv('26', GUI_FIELD + encodeTlv('25', input.location)) +
      CATEGORY_AND_CURRENCY +
      encodeTlv('54', formatAmount(input.amountCents)) +
      merchantFields(input.merchantName, input.merchantCity) +
      (txid === DEFAULT_TXID ? DEFAULT_TXID_FIELD : encodeTlv('62', encodeTlv('05', txid))),
  );
}

/** Field 80 of a Pix Automático code: the GUI and the URL (no scheme) of the recurrence's payload location. */
const recurrenceField = (recLocation: string) => {
  checkLocation(recLocation);
  return encodeTlv('80', GUI_FIELD + encodeTlv('25', recLocation));
};

/**
 * A QR Composto: `code` (a charge's BR Code, the immediate cob's of Jornada 3 or the cobv's of Jornada 4) with field 80
 * pointing at the recurrence's payload location, before a new field 63.
 */
export function withRecurrence(code: string, recLocation: string): string {
  if (!/6304[0-9A-Fa-f]{4}$/.test(code)) throw new RangeError('code must be a BR Code ending with field 63 (6304 and its CRC)');
  return withCrc(code.slice(0, -8) + recurrenceField(recLocation));
}

/**
 * The QR of a recurrence alone (Jornada 2): no charge to pay, so field 26 holds only the GUI and there is no amount;
 * field 80 points at the recurrence's payload location.
 */
export function buildRecBrCode(input: { recLocation: string; merchantName: string; merchantCity: string }): string {
  return withCrc(
    encodeTlv('00', '01') +
      encodeTlv('26', GUI_FIELD) +
      CATEGORY_AND_CURRENCY +
      merchantFields(input.merchantName, input.merchantCity) +
      DEFAULT_TXID_FIELD +
      recurrenceField(input.recLocation),
  );
}

export interface StaticBrCodeInput {
  /** The PIX key (CPF, CNPJ, email, +55 phone or random key), at most 77 characters. */
  key: string;
  merchantName: string;
  merchantCity: string;
  amountCents?: number;
  /** Field 62-05: "***" (the default) or 1 to 25 characters [A-Za-z0-9]. */
  txid?: string;
  /** Free text for the payer (field 26-02); cleaned like the name and cut to the room left in field 26. */
  description?: string;
  /** Writes field 01 as "11" (point of initiation: reusable), which some readers expect of static codes. */
  reusable?: boolean;
}

/** A static, reusable PIX BR Code carrying the key itself (no field 01, as in the manual's example). */
export function buildStaticBrCode(input: StaticBrCodeInput): string {
  const { key } = input;
  if (!/^[\x21-\x7E]{1,77}$/.test(key)) {
    throw new RangeError(`key must be 1 to 77 printable ASCII characters without spaces, got ${JSON.stringify(key)}`);
  }
  const txid = input.txid ?? '***';
  if (txid !== '***' && !/^[A-Za-z0-9]{1,25}$/.test(txid)) {
    throw new RangeError(`txid must be "***" or 1 to 25 letters and digits, got ${JSON.stringify(txid)}`);
  }
  let account = encodeTlv('00', PIX_GUI) + encodeTlv('01', key);
  const room = 99 - account.length - 4;
  const description = input.description === undefined || room <= 0 ? '' : toBrCodeText(input.description, room);
  if (description) account += encodeTlv('02', description);
  return withCrc(
    encodeTlv('00', '01') +
      (input.reusable ? encodeTlv('01', '11') : '') +
      encodeTlv('26', account) +
      encodeTlv('52', '0000') +
      encodeTlv('53', '986') +
      (input.amountCents === undefined ? '' : encodeTlv('54', formatAmount(input.amountCents))) +
      merchantFields(input.merchantName, input.merchantCity) +
      encodeTlv('62', encodeTlv('05', txid)),
  );
}

export interface ParsedBrCode {
  /** Top-level fields by id, 63 (the CRC as written) included. */
  fields: Record<string, string>;
  /** Subfields of field 26 (00 GUI, 01 key, 02 description, 25 location), empty when absent. */
  merchantAccount: Record<string, string>;
  /** Subfields of field 62 (05 txid), empty when absent. */
  additionalData: Record<string, string>;
  /** Field 54 in integer cents, absent when the code carries no amount. */
  amountCents?: number;
  /** Whether field 63 matches the CRC-16 computed over the text before it. */
  crcValid: boolean;
}

function toRecord(fields: TlvField[], where: string): Record<string, string> {
  const record: Record<string, string> = {};
  for (const { id, value } of fields) {
    if (Object.hasOwn(record, id)) throw new Error(`Malformed BR Code: field ${where}${id} appears twice`);
    record[id] = value;
  }
  return record;
}

function parseNested(value: string | undefined, id: string): Record<string, string> {
  if (value === undefined) return {};
  try {
    return toRecord(parseTlv(value), `${id}-`);
  } catch (e) {
    throw new Error(`Malformed BR Code: field ${id} does not hold valid TLV subfields (${(e as Error).message})`);
  }
}

/** Field 54 as integer cents; throws an Error naming the expected form (like 123.45). */
export function parseAmount(value: string): number {
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(value);
  if (!m) throw new Error(`Malformed BR Code: field 54 must be a decimal amount like 123.45, found ${JSON.stringify(value)}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Parses a BR Code back into its fields and checks its CRC. Throws an Error when the text is not a BR Code at all. */
export function parseBrCode(code: string): ParsedBrCode {
  if (code.length < 8 || !/6304[0-9A-Fa-f]{4}$/.test(code)) {
    throw new Error('Malformed BR Code: it must end with field 63, "6304" followed by 4 hex digits of CRC-16');
  }
  let list: TlvField[];
  try {
    list = parseTlv(code);
  } catch (e) {
    throw new Error(`Malformed BR Code: ${(e as Error).message}`);
  }
  if (list[0]?.id !== '00') throw new Error('Malformed BR Code: it must start with field 00, the payload format indicator "000201"');
  const last = list[list.length - 1];
  if (last?.id !== '63' || last.value.length !== 4) {
    throw new Error('Malformed BR Code: field 63 (the CRC) must be the last field, with 4 hex digits');
  }
  const fields = toRecord(list, '');
  const amount = fields['54'];
  const crc = code.slice(-4).toUpperCase();
  return {
    fields,
    merchantAccount: parseNested(fields['26'], '26'),
    additionalData: parseNested(fields['62'], '62'),
    ...(amount === undefined ? {} : { amountCents: parseAmount(amount) }),
    crcValid: crc16CcittFalse(code.slice(0, -4)) === crc,
  };
}
