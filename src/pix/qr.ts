// QR code of a BR Code as a PNG data URL, synchronously and several times faster than qrcode.toDataURL.
//
// Where the time goes in qrcode.toDataURL (5-9 ms per BR Code on the reference machine): most of QRCode.create is
// the split of the text into numeric/alphanumeric/byte segments (a graph and Dijkstra) and the choice of the mask
// (8 masks applied, scored module by module through BitMatrix.get and undone); then pngjs writes RGBA pixels.
// Here:
// - qrSegments finds the segments by dynamic programming over the characters (never more bits than qrcode's split
//   over 4,000 BR Codes and mixed texts tried, sometimes fewer);
// - QRCode.create is given those segments and a fixed mask 0, so it only encodes (Reed-Solomon, placement);
// - the mask is chosen again with qrcode's own penalty rules and tie-break, but scored on rows and columns packed
//   32 modules to a word, so the matrix is the one QRCode.create(qrSegments(text), { errorCorrectionLevel: 'M' })
//   returns, module for module (the tests check it);
// - the PNG is written by hand: 1-bit grayscale, rows repeated with Buffer.copy, node:zlib deflateSync, a table CRC-32
//   (node:zlib has crc32 only from Node 22).
import { deflateSync } from 'node:zlib';
import QRCode, { type QRCodeSegment } from 'qrcode';

export interface QrMatrix {
  /** Modules per side. */
  size: number;
  /** Row-major, 1 = dark. */
  modules: Uint8Array;
  /** The mask pattern chosen (0-7). */
  maskPattern: number;
}

// Format information (ISO/IEC 18004 7.9): 2 bits of error correction level (M = 00) and 3 of mask, BCH(15,5), xor mask.
const G15 = 0b10100110111;
const G15_MASK = 0b101010000010010;
const FORMAT_BITS_M = Array.from({ length: 8 }, (_, mask) => {
  const data = (0b00 << 3) | mask;
  let d = data << 10;
  for (let bit = 14; bit >= 10; bit--) if ((d >>> bit) & 1) d ^= G15 << (bit - 10);
  return ((data << 10) | d) ^ G15_MASK;
});

/** The 15 format cells (row, col) of a symbol, twice (vertical copy then horizontal), as qrcode's setupFormatInfo. */
function formatCells(size: number): Array<[number, number, number]> {
  const cells: Array<[number, number, number]> = [];
  for (let i = 0; i < 15; i++) {
    cells.push([i < 6 ? i : i < 8 ? i + 1 : size - 15 + i, 8, i]);
    cells.push([8, i < 8 ? size - i - 1 : i < 9 ? 15 - i : 15 - i - 1, i]);
  }
  return cells;
}

function maskAt(mask: number, i: number, j: number): boolean {
  switch (mask) {
    case 0: return (i + j) % 2 === 0;
    case 1: return i % 2 === 0;
    case 2: return j % 3 === 0;
    case 3: return (i + j) % 3 === 0;
    case 4: return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5: return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6: return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default: return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}

/**
 * What depends on the symbol size alone (the reserved modules depend on the version only), cached per size.
 * Lines (rows, or columns) are packed W words each, module c of a line at bit c % 32 of word c / 32.
 */
interface Layout {
  size: number;
  words: number;
  /** Data (unreserved) module indexes, row-major, and for each a byte whose bit p says whether mask p flips it. */
  free: Int32Array;
  flips: Uint8Array;
  /** Per mask: what turns the mask-0 symbol into the mask-p one (data flips of 0 and p, format bits of 0 and p). */
  rowFlips: Int32Array[];
  colFlips: Int32Array[];
  /** Valid start positions of a 2-module (p <= size-2) and an 11-module (p <= size-11) window in a line. */
  valid2: Int32Array;
  valid11: Int32Array;
}
const layouts = new Map<number, Layout>();

function bitsBelow(words: number, n: number): Int32Array {
  const out = new Int32Array(words);
  for (let p = 0; p < Math.max(n, 0); p++) out[p >> 5]! |= 1 << (p & 31);
  return out;
}

function layoutFor(size: number, reserved: Uint8Array): Layout {
  const cached = layouts.get(size);
  if (cached) return cached;
  const words = (size + 31) >> 5;
  const free: number[] = [];
  const flips: number[] = [];
  const rowFlips = Array.from({ length: 8 }, () => new Int32Array(size * words));
  const colFlips = Array.from({ length: 8 }, () => new Int32Array(size * words));
  const flip = (p: number, r: number, c: number) => {
    rowFlips[p]![r * words + (c >> 5)]! ^= 1 << (c & 31);
    colFlips[p]![c * words + (r >> 5)]! ^= 1 << (r & 31);
  };
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (reserved[r * size + c]) continue;
      let bits = 0;
      for (let p = 0; p < 8; p++) if (maskAt(p, r, c)) bits |= 1 << p;
      free.push(r * size + c);
      flips.push(bits);
      // From mask 0 to mask p: undo 0, apply p.
      for (let p = 0; p < 8; p++) if (((bits & 1) ^ ((bits >> p) & 1)) === 1) flip(p, r, c);
    }
  }
  for (const [r, c, i] of formatCells(size)) {
    for (let p = 0; p < 8; p++) if ((((FORMAT_BITS_M[0]! ^ FORMAT_BITS_M[p]!) >> i) & 1) === 1) flip(p, r, c);
  }
  const layout: Layout = {
    size,
    words,
    free: Int32Array.from(free),
    flips: Uint8Array.from(flips),
    rowFlips,
    colFlips,
    valid2: bitsBelow(words, size - 1),
    valid11: bitsBelow(words, size - 10),
  };
  layouts.set(size, layout);
  return layout;
}

