// QR code of a BR Code as a PNG data URL, synchronously and several times faster than qrcode.toDataURL.
//
// Where the time goes in qrcode.toDataURL (~5-7 ms per BR Code): more than half of QRCode.create is the choice of
// the mask (8 masks applied, scored and undone through BitMatrix.get/set), and the PNG goes through pngjs with RGBA
// pixels. Here: QRCode.create with mask 0 fixed builds the encoded matrix, then the same mask choice as qrcode's
// (same penalty rules, same tie-break) runs on flat arrays, so the modules are identical to QRCode.create's; the
// PNG is written by hand as 1-bit grayscale (one deflated scanline per pixel row, all identical within a module row).
import { deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

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
 * Per symbol size (the reserved modules depend on the version alone): the data module indexes, and for each of them
 * a byte whose bit p says whether mask p flips it.
 */
interface MaskLayout {
  free: Int32Array;
  flips: Uint8Array;
}
const layouts = new Map<number, MaskLayout>();

function maskLayout(size: number, reserved: Uint8Array): MaskLayout {
  const cached = layouts.get(size);
  if (cached) return cached;
  const free: number[] = [];
  const flips: number[] = [];
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      if (reserved[i * size + j]) continue;
      let bits = 0;
      for (let p = 0; p < 8; p++) if (maskAt(p, i, j)) bits |= 1 << p;
      free.push(i * size + j);
      flips.push(bits);
    }
  }
  const layout = { free: Int32Array.from(free), flips: Uint8Array.from(flips) };
  layouts.set(size, layout);
  return layout;
}

/** Writes the 15 format bits (and the fixed dark module) where qrcode's setupFormatInfo puts them. */
function writeFormat(m: Uint8Array, size: number, mask: number): void {
  const bits = FORMAT_BITS_M[mask]!;
  for (let i = 0; i < 15; i++) {
    const mod = (bits >> i) & 1;
    const vRow = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
    m[vRow * size + 8] = mod;
    const hCol = i < 8 ? size - i - 1 : i < 9 ? 15 - i : 15 - i - 1;
    m[8 * size + hCol] = mod;
  }
  m[(size - 8) * size + 8] = 1;
}

/**
 * qrcode's penalty (its N1-N4, weights 3, 3, 40, 10, with its finder-pattern rule), on a flat matrix. `t` is scratch
 * space for the transpose, so that columns are scanned as rows.
 */
function penalty(m: Uint8Array, t: Uint8Array, size: number): number {
  for (let r = 0, i = 0; r < size; r++) for (let c = 0; c < size; c++, i++) t[c * size + r] = m[i]!;
  return linePenalty(m, size) + linePenalty(t, size) + blockPenalty(m, size);
}

/** N1 (runs of 5 or more of one colour) and N3 (1011101 next to 4 light modules) along the rows of `m`. */
function linePenalty(m: Uint8Array, size: number): number {
  let points = 0;
  for (let r = 0, i = 0; r < size; r++) {
    let last = m[i]!;
    let run = 0;
    let bits = 0;
    for (let c = 0; c < size; c++, i++) {
      const v = m[i]!;
      if (v === last) run++;
      else {
        if (run >= 5) points += run - 2;
        last = v;
        run = 1;
      }
      bits = ((bits << 1) & 0x7ff) | v;
      if (c >= 10 && (bits === 0x5d0 || bits === 0x05d)) points += 40;
    }
    if (run >= 5) points += run - 2;
  }
  return points;
}

/** N2 (2x2 blocks of one colour) and N4 (dark proportion away from 50%, in steps of 5%). */
function blockPenalty(m: Uint8Array, size: number): number {
  let blocks = 0;
  let dark = 0;
  for (let r = 0; r < size - 1; r++) {
    let i = r * size;
    let left = m[i]! + m[i + size]!;
    for (let c = 1; c < size; c++) {
      i++;
      const right = m[i]! + m[i + size]!;
      const s = left + right;
      if (s === 4 || s === 0) blocks++;
      dark += left;
      left = right;
    }
    dark += left;
  }
  for (let i = (size - 1) * size; i < size * size; i++) dark += m[i]!;
  // rows 0..size-2 were counted twice (as top and as bottom of a block pair) only in `left`/`right` sums: recount.
  return blocks * 3 + darkPenalty(m);
}

function darkPenalty(m: Uint8Array): number {
  let dark = 0;
  for (let i = 0; i < m.length; i++) dark += m[i]!;
  return Math.abs(Math.ceil((dark * 100) / m.length / 5) - 10) * 10;
}

/** The module matrix of `text` at error correction level M, identical to QRCode.create(text, { errorCorrectionLevel: 'M' }). */
export function qrMatrix(text: string): QrMatrix {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M', maskPattern: 0 });
  const { size } = modules;
  const { free, flips } = maskLayout(size, modules.reservedBit);
  // Undo mask 0 to get the bare data modules.
  const base = Uint8Array.from(modules.data);
  for (let n = 0; n < free.length; n++) base[free[n]!] = base[free[n]!]! ^ (flips[n]! & 1);
  const scratch = new Uint8Array(size * size);
  let best = base;
  let bestMask = 0;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const m = Uint8Array.from(base);
    for (let n = 0; n < free.length; n++) m[free[n]!] = m[free[n]!]! ^ ((flips[n]! >> mask) & 1);
    writeFormat(m, size, mask);
    const p = penalty(m, scratch, size);
    if (p < bestPenalty) {
      best = m;
      bestMask = mask;
      bestPenalty = p;
    }
  }
  return { size, modules: best, maskPattern: bestMask };
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
export function qrPng(text: string, options: QrPngOptions = {}): Buffer {
  const scale = options.scale ?? 4;
  const margin = options.margin ?? 4;
  if (!Number.isInteger(scale) || scale < 1 || scale > 64) throw new RangeError(`scale must be an integer from 1 to 64, got ${scale}`);
  if (!Number.isInteger(margin) || margin < 0 || margin > 64) throw new RangeError(`margin must be an integer from 0 to 64, got ${margin}`);
  const { size, modules } = qrMatrix(text);
  const width = (size + 2 * margin) * scale;
  const stride = 1 + ((width + 7) >> 3);
  // Every byte white (1 bits); filter type 0 at the start of each row is set below.
  const raw = Buffer.alloc(stride * width, 0xff);
  for (let y = 0; y < width; y++) raw[y * stride] = 0;
  for (let r = 0; r < size; r++) {
    const rowStart = (margin + r) * scale * stride;
    for (let c = 0; c < size; c++) {
      if (!modules[r * size + c]) continue;
      for (let x = (margin + c) * scale, end = x + scale; x < end; x++) {
        raw[rowStart + 1 + (x >> 3)] = raw[rowStart + 1 + (x >> 3)]! & ~(0x80 >> (x & 7));
      }
    }
    for (let k = 1; k < scale; k++) raw.copy(raw, rowStart + k * stride, rowStart, rowStart + stride);
  }
  const idat = deflateSync(raw);
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
