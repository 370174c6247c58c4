// X-Service-Signature (service document 6.4): `sha256=` + hex HMAC-SHA256 of the raw body bytes, keyed with the
// endpoint secret as given (not hashed). The sandbox signs the exact bytes it sends; receivers verify those same bytes,
// before any JSON parsing, with verifyWebhookSignature (exported by the package).
import { createHmac, timingSafeEqual } from 'node:crypto';

export type RawBody = string | Uint8Array | ArrayBuffer;

const bytesOf = (body: RawBody): Uint8Array | string => (body instanceof ArrayBuffer ? new Uint8Array(body) : body);

/** The X-Service-Signature value for `body` (a string is taken as UTF-8). */
export function signWebhookBody(body: RawBody, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(bytesOf(body)).digest('hex')}`;
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