function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Word w of the line at `off` shifted by k (1-31) towards position 0: bit p holds module p + k. */
function shr(x: Int32Array, off: number, words: number, w: number, k: number): number {
  return (x[off + w]! >>> k) | (w + 1 < words ? x[off + w + 1]! << (32 - k) : 0);
}

/**
 * qrcode's N1 and N3 penalties along the lines of `x`: runs of 5 or more modules of one colour score length - 2;
 * each 11-module window reading 10111010000 or 00001011101 scores 40. `eq` and `s5` are scratch (words long).
 */
function linesPenalty(x: Int32Array, size: number, L: Layout, eq: Int32Array, s5: Int32Array): number {
  const { words, valid2, valid11 } = L;
  let runWindows = 0;
  let runs = 0;
  let finders = 0;
  for (let off = 0; off < size * words; off += words) {
    // eq(p): modules p and p+1 alike; s5(p): modules p..p+4 alike.
    for (let w = 0; w < words; w++) eq[w] = ~(x[off + w]! ^ shr(x, off, words, w, 1)) & valid2[w]!;
    for (let w = 0; w < words; w++) s5[w] = eq[w]! & shr(eq, 0, words, w, 1) & shr(eq, 0, words, w, 2) & shr(eq, 0, words, w, 3);
    for (let w = 0; w < words; w++) {
      const s = s5[w]!;
      if (s === 0) continue;
      // A run of length L >= 5 has L-4 windows of 5 and one first window: L-2 = windows + 2 * runs.
      runWindows += popcount(s);
      runs += popcount(s & ~((s << 1) | (w > 0 ? s5[w - 1]! >>> 31 : 0)));
    }
    for (let w = 0; w < words; w++) {
      const v = valid11[w]!;
      if (v === 0) continue;
      const c0 = x[off + w]!;
      const c1 = shr(x, off, words, w, 1);
      const c2 = shr(x, off, words, w, 2);
      const c3 = shr(x, off, words, w, 3);
      const c4 = shr(x, off, words, w, 4);
      const c5 = shr(x, off, words, w, 5);
      const c6 = shr(x, off, words, w, 6);
      const c7 = shr(x, off, words, w, 7);
      const c8 = shr(x, off, words, w, 8);
      const c9 = shr(x, off, words, w, 9);
      const c10 = shr(x, off, words, w, 10);
      const a = c0 & ~c1 & c2 & c3 & c4 & ~c5 & c6 & ~(c7 | c8 | c9 | c10);
      const b = ~(c0 | c1 | c2 | c3) & c4 & ~c5 & c6 & c7 & c8 & ~c9 & c10;
      finders += popcount((a | b) & v);
    }
  }
  return runWindows + 2 * runs + 40 * finders;
}

/** qrcode's N2 (2x2 blocks of one colour, 3 each) and N4 (dark share away from 50%, 10 per 5% step), on packed rows. */
function blocksPenalty(rows: Int32Array, size: number, L: Layout): number {
  const { words, valid2 } = L;
  let blocks = 0;
  let dark = 0;
  for (let off = 0; off < size * words; off += words) {
    for (let w = 0; w < words; w++) dark += popcount(rows[off + w]!);
    if (off + words >= size * words) break;
    const next = off + words;
    for (let w = 0; w < words; w++) {
      const a = rows[off + w]!;
      const b = rows[next + w]!;
      const same = ~(a ^ b) & ~(a ^ shr(rows, off, words, w, 1)) & ~(b ^ shr(rows, next, words, w, 1)) & valid2[w]!;
      blocks += popcount(same);
    }
  }
  return blocks * 3 + Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10) * 10;
}

