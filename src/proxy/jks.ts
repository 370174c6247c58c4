// A Java trust store in the JKS format, written without keytool (Java 17 reads it under any keystore.type): magic
// 0xFEEDFEED, version 2, then one trusted-certificate entry per certificate, then a SHA-1 over the password (UTF-16BE),
// the words "Mighty Aphrodite" and everything before it. The date of each entry is 0, so the same certificates make the
// same bytes (the file is rewritten only when they change).
import { createHash } from 'node:crypto';

const TRUSTED_CERT = 2;

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
/** Java's writeUTF: a 16-bit length, then the bytes (plain ASCII here: aliases and "X.509"). */
const utf = (s: string) => {
  const bytes = Buffer.from(s, 'utf8');
  const b = Buffer.alloc(2);
  b.writeUInt16BE(bytes.length);
  return Buffer.concat([b, bytes]);
};

/** The DER of each certificate of a PEM text. */
export function pemCertificates(pem: string): Buffer[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) => Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64'));
}

/** A JKS trust store of `entries` (alias, DER), its integrity sealed with `password`. */
export function trustStore(entries: readonly { alias: string; der: Buffer }[], password: string): Buffer {
  const parts: Buffer[] = [u32(0xfeedfeed), u32(2), u32(entries.length)];
  for (const { alias, der } of entries) parts.push(u32(TRUSTED_CERT), utf(alias.toLowerCase()), Buffer.alloc(8), utf('X.509'), u32(der.length), der);
  const body = Buffer.concat(parts);
  const secret = Buffer.from(password, 'utf16le').swap16(); // Java's chars, high byte first
  return Buffer.concat([body, createHash('sha1').update(secret).update('Mighty Aphrodite', 'utf8').update(body).digest()]);
}
