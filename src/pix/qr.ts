// QR code of a BR Code as a PNG data URL, synchronously and over 30 times faster than qrcode.toDataURL.
//
// Where the time goes in qrcode.toDataURL (5-9 ms per BR Code on the reference machine): most of QRCode.create is
// the split of the text into numeric/alphanumeric/byte segments (a graph and Dijkstra) and the choice of the mask
// (8 masks applied, scored module by module through BitMatrix.get and undone); then pngjs writes RGBA pixels.
// Here (about 0.09 ms per BR Code image, measured alone; 0.68 of the time before the 64-module paths below):
// - qrSegments finds the segments by dynamic programming over the characters (never more bits than qrcode's split
//   over 4,000 BR Codes and mixed texts tried, sometimes fewer);
// - the symbol is encoded here at level M (bit stream, Reed-Solomon, block interleaving, placement), straight into
//   rows and columns packed 32 modules to a word, over each version's function patterns (drawn here once per version,
//   as qrcode draws them: qrcode itself is only a test dependency now);
// - the mask is chosen with qrcode's own penalty rules and tie-break, scored on the packed rows and columns, so the
//   matrix is the one QRCode.create(qrSegments(text), { errorCorrectionLevel: 'M' }) returns, module for module
//   (the tests check it, and that a QR decoder reads it back);
// - symbols up to 64 modules a side (versions 1-11: every charge's BR Code) keep a line in two 32-bit locals while
//   the penalties are scored, and Reed-Solomon multiplies through a table per generator;
// - the PNG is 1-bit grayscale, painted from the packed rows (half a byte per module at the default scale) and
//   compressed by png.ts.
import { bilevelPng } from './png';

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
 * What a symbol of one version looks like before its data, cached per version. Lines (rows, or columns) are packed
 * `words` words each, module c of a line at bit c % 32 of word c / 32.
 */
interface Layout {
  size: number;
  words: number;
  /** The function patterns with mask 0's format bits, and every data module as mask 0 leaves a 0 bit. */
  rows: Int32Array;
  cols: Int32Array;
  /** The data modules in placement order (the two-column zigzag from the bottom right): the word and bit each flips in
   * the packed rows and columns when its data bit is 1. */
  rowWord: Int32Array;
  rowBit: Int32Array;
  colWord: Int32Array;
  colBit: Int32Array;
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

/** Centres of the alignment patterns of a version, on each axis (ISO/IEC 18004 annex E, as qrcode computes them). */
function alignmentCoords(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = 17 + 4 * version;
  const step = size === 145 ? 26 : Math.ceil((size - 13) / (2 * count - 2)) * 2;
  const coords = [size - 7];
  for (let i = 1; i < count - 1; i++) coords[i] = coords[i - 1]! - step;
  coords.push(6);
  return coords.reverse();
}

/** Version information (versions 7-40): the version in 6 bits and its BCH(18,6) remainder (generator 0x1f25). */
function versionBits(version: number): number {
  let d = version << 12;
  for (let bit = 17; bit >= 12; bit--) if ((d >>> bit) & 1) d ^= 0x1f25 << (bit - 12);
  return (version << 12) | d;
}

/**
 * The function patterns of a version with mask 0's format bits, as qrcode draws them (finders with their separators,
 * timing, alignment, version information, format information and the dark module): which modules they reserve, and
 * which of those are dark.
 */
function functionPatterns(version: number): { size: number; data: Uint8Array; reserved: Uint8Array } {
  const size = 17 + 4 * version;
  const data = new Uint8Array(size * size);
  const reserved = new Uint8Array(size * size);
  const set = (r: number, c: number, dark: boolean) => {
    data[r * size + c] = dark ? 1 : 0;
    reserved[r * size + c] = 1;
  };
  for (const [row, col] of [[0, 0], [size - 7, 0], [0, size - 7]] as const) {
    for (let r = -1; r <= 7; r++) {
      if (row + r < 0 || row + r >= size) continue;
      for (let c = -1; c <= 7; c++) {
        if (col + c < 0 || col + c >= size) continue;
        set(row + r, col + c, (r >= 0 && r <= 6 && (c === 0 || c === 6)) || (c >= 0 && c <= 6 && (r === 0 || r === 6)) || (r >= 2 && r <= 4 && c >= 2 && c <= 4));
      }
    }
  }
  for (let i = 8; i < size - 8; i++) {
    set(i, 6, i % 2 === 0);
    set(6, i, i % 2 === 0);
  }
  const coords = alignmentCoords(version);
  const last = coords.length - 1;
  coords.forEach((row, i) =>
    coords.forEach((col, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return; // under a finder
      for (let r = -2; r <= 2; r++) for (let c = -2; c <= 2; c++) set(row + r, col + c, r === -2 || r === 2 || c === -2 || c === 2 || (r === 0 && c === 0));
    }),
  );
  for (const [r, c, i] of formatCells(size)) set(r, c, ((FORMAT_BITS_M[0]! >> i) & 1) === 1);
  set(size - 8, 8, true);
  if (version >= 7) {
    const bits = versionBits(version);
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >> i) & 1) === 1;
      set(Math.floor(i / 3), (i % 3) + size - 11, dark);
      set((i % 3) + size - 11, Math.floor(i / 3), dark);
    }
  }
  return { size, data, reserved };
}

