// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), as the BR Code's field 63 requires.

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    table[n] = c;
  }
  return table;
})();

const HEX = '0123456789ABCDEF';

/** CRC-16/CCITT-FALSE of the UTF-8 bytes of `text` (for ASCII, of its characters), as 4 uppercase hex digits. */
export function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) {
      ascii = false;
      break;
    }
    crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >>> 8) ^ c) & 0xff]!;
  }
  if (!ascii) {
    crc = 0xffff;
    for (const b of Buffer.from(text, 'utf8')) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >>> 8) ^ b) & 0xff]!;
  }
  return HEX[(crc >>> 12) & 15]! + HEX[(crc >>> 8) & 15]! + HEX[(crc >>> 4) & 15]! + HEX[crc & 15]!;
}
