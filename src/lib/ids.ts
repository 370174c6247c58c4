// Identifier and randomness source. Seeded on demand (`seed` option / SANDBOX_SEED) so that a run can be replayed
// with the same ids; crypto-random otherwise. Domain code takes `RandomInt` from here, never Math.random().
import { randomInt as cryptoRandomInt, randomUUID } from 'node:crypto';
import { customRandom } from 'nanoid';

export type RandomInt = (maxExclusive: number) => number;

export interface Ids {
  uuid(): string;
  /** Random token of `size` characters from `alphabet` (default: [A-Za-z0-9]). */
  token(size: number, alphabet?: string): string;
  randomInt: RandomInt;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** mulberry32: small, fast and good enough for reproducible sandbox ids (never for production secrets). */
function seededBytes(seed: number): (size: number) => Uint8Array {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (size) => {
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = Math.floor(next() * 256);
    return out;
  };
}

function uuidFromBytes(b: Uint8Array): string {
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function createIds(seed?: number): Ids {
  if (seed === undefined) {
    return {
      uuid: () => randomUUID(),
      token: (size, alphabet = ALNUM) => {
        let s = '';
        for (let i = 0; i < size; i++) s += alphabet[cryptoRandomInt(alphabet.length)];
        return s;
      },
      randomInt: (max) => cryptoRandomInt(max),
    };
  }
  const bytes = seededBytes(seed);
  return {
    uuid: () => uuidFromBytes(bytes(16)),
    token: (size, alphabet = ALNUM) => customRandom(alphabet, size, bytes)(),
    randomInt: (max) => {
      const b = bytes(4);
      return (((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0) % max;
    },
  };
}