type SegmentMode = 'numeric' | 'alphanumeric' | 'byte';
export interface QrSegment {
  mode: SegmentMode;
  data: string;
}

const MODES: readonly SegmentMode[] = ['byte', 'alphanumeric', 'numeric'];
/** Character count indicator bits per mode (byte, alphanumeric, numeric) for versions 1-9, 10-26, 27-40. */
const CC_BITS = [
  [8, 9, 10],
  [16, 11, 12],
  [16, 13, 14],
] as const;
const ALNUM = ' $%*+-./:0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Splits `text` into numeric, alphanumeric and byte segments of least total length for the version group, by
 * dynamic programming over the characters (costs in sixths of a bit, as in Nayuki's QR Code generator):
 * what QRCode.create does with a graph and Dijkstra, in a fraction of its time.
 */
export function qrSegments(text: string, versionGroup: 0 | 1 | 2 = 0): QrSegment[] {
  const chars = Array.from(text);
  const n = chars.length;
  const cc = CC_BITS[versionGroup];
  const head = [(4 + cc[0]) * 6, (4 + cc[1]) * 6, (4 + cc[2]) * 6];
  // from[i * 3 + j]: the mode of character i on the cheapest path ending in mode j after it (-1: impossible).
  const from = new Int8Array(n * 3).fill(-1);
  let prev = head.slice();
  for (let i = 0; i < n; i++) {
    const ch = chars[i]!;
    const code = ch.codePointAt(0)!;
    const cur = [Infinity, Infinity, Infinity];
    const utf8 = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    cur[0] = prev[0]! + utf8 * 48;
    from[i * 3] = 0;
    if (ALNUM.includes(ch)) {
      cur[1] = prev[1]! + 33;
      from[i * 3 + 1] = 1;
    }
    if (code >= 0x30 && code <= 0x39) {
      cur[2] = prev[2]! + 20;
      from[i * 3 + 2] = 2;
    }
    // Or end the segment here and start one in another mode.
    for (let j = 0; j < 3; j++) {
      for (let k = 0; k < 3; k++) {
        if (from[i * 3 + k]! < 0) continue;
        const cost = Math.ceil(cur[k]! / 6) * 6 + head[j]!;
        if (from[i * 3 + j]! < 0 || cost < cur[j]!) {
          cur[j] = cost;
          from[i * 3 + j] = k;
        }
      }
    }
    prev = cur;
  }
  let mode = 0;
  for (let j = 1; j < 3; j++) if (prev[j]! < prev[mode]!) mode = j;
  const modes = new Int8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    mode = from[i * 3 + mode]!;
    modes[i] = mode;
  }
  const segments: QrSegment[] = [];
  for (let i = 0; i < n; ) {
    let end = i + 1;
    while (end < n && modes[end] === modes[i]) end++;
    segments.push({ mode: MODES[modes[i]!]!, data: chars.slice(i, end).join('') });
    i = end;
  }
  return segments;
}

/** Encodes with mask 0 (its choice is redone below), with segments sized for the version group it lands in. */
function encode(text: string): ReturnType<typeof QRCode.create> {
  let group: 0 | 1 | 2 = 0;
  for (;;) {
    const qr = QRCode.create(qrSegments(text, group) as QRCodeSegment[], { errorCorrectionLevel: 'M', maskPattern: 0 });
    const landed = qr.version <= 9 ? 0 : qr.version <= 26 ? 1 : 2;
    if (landed <= group) return qr;
    group = landed;
  }
}

/**
 * The module matrix of `text` at error correction level M: the segments of qrSegments, and the mask qrcode chooses
 * (the same matrix as QRCode.create(qrSegments(text), { errorCorrectionLevel: 'M' })).
 */
