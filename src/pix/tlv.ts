// EMV TLV (ID, length, value) as used by the BR Code: a 2-digit id, a 2-digit decimal length and the value itself.
// Lengths count characters; BR Codes are printable ASCII, so characters and bytes are the same thing.

export interface TlvField {
  id: string;
  value: string;
}

const TWO_DIGITS = /^\d{2}$/;

/** Encodes one TLV field: `encodeTlv('59', 'Fulano')` -> `'5906Fulano'`. */
export function encodeTlv(id: string, value: string): string {
  if (!TWO_DIGITS.test(id)) throw new RangeError(`TLV id must be 2 digits, got ${JSON.stringify(id)}`);
  if (value.length > 99) {
    throw new RangeError(`TLV field ${id} holds at most 99 characters, got ${value.length}`);
  }
  return `${id}${value.length < 10 ? '0' : ''}${value.length}${value}`;
}

/** Splits a TLV string into its fields, in order. Throws an Error naming the position of the first malformed field. */
export function parseTlv(text: string): TlvField[] {
  const fields: TlvField[] = [];
  let pos = 0;
  while (pos < text.length) {
    if (text.length - pos < 4) {
      throw new Error(`Malformed TLV at position ${pos}: expected a 2-digit id and a 2-digit length, found ${JSON.stringify(text.slice(pos))}`);
    }
    const id = text.slice(pos, pos + 2);
    const len = text.slice(pos + 2, pos + 4);
    if (!TWO_DIGITS.test(id)) throw new Error(`Malformed TLV at position ${pos}: id must be 2 digits, found ${JSON.stringify(id)}`);
    if (!TWO_DIGITS.test(len)) {
      throw new Error(`Malformed TLV at position ${pos + 2}: length of field ${id} must be 2 digits, found ${JSON.stringify(len)}`);
    }
    const length = Number(len);
    const start = pos + 4;
    if (start + length > text.length) {
      throw new Error(`Malformed TLV: field ${id} at position ${pos} declares ${length} characters but only ${text.length - start} remain`);
    }
    fields.push({ id, value: text.slice(start, start + length) });
    pos = start + length;
  }
  return fields;
}