function layoutFor(version: number): Layout {
  const cached = layouts.get(version);
  if (cached) return cached;
  const { size, data, reserved } = functionPatterns(version);
  const words = (size + 31) >> 5;
  const rowWord = (r: number, c: number) => r * words + (c >> 5);
  const colWord = (r: number, c: number) => c * words + (r >> 5);
  const toggle = (rows: Int32Array, cols: Int32Array, r: number, c: number) => {
    rows[rowWord(r, c)]! ^= 1 << (c & 31);
    cols[colWord(r, c)]! ^= 1 << (r & 31);
  };
  const rows = new Int32Array(size * words);
  const cols = new Int32Array(size * words);
  const rowFlips = Array.from({ length: 8 }, () => new Int32Array(size * words));
  const colFlips = Array.from({ length: 8 }, () => new Int32Array(size * words));
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (reserved[r * size + c]) {
        if (data[r * size + c]) toggle(rows, cols, r, c);
        continue;
      }
      if (maskAt(0, r, c)) toggle(rows, cols, r, c);
      // From mask 0 to mask p: undo 0, apply p.
      for (let p = 1; p < 8; p++) if (maskAt(0, r, c) !== maskAt(p, r, c)) toggle(rowFlips[p]!, colFlips[p]!, r, c);
    }
  }
  for (const [r, c, i] of formatCells(size)) {
    for (let p = 1; p < 8; p++) if ((((FORMAT_BITS_M[0]! ^ FORMAT_BITS_M[p]!) >> i) & 1) === 1) toggle(rowFlips[p]!, colFlips[p]!, r, c);
  }
  const order: Array<[number, number]> = [];
  for (let col = size - 1, up = true; col > 0; col -= 2, up = !up) {
    if (col === 6) col--;
    for (let k = 0; k < size; k++) {
      const row = up ? size - 1 - k : k;
      for (const c of [col, col - 1]) if (!reserved[row * size + c]) order.push([row, c]);
    }
  }
  const layout: Layout = {
    size,
    words,
    rows,
    cols,
    rowWord: Int32Array.from(order, ([r, c]) => rowWord(r, c)),
    rowBit: Int32Array.from(order, ([, c]) => 1 << (c & 31)),
    colWord: Int32Array.from(order, ([r, c]) => colWord(r, c)),
    colBit: Int32Array.from(order, ([r]) => 1 << (r & 31)),
    rowFlips,
    colFlips,
    valid2: bitsBelow(words, size - 1),
    valid11: bitsBelow(words, size - 10),
  };
  layouts.set(version, layout);
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
 * Stops at the end of the first line that brings the sum to `limit` (the mask can no longer win), returning it.
 */
