// A 1-bit grayscale PNG of an image made of repeated rows (a QR module is `scale` pixel rows tall), compressed here
// rather than by node:zlib: deflateSync spent ~26 us per QR image (7 us of it setting up a stream), which was a tenth
// of POST /v2/pix. The image's shape makes a good deflate stream easy to write directly (RFC 1950 and 1951):
// - one block with a constant Huffman table made for QR rows at 4 pixels per module, whose bytes are nearly all
//   00 (black), ff (white), 0f and f0 (a module boundary): 2-3 bits each, every other byte 10-11 bits;
// - a run of 4 or more equal bytes is one literal and a copy at distance 1 (the quiet zone, long runs of one colour);
// - each repeat of a row is a copy of the row above (filter 0 everywhere, so a repeated row is the same bytes).
import { crc32 } from '../lib/crc32';

/** Reverses the low `n` bits of `code`: Huffman codes are sent from their top bit, into a stream packed LSB first. */
function reverse(code: number, n: number): number {
  let out = 0;
  for (let i = 0; i < n; i++) out |= ((code >> i) & 1) << (n - 1 - i);
  return out;
}

/** Canonical Huffman codes (RFC 1951 3.2.2) for code lengths that make a complete code, ready to write LSB first. */
function canonicalCodes(lengths: readonly number[]): Uint16Array {
  const count = new Array<number>(16).fill(0);
  for (const l of lengths) if (l > 0) count[l]!++;
  const next = new Array<number>(16).fill(0);
  for (let bits = 1, code = 0; bits < 16; bits++) next[bits] = code = (code + (bits > 1 ? count[bits - 1]! : 0)) << 1;
  return Uint16Array.from(lengths, (l) => (l > 0 ? reverse(next[l]!++, l) : 0));
}

// The literal/length alphabet (0-255 bytes, 256 end of block, 257-285 copy lengths): 2 bits for 00 and ff, 3 for 0f
// and f0, and the remaining quarter of the code space over the other 282 symbols: 10 bits below 232, 11 from there
// (mostly the lengths and the end of block, used a few times per image). 2/4 + 2/8 + 230/1024 + 52/2048 = 1.
const LIT_LENGTHS = Array.from({ length: 286 }, (_, s) => (s === 0x00 || s === 0xff ? 2 : s === 0x0f || s === 0xf0 ? 3 : s < 232 ? 10 : 11));
// Distances 1-32768 in 30 codes: 4 bits for codes 0 and 1 (distances 1 and 2: runs), 5 for the rest. 2/16 + 28/32 = 1.
const DIST_LENGTHS = Array.from({ length: 30 }, (_, d) => (d < 2 ? 4 : 5));
const LIT_CODES = canonicalCodes(LIT_LENGTHS);
const DIST_CODES = canonicalCodes(DIST_LENGTHS);
const LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const MAX_COPY = 258;
const ADLER_MOD = 65521;

/** The index of the last base not above `value`. */
const codeOf = (bases: readonly number[], value: number) => {
  let i = bases.length - 1;
  while (bases[i]! > value) i--;
  return i;
};

/** A zlib stream written bit by bit, with the Adler-32 of what it decompresses to. */
class ZlibWriter {
  out = new Uint8Array(1024);
  pos = 0;
  acc = 0; // bits not yet in `out`, the first at bit 0
  n = 0;
  private a = 1;
  private b = 0;

  private bits(value: number, n: number): void {
    this.acc |= value << this.n;
    this.n += n;
    while (this.n >= 8) {
      if (this.pos === this.out.length) {
        const grown = new Uint8Array(this.out.length * 2);
        grown.set(this.out);
        this.out = grown;
      }
      this.out[this.pos++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.n -= 8;
    }
  }

  private symbol(s: number): void {
    this.bits(LIT_CODES[s]!, LIT_LENGTHS[s]!);
  }

  /** Copies of the bytes `distance` back, `total` of them (at least 3), as copies of at most 258. */
  private copy(total: number, distance: number): void {
    const d = codeOf(DIST_BASE, distance);
    while (total > 0) {
      // Never leave 1 or 2 bytes: a copy is at least 3 long.
      const len = total > MAX_COPY && total - MAX_COPY < 3 ? total - 3 : Math.min(total, MAX_COPY);
      const l = codeOf(LEN_BASE, len);
      this.symbol(257 + l);
      if (LEN_EXTRA[l]) this.bits(len - LEN_BASE[l]!, LEN_EXTRA[l]!);
      this.bits(DIST_CODES[d]!, DIST_LENGTHS[d]!);
      if (DIST_EXTRA[d]) this.bits(distance - DIST_BASE[d]!, DIST_EXTRA[d]!);
      total -= len;
    }
  }

  /** Room for `n` more bytes in `out`. */
  private reserve(n: number): void {
    if (this.pos + n <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.pos + n));
    grown.set(this.out);
    this.out = grown;
  }

