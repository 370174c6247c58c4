// A certificate and its key as one PKCS#12 (.p12 / .pfx) file, which API Pix SDKs and Java key stores read, made by
// pkijs. Both parts are encrypted with the passphrase (PBES2: PBKDF2-SHA256 and AES-256-CBC) and the whole is sealed
// by a SHA-256 HMAC from it: what OpenSSL 3 writes by default, and what OpenSSL 3, Node, curl and Java 11+ read.
import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { PemPair } from './certificates';

const ITERATIONS = 2048;
const OID = { certBag: '1.2.840.113549.1.12.10.1.3', shroudedKeyBag: '1.2.840.113549.1.12.10.1.2', friendlyName: '1.2.840.113549.1.9.20', localKeyId: '1.2.840.113549.1.9.21' };

function der(pem: string, label: string): ArrayBuffer {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`).exec(pem);
  if (!m) throw new Error(`no ${label} block`);
  const bytes = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The bag attributes that pair a certificate with its key (localKeyID) and name them for key stores (friendlyName). */
const attributes = (name: string, keyId: ArrayBuffer) => [
  new pkijs.Attribute({ type: OID.friendlyName, values: [new asn1js.BmpString({ value: name })] }),
  new pkijs.Attribute({ type: OID.localKeyId, values: [new asn1js.OctetString({ valueHex: keyId })] }),
];

/** `pair` (its certificate and PKCS#8 key) as PKCS#12 bytes under `passphrase`; `name` is the key store alias. */
export async function toPkcs12(pair: PemPair, passphrase: string, name: string): Promise<Buffer> {
  pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as never }));
  const password = new TextEncoder().encode(passphrase).buffer as ArrayBuffer;
  const keyId = webcrypto.getRandomValues(new Uint8Array(20)).buffer as ArrayBuffer;
  const params = { password, contentEncryptionAlgorithm: { name: 'AES-CBC', length: 256 }, hmacHashAlgorithm: 'SHA-256', iterationCount: ITERATIONS };
  const keyBag = new pkijs.PKCS8ShroudedKeyBag({ parsedValue: pkijs.PrivateKeyInfo.fromBER(der(pair.key, 'PRIVATE KEY')) });
  const pfx = new pkijs.PFX({
    parsedValue: {
      integrityMode: 0,
      authenticatedSafe: new pkijs.AuthenticatedSafe({
        parsedValue: {
          safeContents: [
            { privacyMode: 1, value: new pkijs.SafeContents({ safeBags: [new pkijs.SafeBag({ bagId: OID.certBag, bagValue: new pkijs.CertBag({ parsedValue: pkijs.Certificate.fromBER(der(pair.cert, 'CERTIFICATE')) }), bagAttributes: attributes(name, keyId) })] }) },
            { privacyMode: 0, value: new pkijs.SafeContents({ safeBags: [new pkijs.SafeBag({ bagId: OID.shroudedKeyBag, bagValue: keyBag, bagAttributes: attributes(name, keyId) })] }) },
          ],
        },
      }),
    },
  });
  await keyBag.makeInternalValues(params);
  await pfx.parsedValue!.authenticatedSafe!.makeInternalValues({ safeContents: [params, {}] });
  await pfx.makeInternalValues({ password, iterations: ITERATIONS, pbkdf2HashAlgorithm: 'SHA-256', hmacHashAlgorithm: 'SHA-256' });
  return Buffer.from(pfx.toSchema().toBER(false));
}