function linesPenalty(x: Int32Array, size: number, L: Layout, eq: Int32Array, s5: Int32Array, limit: number): number {
  const { words, valid2, valid11 } = L;
  let runWindows = 0;
  let runs = 0;
  let finders = 0;
  for (let off = 0; off < size * words; off += words) {
    for (let w = 0; w < words; w++) {
      // cK: module p + K at bit p. eq(p): modules p and p+1 alike.
      const c0 = x[off + w]!;
      const c1 = shr(x, off, words, w, 1);
      eq[w] = ~(c0 ^ c1) & valid2[w]!;
      // Finder-like windows: both patterns have 0 at 1 and 9 and 101 at 4-6; most words have no such start.
      const common = ~c1 & shr(x, off, words, w, 4) & ~shr(x, off, words, w, 5) & shr(x, off, words, w, 6) & ~shr(x, off, words, w, 9) & valid11[w]!;
      if (common === 0) continue;
      const c2 = shr(x, off, words, w, 2);
      const c3 = shr(x, off, words, w, 3);
      const c7 = shr(x, off, words, w, 7);
      const c8 = shr(x, off, words, w, 8);
      const c10 = shr(x, off, words, w, 10);
      const a = c0 & c2 & c3 & ~(c7 | c8 | c10); // 1011101 0000
      const b = ~(c0 | c2 | c3) & c7 & c8 & c10; // 0000 1011101
      finders += popcount((a | b) & common);
    }
    // s5(p): modules p..p+4 alike.
    for (let w = 0; w < words; w++) s5[w] = eq[w]! & shr(eq, 0, words, w, 1) & shr(eq, 0, words, w, 2) & shr(eq, 0, words, w, 3);
    for (let w = 0; w < words; w++) {
      const s = s5[w]!;
      if (s === 0) continue;
      // A run of length L >= 5 has L-4 windows of 5 and one first window: L-2 = windows + 2 * runs.
      runWindows += popcount(s);
      runs += popcount(s & ~((s << 1) | (w > 0 ? s5[w - 1]! >>> 31 : 0)));
    }
    if (runWindows + 2 * runs + 40 * finders >= limit) break;
  }
  return runWindows + 2 * runs + 40 * finders;
}

/**
 * Finder-like 11-module windows (10111010000 or 00001011101) starting in the word `w` of a line, `next` the word after
 * it (0 past the end), `c1` the line shifted by 1 at this word, `valid` the starts that fit in the line.
 */
function finderWindows(w: number, next: number, c1: number, valid: number): number {
  // Both patterns have 0 at 1 and 9 and 101 at 4-6; most words have no such start.
  const common = ~c1 & ((w >>> 4) | (next << 28)) & ~((w >>> 5) | (next << 27)) & ((w >>> 6) | (next << 26)) & ~((w >>> 9) | (next << 23)) & valid;
  if (common === 0) return 0;
  const c2 = (w >>> 2) | (next << 30);
  const c3 = (w >>> 3) | (next << 29);
  const c7 = (w >>> 7) | (next << 25);
  const c8 = (w >>> 8) | (next << 24);
  const c10 = (w >>> 10) | (next << 22);
  const a = w & c2 & c3 & ~(c7 | c8 | c10);
  const b = ~(w | c2 | c3) & c7 & c8 & c10;
  return popcount((a | b) & common);
}

/**
 * linesPenalty for lines of at most 64 modules (versions 1-11, every BR Code of a charge): a line is two words held
 * in locals (lo: modules 0-31, hi: 32-63), so the shifts are a few operations on registers instead of array reads.
 * Same sums, same early stop.
 */
