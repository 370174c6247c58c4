// X-Service-Signature (service document 6.4): `sha256=` + hex HMAC-SHA256 of the raw body bytes, keyed with the
// endpoint secret as given (not hashed). The sandbox signs the exact bytes it sends; receivers verify those same bytes,
// before any JSON parsing, with verifyWebhookSignature (exported by the package).
//
// HMAC as RFC 2104 writes it: H((K ^ opad) || H((K ^ ipad) || body)). The two keyed hash states (after the padded key's
// one block each) depend on the secret alone, so they are made once per secret and copied per body (Hash#copy), rather
// than createHmac preparing the key and its hash contexts at every delivery: an endpoint signs every delivery with the
// same secret. Same bytes as createHmac (tested against it and against openssl).
import { createHash, timingSafeEqual, type Hash } from 'node:crypto';

export type RawBody = string | Uint8Array | ArrayBuffer;

const bytesOf = (body: RawBody): Uint8Array | string => (body instanceof ArrayBuffer ? new Uint8Array(body) : body);

/** SHA-256's block size: a longer key is hashed first, a shorter one padded with zeros (RFC 2104 section 2). */
const BLOCK = 64;
/** Keyed states kept (an account's endpoints, a CI suite's tenants); past that the cache starts again. */
const KEYED_CACHE = 256;
const keyedStates = new Map<string, { inner: Hash; outer: Hash }>();

function keyed(secret: string): { inner: Hash; outer: Hash } {
  let found = keyedStates.get(secret);
  if (!found) {
    let key = Buffer.from(secret, 'utf8');
    if (key.length > BLOCK) key = createHash('sha256').update(key).digest();
    const ipad = Buffer.alloc(BLOCK, 0x36);
    const opad = Buffer.alloc(BLOCK, 0x5c);
    for (let i = 0; i < key.length; i++) {
      ipad[i]! ^= key[i]!;
      opad[i]! ^= key[i]!;
    }
    found = { inner: createHash('sha256').update(ipad), outer: createHash('sha256').update(opad) };
    if (keyedStates.size >= KEYED_CACHE) keyedStates.clear();
    keyedStates.set(secret, found);
  }
  return found;
}

/** The X-Service-Signature value for `body` (a string is taken as UTF-8). */
export function signWebhookBody(body: RawBody, secret: string): string {
  const { inner, outer } = keyed(secret);
  return `sha256=${outer.copy().update(inner.copy().update(bytesOf(body)).digest()).digest('hex')}`;
}

/**
 * True when `signatureHeader` is the signature of exactly these body bytes with `secret`. Compares in constant time;
 * never throws: a missing or malformed header, a parsed object instead of the raw body, or an empty secret is false.
 */
export function verifyWebhookSignature(rawBody: RawBody, signatureHeader: string | null | undefined, secret: string): boolean {
  if (typeof signatureHeader !== 'string' || typeof secret !== 'string' || secret === '') return false;
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array) && !(rawBody instanceof ArrayBuffer)) return false;
  const given = Buffer.from(signatureHeader.trim().toLowerCase());
  const expected = Buffer.from(signWebhookBody(rawBody, secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
