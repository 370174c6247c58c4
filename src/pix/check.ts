// Checks a BR Code field by field, the way a payer's bank would before paying it, and says what each check found.
// Unlike parseBrCode (which stops at the first problem), every check runs and reports, so a person pasting a broken
// code sees all that is wrong with it at once. Pure: no store, no clock. The TLV split and the CRC are the project's own.
import { LOCATION, parseAmount, PIX_GUI } from './brcode';
import { crc16CcittFalse } from './crc16';
import { brlAmount } from '../lib/brl';
import { parseTlv, type TlvField } from './tlv';

/** The longest BR Code the EMV QR specification allows. */
export const MAX_BR_CODE_LENGTH = 512;

const FIELD_NAMES: Record<string, string> = {
  '00': 'Payload format indicator',
  '01': 'Point of initiation method',
  '26': 'Merchant account information (PIX)',
  '52': 'Merchant category code',
  '53': 'Transaction currency',
  '54': 'Transaction amount',
  '58': 'Country code',
  '59': 'Merchant name',
  '60': 'Merchant city',
  '61': 'Postal code',
  '62': 'Additional data field',
  '63': 'CRC-16',
  '80': 'Pix Automático (recurrence)',
};
const SUBFIELD_NAMES: Record<string, Record<string, string>> = {
  '26': { '00': 'GUI', '01': 'PIX key', '02': 'Description', '25': 'Location (URL of the charge)' },
  '62': { '05': 'Reference label (txid)' },
  '80': { '00': 'GUI', '25': 'Location (URL of the recurrence)' },
};

export type BrCodeCheckName =
  | 'characters'
  | 'length'
  | 'tlv'
  | 'payloadFormat'
  | 'merchantAccount'
  | 'location'
  | 'recurrence'
  | 'categoryCode'
  | 'currency'
  | 'amount'
  | 'country'
  | 'merchantName'
  | 'merchantCity'
  | 'crc';

export interface BrCodeCheck {
  check: BrCodeCheckName;
  /** The field it looks at ("26-25" for a subfield), null for the text as a whole. */
  field: string | null;
  ok: boolean;
  /** What the code holds there (null when absent). */
  found: string | null;
  /** What a valid code holds there, when it is one exact value (the CRC, "986"...). */
  expected?: string;
  /** A sentence: what was checked and, when it failed, what a valid code holds instead. */
  message: string;
}

export interface BrCodeFieldView {
  id: string;
  name: string;
  value: string;
  subfields?: { id: string; name: string; value: string }[];
}

export interface BrCodeDecoded {
  payloadFormat: string | null;
  pointOfInitiation: string | null;
  gui: string | null;
  key: string | null;
  location: string | null;
  /** Field 80-25: the payload location of a Pix Automático recurrence (a QR Composto, or a recurrence's own code). */
  recLocation: string | null;
  description: string | null;
  categoryCode: string | null;
  currency: string | null;
  /** Field 54 as written ("123.45"), null when absent. */
  amount: string | null;
  /** Field 54 in integer cents, null when absent or not a decimal amount. */
  amountCents: number | null;
  country: string | null;
  merchantName: string | null;
  merchantCity: string | null;
  txid: string | null;
}

export interface BrCodeReport {
  /** Every check passed. */
  valid: boolean;
  /** The code as checked (surrounding whitespace removed). */
  code: string;
  length: number;
  fields: BrCodeFieldView[];
  decoded: BrCodeDecoded;
  /** Field 63 as found (null when absent) against the CRC-16 of the text before its 4 digits. */
  crc: { found: string | null; expected: string; valid: boolean };
  checks: BrCodeCheck[];
}

/** Splits TLV text into a map; a repeated id is an error (a code must not say two things in one field). */
function tlvRecord(text: string): { list: TlvField[]; map: Map<string, string> } {
  const list = parseTlv(text);
  const map = new Map<string, string>();
  for (const { id, value } of list) {
    if (map.has(id)) throw new Error(`field ${id} appears twice`);
    map.set(id, value);
  }
  return { list, map };
}

const CRC_TAIL = /6304([0-9A-Fa-f]{4})$/;

function crcOf(code: string): BrCodeReport['crc'] {
  const tail = CRC_TAIL.exec(code);
  if (!tail) return { found: null, expected: crc16CcittFalse(`${code}6304`), valid: false };
  const found = tail[1]!.toUpperCase();
  const expected = crc16CcittFalse(code.slice(0, -4));
  return { found, expected, valid: found === expected };
}