function linesPenalty64(x: Int32Array, size: number, L: Layout, limit: number): number {
  const { words } = L;
  const v2lo = L.valid2[0]!;
  const v2hi = words > 1 ? L.valid2[1]! : 0;
  const v11lo = L.valid11[0]!;
  const v11hi = words > 1 ? L.valid11[1]! : 0;
  let runWindows = 0;
  let runs = 0;
  let finders = 0;
  for (let off = 0; off < size * words; off += words) {
    const lo = x[off]!;
    const hi = words > 1 ? x[off + 1]! : 0;
    // Module p + k at bit p of (lo, hi) shifted by k.
    const c1lo = (lo >>> 1) | (hi << 31);
    const c1hi = hi >>> 1;
    const eqLo = ~(lo ^ c1lo) & v2lo;
    const eqHi = ~(hi ^ c1hi) & v2hi;
    const s5lo = eqLo & ((eqLo >>> 1) | (eqHi << 31)) & ((eqLo >>> 2) | (eqHi << 30)) & ((eqLo >>> 3) | (eqHi << 29));
    const s5hi = eqHi & (eqHi >>> 1) & (eqHi >>> 2) & (eqHi >>> 3);
    if (s5lo !== 0 || s5hi !== 0) {
      runWindows += popcount(s5lo) + popcount(s5hi);
      runs += popcount(s5lo & ~(s5lo << 1)) + popcount(s5hi & ~((s5hi << 1) | (s5lo >>> 31)));
    }
    finders += finderWindows(lo, hi, c1lo, v11lo);
    if (words > 1) finders += finderWindows(hi, 0, c1hi, v11hi);
    if (runWindows + 2 * runs + 40 * finders >= limit) break;
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

/** blocksPenalty for lines of at most 64 modules (two words in locals, as linesPenalty64). */
function blocksPenalty64(rows: Int32Array, size: number, L: Layout): number {
  const { words } = L;
  const v2lo = L.valid2[0]!;
  const v2hi = words > 1 ? L.valid2[1]! : 0;
  let blocks = 0;
  let dark = 0;
  let alo = rows[0]!;
  let ahi = words > 1 ? rows[1]! : 0;
  for (let r = 0; ; r++) {
    dark += popcount(alo) + popcount(ahi);
    if (r + 1 >= size) break;
    const blo = rows[(r + 1) * words]!;
    const bhi = words > 1 ? rows[(r + 1) * words + 1]! : 0;
    const sameLo = ~(alo ^ blo) & ~(alo ^ ((alo >>> 1) | (ahi << 31))) & ~(blo ^ ((blo >>> 1) | (bhi << 31))) & v2lo;
    const sameHi = ~(ahi ^ bhi) & ~(ahi ^ (ahi >>> 1)) & ~(bhi ^ (bhi >>> 1)) & v2hi;
    blocks += popcount(sameLo) + popcount(sameHi);
    alo = blo;
    ahi = bhi;
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
/** The alphanumeric mode's characters in the order of their values (0-44), and the value of each ASCII code. */
const ALNUM_VALUES = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
const ALNUM_VALUE = Int8Array.from({ length: 128 }, (_, code) => ALNUM_VALUES.indexOf(String.fromCharCode(code)));

/**
 * Splits `text` into numeric, alphanumeric and byte segments of least total length for the version group, by
 * dynamic programming over the characters (costs in sixths of a bit, as in Nayuki's QR Code generator):
 * what QRCode.create does with a graph and Dijkstra, in a fraction of its time.
 */
export function qrSegments(text: string, versionGroup: 0 | 1 | 2 = 0): QrSegment[] {
  const cc = CC_BITS[versionGroup];
  const head = [(4 + cc[0]) * 6, (4 + cc[1]) * 6, (4 + cc[2]) * 6] as const;
  // Per character (code point) i: where it starts in the string, and from[i * 3 + j], the mode of character i on the
  // cheapest path ending in mode j after it (-1: impossible). c0-c2: the cost of those paths so far.
  const starts = new Int32Array(text.length + 1);
  const from = new Int8Array(text.length * 3);
  let c0 = head[0];
  let c1 = head[1];
  let c2 = head[2];
  let n = 0;
  for (let off = 0; off < text.length; n++) {
    const code = text.codePointAt(off)!;
    starts[n] = off;
    off += code > 0xffff ? 2 : 1;
    // Go on in each mode that can hold the character...
    const alnum = code < 0x80 && ALNUM_VALUE[code]! >= 0;
    const digit = code >= 0x30 && code <= 0x39;
    c0 += (code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4) * 48;
    c1 = alnum ? c1 + 33 : Infinity;
    c2 = digit ? c2 + 20 : Infinity;
    let f0 = 0;
    let f1 = alnum ? 1 : -1;
    let f2 = digit ? 2 : -1;
    // ...or end the cheapest segment here (rounded up to a whole bit) and start one in another mode. On a tie the
    // path that goes on wins, then the lower mode.
    const r0 = Math.ceil(c0 / 6) * 6;
    const r1 = Math.ceil(c1 / 6) * 6;
    const r2 = Math.ceil(c2 / 6) * 6;
    const bestMode = r1 < r0 ? (r2 < r1 ? 2 : 1) : r2 < r0 ? 2 : 0;
    const best = bestMode === 0 ? r0 : bestMode === 1 ? r1 : r2;
    if (best + head[0] < c0) {
      c0 = best + head[0];
      f0 = bestMode;
    }
    if (best + head[1] < c1) {
      c1 = best + head[1];
      f1 = bestMode;
    }
    if (best + head[2] < c2) {
      c2 = best + head[2];
      f2 = bestMode;
    }
    from[n * 3] = f0;
    from[n * 3 + 1] = f1;
    from[n * 3 + 2] = f2;
  }
  starts[n] = text.length;
  let mode = c1 < c0 ? 1 : 0;
  if (c2 < (mode ? c1 : c0)) mode = 2;
  const modes = new Int8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    mode = from[i * 3 + mode]!;
    modes[i] = mode;
  }
  const segments: QrSegment[] = [];
  for (let i = 0; i < n; ) {
    let end = i + 1;
    while (end < n && modes[end] === modes[i]) end++;
    segments.push({ mode: MODES[modes[i]!]!, data: text.slice(starts[i]!, starts[end]!) });
    i = end;
  }
  return segments;
}

// Level M error correction per version 1-40 (ISO/IEC 18004 table 9): blocks, and EC codewords per block.
const EC_BLOCKS_M = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
const EC_PER_BLOCK_M = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28];

/** Codewords a symbol of `version` holds (data and EC), from the modules left after the function patterns. */
function totalCodewords(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    modules -= (25 * align - 10) * align - 55;
    if (version >= 7) modules -= 36;
  }
  return modules >> 3;
}
const dataCodewords = (version: number) => totalCodewords(version) - EC_BLOCKS_M[version - 1]! * EC_PER_BLOCK_M[version - 1]!;

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1, and Reed-Solomon generator polynomials per EC length.
const GF_EXP = new Uint8Array(512);
const GF_LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++, x = x & 0x80 ? ((x << 1) ^ 0x11d) & 0xff : x << 1) {
  GF_EXP[i] = x;
  GF_LOG[x] = i;
}
for (let i = 255; i < 512; i++) GF_EXP[i] = GF_EXP[i - 255]!;
const generators = new Map<number, Uint8Array>();
/**
 * The generator (x - a^0)...(x - a^(n-1)) without its leading 1, highest degree first, as the logarithms of its
 * coefficients (none is 0: checked when built).
 */
