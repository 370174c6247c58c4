// CRC-32 (zlib's polynomial) in JavaScript: for the PNG chunks of QR images and the journal's line checksums.
// node:zlib has crc32 only from Node 20.15 / 22.2, and this package runs on any Node 20.
const CRC32_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 of buf[start, end). */
export function crc32(buf: Uint8Array, start = 0, end = buf.length): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC32_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