export function qrMatrix(text: string): QrMatrix {
  if (text.length === 0) throw new RangeError('QR text must not be empty');
  const { modules } = encode(text);
  const { size } = modules;
  const L = layoutFor(size, modules.reservedBit);
  const { words } = L;
  // The mask-0 symbol packed by rows and by columns.
  const rows0 = new Int32Array(size * words);
  const cols0 = new Int32Array(size * words);
  const data = modules.data;
  for (let r = 0, i = 0; r < size; r++) {
    for (let c = 0; c < size; c++, i++) {
      if (!data[i]) continue;
      rows0[r * words + (c >> 5)]! |= 1 << (c & 31);
      cols0[c * words + (r >> 5)]! |= 1 << (r & 31);
    }
  }
  const rows = new Int32Array(size * words);
  const cols = new Int32Array(size * words);
  const eq = new Int32Array(words);
  const s5 = new Int32Array(words);
  let bestMask = 0;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const rf = L.rowFlips[mask]!;
    const cf = L.colFlips[mask]!;
    for (let k = 0; k < rows.length; k++) {
      rows[k] = rows0[k]! ^ rf[k]!;
      cols[k] = cols0[k]! ^ cf[k]!;
    }
    const p = linesPenalty(rows, size, L, eq, s5) + linesPenalty(cols, size, L, eq, s5) + blocksPenalty(rows, size, L);
    if (p < bestPenalty) {
      bestMask = mask;
      bestPenalty = p;
    }
  }
  const out = data.slice();
  if (bestMask !== 0) {
    const { free, flips } = L;
    for (let n = 0; n < free.length; n++) out[free[n]!] = out[free[n]!]! ^ ((flips[n]! ^ (flips[n]! >> bestMask)) & 1);
    for (const [r, c, i] of formatCells(size)) out[r * size + c] = (FORMAT_BITS_M[bestMask]! >> i) & 1;
  }
  return { size, modules: out, maskPattern: bestMask };
}

const CRC32_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 (zlib's) of buf[start, end); node:zlib only has crc32 from Node 22. */
function crc32(buf: Uint8Array, start: number, end: number): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC32_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
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

export interface QrPngOptions {
  /** Pixels per module (default 4, as qrcode.toDataURL). */
  scale?: number;
  /** Quiet zone in modules (default 4, what the QR standard asks). */
  margin?: number;
}

/** A 1-bit grayscale PNG of the QR code of `text` (error correction M), black on white. */
// Level 1: on these rows (mostly Up-filtered zeros) about 30 us per image, a quarter of the default level's cost, for
// a PNG a few % larger. (Measured: RLE and smaller windows or memLevel are slower here.)
const DEFLATE = { level: 1 };

export function qrPng(text: string, options: QrPngOptions = {}): Buffer {
  const scale = options.scale ?? 4;
  const margin = options.margin ?? 4;
  if (!Number.isInteger(scale) || scale < 1 || scale > 64) throw new RangeError(`scale must be an integer from 1 to 64, got ${scale}`);
  if (!Number.isInteger(margin) || margin < 0 || margin > 64) throw new RangeError(`margin must be an integer from 0 to 64, got ${margin}`);
  const { size, modules } = qrMatrix(text);
  const width = (size + 2 * margin) * scale;
  const stride = 1 + ((width + 7) >> 3);
  // Each distinct pixel row is written once with filter 0 (None); a row equal to the one above it is filter 2 (Up)
  // with zero bytes, which is most rows (modules are `scale` rows tall, margins are white): deflate then has long runs
  // of zeros, and costs a fraction of what repeated literal rows cost.
  const raw = Buffer.alloc(stride * width); // zeros: an Up row that repeats the row above
  const fullRow = (y: number, fill: number) => {
    raw[y * stride] = 0;
    raw.fill(fill, y * stride + 1, (y + 1) * stride);
  };
  for (let y = 0; y < width; y++) raw[y * stride] = 2;
  fullRow(0, 0xff); // top margin: white
  for (let r = 0; r < size; r++) {
    const y = (margin + r) * scale;
    fullRow(y, 0xff);
    const rowStart = y * stride;
    for (let c = 0; c < size; c++) {
      if (!modules[r * size + c]) continue;
      for (let x = (margin + c) * scale, end = x + scale; x < end; x++) {
        raw[rowStart + 1 + (x >> 3)] = raw[rowStart + 1 + (x >> 3)]! & ~(0x80 >> (x & 7));
      }
    }
  }
  if (margin > 0) fullRow((margin + size) * scale, 0xff); // bottom margin: white again
  const idat = deflateSync(raw, DEFLATE);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(width, 4);
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

/** `data:image/png;base64,...` of a QR code that decodes exactly to `text`. */
export function qrPngDataUrl(text: string, options?: QrPngOptions): string {
  return `data:image/png;base64,${qrPng(text, options).toString('base64')}`;
}