function generatorLogs(n: number): Uint8Array {
  let g = generators.get(n);
  if (g) return g;
  let poly = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array<number>(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j]! ^= poly[j]!;
      if (poly[j]) next[j + 1]! ^= GF_EXP[GF_LOG[poly[j]!]! + i]!;
    }
    poly = next;
  }
  if (poly.includes(0)) throw new Error(`the generator of degree ${n} has a zero coefficient`);
  g = Uint8Array.from(poly.slice(1), (c) => GF_LOG[c]!);
  generators.set(n, g);
  return g;
}
const rsTables = new Map<number, Uint8Array>();
/** The generator of degree n times each byte value f (f * n + i: coefficient i times f), built once per degree. */
function rsTable(n: number): Uint8Array {
  let t = rsTables.get(n);
  if (t) return t;
  const g = generatorLogs(n);
  t = new Uint8Array(256 * n);
  for (let f = 1; f < 256; f++) for (let i = 0; i < n; i++) t[f * n + i] = GF_EXP[g[i]! + GF_LOG[f]!]!;
  rsTables.set(n, t);
  return t;
}

/** The n EC codewords of `data` (polynomial division by the generator, as a shift register). */
function reedSolomon(data: Uint8Array, n: number): Uint8Array {
  const t = rsTable(n);
  const rem = new Uint8Array(n);
  for (let k = 0; k < data.length; k++) {
    const at = (data[k]! ^ rem[0]!) * n;
    for (let i = 0; i < n - 1; i++) rem[i] = rem[i + 1]! ^ t[at + i]!;
    rem[n - 1] = t[at + n - 1]!;
  }
  return rem;
}