  /** A row (filter byte 0, then buf[start, end)) and `times - 1` copies of it; Adler-32 advances a row at a time. */
  row(buf: Uint8Array, start: number, end: number, times: number): void {
    // Literals go straight into `out` from locals (at most 11 bits a byte); a run of 4 or more is one literal and a
    // copy (written by copy(), the locals saved and taken back around it).
    this.reserve((((end - start + 1) * 11) >> 3) + 8);
    let out = this.out;
    let pos = this.pos;
    let acc = this.acc | (LIT_CODES[0]! << this.n);
    let n = this.n + LIT_LENGTHS[0]!;
    let sum = 0; // of the bytes, and of their running sums (what a row adds to Adler's b beyond its length * a)
    let weighted = 0;
    for (let i = start; i < end; ) {
      const byte = buf[i]!;
      let runEnd = i + 1;
      while (runEnd < end && buf[runEnd] === byte) runEnd++;
      const run = runEnd - i;
      const code = LIT_CODES[byte]!;
      const len = LIT_LENGTHS[byte]!;
      for (let k = run >= 4 ? run - 1 : 0; k < run; k++) {
        acc |= code << n;
        n += len;
        while (n >= 8) {
          out[pos++] = acc & 0xff;
          acc >>>= 8;
          n -= 8;
        }
      }
      if (run >= 4) {
        this.pos = pos;
        this.acc = acc;
        this.n = n;
        this.copy(run - 1, 1);
        this.reserve((((end - runEnd) * 11) >> 3) + 8);
        ({ out, pos, acc, n } = this);
      }
      // Adler over the run at once: each byte adds to the sum, each running sum to `weighted`.
      weighted += run * sum + (byte * run * (run + 1)) / 2;
      sum += byte * run;
      i = runEnd;
    }
    this.pos = pos;
    this.acc = acc;
    this.n = n;
    this.finishRow(start, end, times, sum, weighted);
  }

  /** The copies of a row written, and Adler-32 advanced over it `times` times. */
  private finishRow(start: number, end: number, times: number, sum: number, weighted: number): void {
    const length = 1 + end - start;
    if (times > 1) this.copy((times - 1) * length, length);
    for (let t = 0; t < times; t++) {
      this.b = (this.b + length * this.a + weighted) % ADLER_MOD;
      this.a = (this.a + sum) % ADLER_MOD;
    }
  }

  /** The end-of-block symbol, the last byte, and the Adler-32 (most significant byte first): the finished stream. */
  end(): Uint8Array {
    this.symbol(256);
    if (this.n > 0) this.bits(0, 8 - this.n);
    for (const shift of [24, 16, 8, 0]) this.bits((((this.b << 16) | this.a) >>> shift) & 0xff, 8);
    return this.out.subarray(0, this.pos);
  }

  private static header: ZlibWriter | undefined;

  /** A stream with its zlib header and the block's header written (built once, then copied). */
  static start(): ZlibWriter {
    const h = (ZlibWriter.header ??= ZlibWriter.writeHeader());
    const z = new ZlibWriter();
    z.out.set(h.out.subarray(0, h.pos));
    z.pos = h.pos;
    z.acc = h.acc;
    z.n = h.n;
    return z;
  }

  private static writeHeader(): ZlibWriter {
    const z = new ZlibWriter();
    z.bits(0x78, 8); // deflate, 32 KiB window
    z.bits(0x01, 8); // no dictionary, fastest (CMF * 256 + FLG is a multiple of 31)
    z.bits(1, 1); // the last block
    z.bits(2, 2); // with its own Huffman codes
    z.bits(286 - 257, 5);
    z.bits(30 - 1, 5);
    // The code lengths are themselves Huffman coded (only 2, 3, 4, 5, 10 and 11 occur), with these lengths.
    const clLengths = new Array<number>(19).fill(0);
    Object.assign(clLengths, { 10: 1, 11: 2, 5: 3, 4: 4, 2: 5, 3: 5 });
    const clCodes = canonicalCodes(clLengths);
    const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
    z.bits(order.length - 4, 4);
    for (const s of order) z.bits(clLengths[s]!, 3);
    for (const l of [...LIT_LENGTHS, ...DIST_LENGTHS]) z.bits(clCodes[l]!, clLengths[l]!);
    return z;
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Writes one chunk (length, type, data, CRC over type and data) at `pos`; returns the position after it. */
function writeChunk(out: Buffer, pos: number, type: string, data: Uint8Array): number {
  out.writeUInt32BE(data.length, pos);
  out.write(type, pos + 4, 'latin1');
  out.set(data, pos + 8);
  out.writeUInt32BE(crc32(out, pos + 4, pos + 8 + data.length), pos + 8 + data.length);
  return pos + 12 + data.length;
}

/**
 * A 1-bit grayscale PNG `width` pixels wide (1 is white; bit 7 of a row's first byte is its first pixel), drawn from
 * the rows of `pixels`, ceil(width / 8) bytes each: `rows` lists, top to bottom, which row of `pixels` comes next and
 * how many times in a row.
 */
export function bilevelPng(width: number, pixels: Uint8Array, rows: ReadonlyArray<readonly [row: number, times: number]>): Buffer {
  const z = ZlibWriter.start();
  const bytes = (width + 7) >> 3;
  let height = 0;
  for (const [row, times] of rows) {
    if (times === 0) continue;
    z.row(pixels, row * bytes, (row + 1) * bytes, times);
    height += times;
  }
  const idat = z.end();
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  // compression, filter and interlace methods: 0
  const out = Buffer.allocUnsafe(8 + 25 + 12 + idat.length + 12);
  out.set(PNG_SIGNATURE, 0);
  let pos = writeChunk(out, 8, 'IHDR', ihdr);
  pos = writeChunk(out, pos, 'IDAT', idat);
  writeChunk(out, pos, 'IEND', new Uint8Array(0));
  return out;
}