/** Runs every check of a BR Code and reports each one; never throws for any string. */
export function checkBrCode(input: string): BrCodeReport {
  const code = input.trim();
  const checks: BrCodeCheck[] = [];
  const add = (check: BrCodeCheckName, field: string | null, ok: boolean, found: string | null, message: string, expected?: string) =>
    checks.push({ check, field, ok, found, ...(expected === undefined ? {} : { expected }), message });

  const bad = /[^\x20-\x7E]/.exec(code);
  add(
    'characters',
    null,
    !bad,
    bad ? JSON.stringify(bad[0]) : null,
    bad
      ? `Character ${JSON.stringify(bad[0])} at position ${bad.index} is not printable ASCII; a BR Code holds only ASCII 0x20-0x7E (was a line break or an accent pasted in?).`
      : 'Only printable ASCII characters.',
  );
  add(
    'length',
    null,
    code.length > 0 && code.length <= MAX_BR_CODE_LENGTH,
    String(code.length),
    code.length === 0
      ? 'The code is empty; paste the whole "copia e cola" text, which starts with 000201.'
      : code.length > MAX_BR_CODE_LENGTH
        ? `${code.length} characters; a BR Code holds at most ${MAX_BR_CODE_LENGTH}.`
        : `${code.length} characters (at most ${MAX_BR_CODE_LENGTH}).`,
  );

  const decoded: BrCodeDecoded = {
    payloadFormat: null,
    pointOfInitiation: null,
    gui: null,
    key: null,
    location: null,
    recLocation: null,
    description: null,
    categoryCode: null,
    currency: null,
    amount: null,
    amountCents: null,
    country: null,
    merchantName: null,
    merchantCity: null,
    txid: null,
  };
  const crc = crcOf(code);
  const fields: BrCodeFieldView[] = [];

  let top: ReturnType<typeof tlvRecord> | null = null;
  if (code.length > 0) {
    try {
      top = tlvRecord(code);
      add('tlv', null, true, null, `${top.list.length} fields of id, length and value.`);
    } catch (e) {
      add('tlv', null, false, null, `Not a sequence of TLV fields (2-digit id, 2-digit length, value): ${(e as Error).message}. A truncated copy is the usual cause; copy the whole code again.`);
    }
  }

  if (top) {
    const { list, map } = top;
    const subs: Record<string, Map<string, string> | null> = {};
    for (const { id, value } of list) {
      const view: BrCodeFieldView = { id, name: FIELD_NAMES[id] ?? (Number(id) >= 80 ? 'Unreserved template' : 'Field'), value };
      if (SUBFIELD_NAMES[id]) {
        try {
          const nested = tlvRecord(value);
          subs[id] = nested.map;
          view.subfields = nested.list.map((f) => ({ id: f.id, name: SUBFIELD_NAMES[id]![f.id] ?? 'Subfield', value: f.value }));
        } catch {
          subs[id] = null;
        }
      }
      fields.push(view);
    }
    const get = (id: string) => map.get(id) ?? null;

    decoded.payloadFormat = get('00');
    const first = list[0];
    add(
      'payloadFormat',
      '00',
      first?.id === '00' && first.value === '01',
      decoded.payloadFormat,
      first?.id !== '00'
        ? 'Field 00 (payload format indicator) must come first; a BR Code starts with 000201.'
        : first.value !== '01'
          ? `Field 00 holds ${JSON.stringify(first.value)}; it must be "01" (a BR Code starts with 000201).`
          : 'Starts with 000201.',
      '01',
    );
    decoded.pointOfInitiation = get('01');

    const account = subs['26'];
    const raw26 = get('26');
    if (account) {
      decoded.gui = account.get('00') ?? null;
      decoded.key = account.get('01') ?? null;
      decoded.location = account.get('25') ?? null;
      decoded.description = account.get('02') ?? null;
    }
    const guiOk = decoded.gui?.toLowerCase() === PIX_GUI;
    const recurrence = subs['80'];
    decoded.recLocation = recurrence?.get('25') ?? null;
    // A recurrence's own code (Jornada 2) names neither key nor charge: field 80 says what it is.
    const recOnly = decoded.key === null && decoded.location === null && decoded.recLocation !== null;
    add(
      'merchantAccount',
      '26',
      !!account && guiOk && (decoded.key !== null || decoded.location !== null || recOnly),
      raw26,
      raw26 === null
        ? 'Field 26 (PIX merchant account) is missing: it names the PIX key (26-01) or the location of the charge (26-25).'
        : !account
          ? 'Field 26 does not hold valid TLV subfields (00 GUI, then 01 key or 25 location).'
          : !guiOk
            ? `Field 26-00 holds ${JSON.stringify(decoded.gui)}; a PIX code holds the GUI "${PIX_GUI}".`
            : recOnly
              ? 'A Pix Automático code: a recurrence to authorise (field 80), no charge to pay now.'
            : decoded.key === null && decoded.location === null
              ? 'Field 26 has neither a PIX key (26-01) nor a location (26-25); a code must carry one.'
              : decoded.location !== null
                ? 'A dynamic PIX code: it points at a charge (26-25).'
                : 'A static PIX code: it carries a PIX key (26-01), not a charge location.',
    );
    if (decoded.location !== null) {
      const loc = decoded.location;
      const ok = !loc.includes('://') && loc.length <= 77 && LOCATION.test(loc);
      add(
        'location',
        '26-25',
        ok,
        loc,
        ok ? 'A host with a dot and a path, no scheme.' : 'Field 26-25 must be a host with a dot and a path, without a scheme, at most 77 characters (like pix.example.com/qr/v2/9d36b84f).',
      );
    }

    if (get('80') !== null) {
      const loc = decoded.recLocation;
      const guiOk80 = recurrence?.get('00')?.toLowerCase() === PIX_GUI;
      const ok = guiOk80 && loc !== null && !loc.includes('://') && loc.length <= 77 && LOCATION.test(loc);
      add(
        'recurrence',
        '80',
        ok,
        get('80'),
        ok
          ? 'A Pix Automático recurrence (80-25): its receiver asks to debit it on its dates.'
          : `Field 80 (Pix Automático) must hold the GUI "${PIX_GUI}" (80-00) and the recurrence's location (80-25), a host with a dot and a path, without a scheme, at most 77 characters.`,
      );
    }

    decoded.categoryCode = get('52');
    add('categoryCode', '52', /^\d{4}$/.test(decoded.categoryCode ?? ''), decoded.categoryCode,
      decoded.categoryCode === null ? 'Field 52 (merchant category code) is missing; PIX codes carry "0000".' : /^\d{4}$/.test(decoded.categoryCode) ? 'Four digits.' : `Field 52 holds ${JSON.stringify(decoded.categoryCode)}; it must be 4 digits, "0000" in PIX codes.`);

    decoded.currency = get('53');
    add('currency', '53', decoded.currency === '986', decoded.currency,
      decoded.currency === '986' ? 'Brazilian real (986).' : decoded.currency === null ? 'Field 53 (currency) is missing; it must be "986", the Brazilian real.' : `Field 53 holds ${JSON.stringify(decoded.currency)}; it must be "986", the Brazilian real.`, '986');

    decoded.amount = get('54');
    let amountMessage: string;
    // A static code may leave the amount to the payer; a dynamic one (a charge) states it, as every charge here does.
    const amountOptional = decoded.location === null && (decoded.key !== null || decoded.recLocation !== null);
    if (decoded.amount === null) {
      amountMessage = amountOptional
        ? decoded.key === null
          ? "No amount: nothing is paid now (the recurrence's charges state theirs)."
          : 'No amount: the payer types it (allowed in a static code).'
        : 'Field 54 (amount) is missing: a charge states its amount, and every charge of this sandbox carries it.';
    } else {
      try {
        decoded.amountCents = parseAmount(decoded.amount);
        amountMessage = decoded.amountCents > 0 ? `${brlAmount(decoded.amountCents)}.` : 'Field 54 is zero; an amount must be above 0.';
      } catch (e) {
        amountMessage = (e as Error).message.replace(/^Malformed BR Code: f/, 'F');
      }
    }
    add('amount', '54', decoded.amount === null ? amountOptional : decoded.amountCents !== null && decoded.amountCents > 0, decoded.amount, amountMessage);

    decoded.country = get('58');
    add('country', '58', decoded.country === 'BR', decoded.country,
      decoded.country === 'BR' ? 'Brazil.' : decoded.country === null ? 'Field 58 (country code) is missing; it must be "BR".' : `Field 58 holds ${JSON.stringify(decoded.country)}; it must be "BR".`, 'BR');

    decoded.merchantName = get('59');
    const nameOk = decoded.merchantName !== null && decoded.merchantName.length >= 1 && decoded.merchantName.length <= 25;
    add('merchantName', '59', nameOk, decoded.merchantName,
      decoded.merchantName === null ? 'Field 59 (merchant name) is missing; it names who receives the money (1 to 25 characters).' : nameOk ? 'Who receives the money.' : `Field 59 has ${decoded.merchantName.length} characters; the merchant name holds 1 to 25.`);

    decoded.merchantCity = get('60');
    const cityOk = decoded.merchantCity !== null && decoded.merchantCity.length >= 1 && decoded.merchantCity.length <= 15;
    add('merchantCity', '60', cityOk, decoded.merchantCity,
      decoded.merchantCity === null ? 'Field 60 (merchant city) is missing; it must hold 1 to 15 characters.' : cityOk ? "The merchant's city." : `Field 60 has ${decoded.merchantCity.length} characters; the merchant city holds 1 to 15.`);

    decoded.txid = subs['62']?.get('05') ?? null;
  }

  const last = top?.list[top.list.length - 1];
  const crcLast = !top || last?.id === '63';
  add(
    'crc',
    '63',
    crc.valid && crcLast,
    crc.found,
    crc.found === null
      ? `Field 63 (CRC) is missing: a BR Code ends with "6304" and 4 hex digits of CRC-16/CCITT-FALSE over everything before them (for this text they would be 6304${crc.expected}).`
      : !crc.valid
        ? `CRC mismatch: the code says ${crc.found} but the text before it gives ${crc.expected}; the code was changed or mistyped after it was made.`
        : !crcLast
          ? 'Field 63 (CRC) must be the last field.'
          : `CRC-16 ${crc.found} matches.`,
    crc.expected,
  );

  return { valid: checks.every((c) => c.ok), code, length: code.length, fields, decoded, crc, checks };
}