const UTF8 = new TextEncoder();
const MODE_BITS: Record<SegmentMode, number> = { numeric: 0b0001, alphanumeric: 0b0010, byte: 0b0100 };
const ccBits = (mode: SegmentMode, group: number) => CC_BITS[group]![MODES.indexOf(mode)]!;
const groupOf = (version: number): 0 | 1 | 2 => (version <= 9 ? 0 : version <= 26 ? 1 : 2);

/** Bits of the segments for a version of `group`: mode, count and data of each. */
function segmentBits(segments: Array<QrSegment & { bytes?: Uint8Array }>, group: number): number {
  let bits = 0;
  for (const seg of segments) {
    const n = seg.mode === 'byte' ? (seg.bytes ??= UTF8.encode(seg.data)).length : seg.data.length;
    bits += 4 + ccBits(seg.mode, group);
    if (seg.mode === 'numeric') bits += 10 * Math.floor(n / 3) + [0, 4, 7][n % 3]!;
    else if (seg.mode === 'alphanumeric') bits += 11 * Math.floor(n / 2) + 6 * (n % 2);
    else bits += 8 * n;
  }
  return bits;
}

/** The data codewords of the segments in `version`: segments, terminator, zero bits to a byte, then EC 11 pads. */
function dataBytes(segments: Array<QrSegment & { bytes?: Uint8Array }>, version: number): Uint8Array {
  const out = new Uint8Array(dataCodewords(version));
  let pos = 0; // whole bytes written
  let acc = 0; // and the `bits` (0-7) after them, the last at bit 0
  let bits = 0;
  const put = (value: number, n: number) => {
    acc = (acc << n) | value;
    bits += n;
    while (bits >= 8) out[pos++] = acc >>> (bits -= 8);
    acc &= (1 << bits) - 1;
  };
  const group = groupOf(version);
  for (const seg of segments) {
    put(MODE_BITS[seg.mode], 4);
    const d = seg.data;
    if (seg.mode === 'byte') {
      const bytes = seg.bytes ?? UTF8.encode(d);
      put(bytes.length, ccBits('byte', group));
      for (const b of bytes) put(b, 8);
    } else if (seg.mode === 'alphanumeric') {
      put(d.length, ccBits('alphanumeric', group));
      for (let i = 0; i + 1 < d.length; i += 2) put(ALNUM_VALUE[d.charCodeAt(i)]! * 45 + ALNUM_VALUE[d.charCodeAt(i + 1)]!, 11);
      if (d.length % 2) put(ALNUM_VALUE[d.charCodeAt(d.length - 1)]!, 6);
    } else {
      put(d.length, ccBits('numeric', group));
      for (let i = 0; i < d.length; i += 3) {
        const chunk = d.slice(i, i + 3);
        put(Number(chunk), [0, 4, 7, 10][chunk.length]!);
      }
    }
  }
  // The terminator (up to 4 zero bits), zero bits to a byte boundary, then the pad bytes.
  if (bits > 0) out[pos] = acc << (8 - bits);
  const end = (Math.min(pos * 8 + bits + 4, out.length * 8) + 7) >> 3;
  for (let i = end, pad = 0xec; i < out.length; i++, pad ^= 0xec ^ 0x11) out[i] = pad;
  return out;
}

/** Data and EC codewords in transmission order: split into blocks (short ones first), interleaved. */
function codewords(data: Uint8Array, version: number): Uint8Array {
  const blocks = EC_BLOCKS_M[version - 1]!;
  const ec = EC_PER_BLOCK_M[version - 1]!;
  const total = totalCodewords(version);
  const shortLen = Math.floor(total / blocks) - ec;
  const longBlocks = total % blocks;
  const parts: Uint8Array[] = [];
  const ecParts: Uint8Array[] = [];
  for (let b = 0, at = 0; b < blocks; b++) {
    const len = shortLen + (b >= blocks - longBlocks ? 1 : 0);
    const part = data.subarray(at, at + len);
    parts.push(part);
    ecParts.push(reedSolomon(part, ec));
    at += len;
  }
  const out = new Uint8Array(total);
  let k = 0;
  for (let i = 0; i <= shortLen; i++) for (const part of parts) if (i < part.length) out[k++] = part[i]!;
  for (let i = 0; i < ec; i++) for (const part of ecParts) out[k++] = part[i]!;
  return out;
}

/**
 * The mask-0 symbol of `text` at level M, as QRCode.create(qrSegments(text), { maskPattern: 0 }) draws it: the smallest
 * version the segments fit (segments re-split for the larger count fields when that version is 10 or more).
 */
function encode(text: string): { L: Layout; rows0: Int32Array; cols0: Int32Array } {
  for (let group: 0 | 1 | 2 = 0; ; ) {
    const segments = qrSegments(text, group);
    let version = 1;
    while (version <= 40 && segmentBits(segments, groupOf(version)) > dataCodewords(version) * 8) version++;
    if (version > 40) throw new RangeError(`The text is too long for a QR code (${text.length} characters)`);
    if (groupOf(version) > group) {
      group = groupOf(version);
      continue;
    }
    const L = layoutFor(version);
    const bytes = codewords(dataBytes(segments, version), version);
    const rows0 = L.rows.slice();
    const cols0 = L.cols.slice();
    const { rowWord, rowBit, colWord, colBit } = L;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      for (let j = 0; j < 8; j++) {
        if (((byte << j) & 0x80) === 0) continue;
        const k = i * 8 + j;
        rows0[rowWord[k]!]! ^= rowBit[k]!;
        cols0[colWord[k]!]! ^= colBit[k]!;
      }
    }
    return { L, rows0, cols0 };
  }
}

/**
 * The module matrix of `text` at error correction level M: the segments of qrSegments, and the mask qrcode chooses
 * (the same matrix as QRCode.create(qrSegments(text), { errorCorrectionLevel: 'M' })).
 */
export function qrMatrix(text: string): QrMatrix {
  const { size, words, rows, maskPattern } = qrPacked(text);
  const modules = new Uint8Array(size * size);
  for (let r = 0, i = 0; r < size; r++) for (let c = 0; c < size; c++, i++) modules[i] = (rows[r * words + (c >> 5)]! >>> (c & 31)) & 1;
  return { size, modules, maskPattern };
}

/** qrMatrix's symbol as it is made: rows packed `words` words each (module c of a row at bit c % 32 of word c / 32). */
function qrPacked(text: string): { size: number; words: number; rows: Int32Array; maskPattern: number } {
  if (text.length === 0) throw new RangeError('QR text must not be empty');
  // The mask-0 symbol packed by rows and by columns.
  const { L, rows0, cols0 } = encode(text);
  const { size, words } = L;
  const rows = new Int32Array(size * words);
  const cols = new Int32Array(size * words);
  const eq = new Int32Array(words);
  const s5 = new Int32Array(words);
  const apply = (mask: number) => {
    const rf = L.rowFlips[mask]!;
    for (let k = 0; k < rows.length; k++) rows[k] = rows0[k]! ^ rf[k]!;
  };
  let bestMask = 0;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    apply(mask);
    const cf = L.colFlips[mask]!;
    for (let k = 0; k < cols.length; k++) cols[k] = cols0[k]! ^ cf[k]!;
    // Every part is >= 0 and a tie keeps the earlier mask, so the lines stop counting once this mask cannot win.
    let p: number;
    if (words <= 2) {
      p = blocksPenalty64(rows, size, L);
      p += linesPenalty64(rows, size, L, bestPenalty - p);
      p += linesPenalty64(cols, size, L, bestPenalty - p);
    } else {
      p = blocksPenalty(rows, size, L);
      p += linesPenalty(rows, size, L, eq, s5, bestPenalty - p);
      p += linesPenalty(cols, size, L, eq, s5, bestPenalty - p);
    }
    if (p < bestPenalty) {
      bestMask = mask;
      bestPenalty = p;
    }
  }
  apply(bestMask);
  return { size, words, rows, maskPattern: bestMask };
}

export interface QrPngOptions {
  /** Pixels per module (default 4, as qrcode.toDataURL). */
  scale?: number;
  /** Quiet zone in modules (default 4, what the QR standard asks). */
  margin?: number;
}

/** A 1-bit grayscale PNG of the QR code of `text` (error correction M), black on white. */
export function qrPng(text: string, options: QrPngOptions = {}): Buffer {
  const scale = options.scale ?? 4;
  const margin = options.margin ?? 4;
  if (!Number.isInteger(scale) || scale < 1 || scale > 64) throw new RangeError(`scale must be an integer from 1 to 64, got ${scale}`);
  if (!Number.isInteger(margin) || margin < 0 || margin > 64) throw new RangeError(`margin must be an integer from 0 to 64, got ${margin}`);
  const { size, words, rows: symbol } = qrPacked(text);
  const width = (size + 2 * margin) * scale;
  const bytes = (width + 7) >> 3;
  // Row r of the symbol is row r of `pixels`, white (1) but for its dark modules; row `size` is all white (quiet zone).
  const pixels = new Uint8Array((size + 1) * bytes).fill(0xff);
  const rows: Array<[number, number]> = [[size, margin * scale]];
  for (let r = 0; r < size; r++) {
    const line = r * bytes * 8;
    for (let w = 0; w < words; w++) {
      // Each dark module of the word, lowest first.
      for (let bits = symbol[r * words + w]!; bits !== 0; bits &= bits - 1) {
        const c = w * 32 + 31 - Math.clz32(bits & -bits);
        if (scale === 4) {
          // Half a byte: the high one for an even module count from the image's edge.
          pixels[line / 8 + ((margin + c) >> 1)]! &= (margin + c) & 1 ? 0xf0 : 0x0f;
          continue;
        }
        // Clear the module's `scale` pixels, as many as fall in each byte at once.
        for (let x = line + (margin + c) * scale, end = x + scale; x < end; ) {
          const n = Math.min(8 - (x & 7), end - x);
          pixels[x >> 3]! &= ~(((0xff00 >> n) & 0xff) >> (x & 7));
          x += n;
        }
      }
    }
    rows.push([r, scale]);
  }
  rows.push([size, margin * scale]);
  return bilevelPng(width, pixels, rows);
}

/** `data:image/png;base64,...` of a QR code that decodes exactly to `text`. */
export function qrPngDataUrl(text: string, options?: QrPngOptions): string {
  return `data:image/png;base64,${qrPng(text, options).toString('base64')}`;
}
