// X.509 certificates made in process with pkijs over WebCrypto (ECDSA P-256, SHA-256): no openssl binary, so it works
// the same on Windows. Three kinds: the local CA (self-signed, may sign leaves only), a server leaf, a client leaf.
// Every certificate carries Subject/Authority Key Identifiers and critical basic constraints, which strict verifiers
// demand (Python 3.13's VERIFY_X509_STRICT, Go, Java). Times are real time: TLS peers check real clocks, never the
// sandbox clock.
import { createHash, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const HASH = 'SHA-256';
const DAY_MS = 86_400_000;

const OID = {
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

/** A certificate and its private key, both PEM (the key PKCS#8). */
export interface PemPair {
  cert: string;
  key: string;
}

/** What signing needs of a CA: its certificate (PEM) and private key (PEM), as kept in PIX_SANDBOX_HOME. */
export interface CaMaterial extends PemPair {}

const engine = () => new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as never });

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
}

function derOf(text: string, label: string): ArrayBuffer {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`).exec(text);
  if (!m) throw new Error(`no ${label} block`);
  const bytes = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function name(target: pkijs.RelativeDistinguishedNames, fields: [string, string][]) {
  for (const [type, value] of fields) target.typesAndValues.push(new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) }));
}

function ext(extnID: string, critical: boolean, value: { toBER(sizeOnly?: boolean): ArrayBuffer }) {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

/** KeyUsage bits, most significant first: digitalSignature 0x80, keyCertSign 0x04, cRLSign 0x02. */
function keyUsage(bits: number) {
  let unused = 0;
  while (unused < 7 && !(bits & (1 << unused))) unused++;
  return new asn1js.BitString({ valueHex: new Uint8Array([bits]).buffer, unusedBits: unused });
}

function serial(): asn1js.Integer {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01; // positive and of full length
  return new asn1js.Integer({ valueHex: bytes.buffer });
}

async function keyId(publicKey: webcrypto.CryptoKey): Promise<ArrayBuffer> {
  const raw = Buffer.from(await webcrypto.subtle.exportKey('raw', publicKey));
  const digest = createHash('sha1').update(raw).digest();
  return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength) as ArrayBuffer;
}

const newKeys = () => webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;

async function importCa(ca: CaMaterial) {
  const privateKey = await webcrypto.subtle.importKey('pkcs8', derOf(ca.key, 'PRIVATE KEY'), ALGORITHM, false, ['sign']);
  const cert = pkijs.Certificate.fromBER(derOf(ca.cert, 'CERTIFICATE'));
  const ski = cert.extensions?.find((e) => e.extnID === OID.subjectKeyIdentifier);
  const id = ski ? (asn1js.fromBER(ski.extnValue.valueBlock.valueHexView).result as asn1js.OctetString).valueBlock.valueHexView : undefined;
  return { privateKey, cert, keyIdentifier: id ? (id.slice().buffer as ArrayBuffer) : undefined };
}

interface Spec {
  subject: [string, string][];
  days: number;
  publicKey: webcrypto.CryptoKey;
  extensions: pkijs.Extension[];
  issuer?: { cert: pkijs.Certificate; privateKey: webcrypto.CryptoKey; keyIdentifier?: ArrayBuffer };
  selfKey?: webcrypto.CryptoKey;
}

async function build(spec: Spec): Promise<string> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = serial();
  name(cert.subject, spec.subject);
  if (spec.issuer) cert.issuer = spec.issuer.cert.subject;
  else name(cert.issuer, spec.subject);
  const now = Date.now();
  // An hour of slack either way: a peer whose clock runs a little behind still accepts a certificate made just now.
  const notAfter = now + spec.days * DAY_MS;
  cert.notBefore.value = new Date(Math.min(now - 3_600_000, notAfter - DAY_MS));
  cert.notAfter.value = new Date(notAfter);
  await cert.subjectPublicKeyInfo.importKey(spec.publicKey as never, engine());
  const ownId = await keyId(spec.publicKey);
  const authorityId = spec.issuer ? spec.issuer.keyIdentifier : ownId;
  cert.extensions = [
    ...spec.extensions,
    ext(OID.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: ownId })),
    ...(authorityId ? [ext(OID.authorityKeyIdentifier, false, new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: authorityId }) }).toSchema())] : []),
  ];
  await cert.sign((spec.issuer?.privateKey ?? spec.selfKey) as never, HASH, engine());
  return pem('CERTIFICATE', cert.toSchema(true).toBER(false));
}

const exportKey = async (key: webcrypto.CryptoKey) => pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', key));

/** A new local CA: self-signed, valid `days` (default 10 years), allowed to sign end-entity certificates only. */
export async function createCaMaterial(opts: { commonName?: string; days?: number } = {}): Promise<CaMaterial> {
  const keys = await newKeys();
  const cert = await build({
    // One attribute: pkijs writes several into one multi-valued RDN, which some tools show oddly.
    subject: [[OID.commonName, opts.commonName ?? `pix-sandbox local CA for testing ${Buffer.from(webcrypto.getRandomValues(new Uint8Array(4))).toString('hex')}`]],
    days: opts.days ?? 3650,
    publicKey: keys.publicKey,
    selfKey: keys.privateKey,
    extensions: [
      ext(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: true, pathLenConstraint: 0 }).toSchema()),
      ext(OID.keyUsage, true, keyUsage(0x86)), // digitalSignature, keyCertSign, cRLSign
    ],
  });
  return { cert, key: await exportKey(keys.privateKey) };
}

function altName(value: string): pkijs.GeneralName {
  const family = isIP(value);
  if (!family) return new pkijs.GeneralName({ type: 2, value }); // dNSName
  const bytes = family === 4 ? value.split('.').map(Number) : ipv6Bytes(value);
  return new pkijs.GeneralName({ type: 7, value: new asn1js.OctetString({ valueHex: new Uint8Array(bytes).buffer }) }); // iPAddress
}

function ipv6Bytes(addr: string): number[] {
  const [head = '', tail = ''] = addr.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const h = groups(head);
  const t = addr.includes('::') ? groups(tail) : [];
  const all = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

async function leaf(ca: CaMaterial, commonName: string, purpose: string, altNames: string[], days: number): Promise<PemPair> {
  const issuer = await importCa(ca);
  const keys = await newKeys();
  const cert = await build({
    subject: [[OID.commonName, commonName]],
    days,
    publicKey: keys.publicKey,
    issuer,
    extensions: [
      ext(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false }).toSchema()),
      ext(OID.keyUsage, true, keyUsage(0x80)), // digitalSignature (ECDHE key exchange signs; nothing is enciphered)
      ext(OID.extKeyUsage, false, new pkijs.ExtKeyUsage({ keyPurposes: [purpose] }).toSchema()),
      ...(altNames.length ? [ext(OID.subjectAltName, false, new pkijs.AltName({ altNames: altNames.map(altName) }).toSchema())] : []),
    ],
  });
  return { cert, key: await exportKey(keys.privateKey) };
}

/**
 * A server certificate for `names` (DNS names and IP literals, the first also its common name), signed by the CA.
 * Valid 397 days at most, the longest that browsers and Apple platforms accept (a negative `days` makes one that has
 * already expired, for tests of what a client does with it).
 */
export function issueServerCertificate(ca: CaMaterial, names: string[], opts: { days?: number } = {}): Promise<PemPair> {
  const unique = [...new Set(names.map((n) => n.replace(/^\[(.*)\]$/, '$1')))];
  if (!unique.length) throw new Error('issueServerCertificate needs at least one name');
  return leaf(ca, unique[0]!, OID.serverAuth, unique, Math.min(opts.days ?? 397, 397));
}

/**
 * A client certificate (extended key usage clientAuth) signed by the CA, for mutual TLS: its subject's common name is
 * `commonName` (an account id, say; read it back from `socket.getPeerCertificate().subject.CN`). Valid `days`
 * (default 365).
 */
export function issueClientCertificate(ca: CaMaterial, opts: { commonName: string; days?: number }): Promise<PemPair> {
  if (!opts.commonName) throw new Error('issueClientCertificate needs a commonName (the account id, say)');
  return leaf(ca, opts.commonName, OID.clientAuth, [], opts.days ?? 365);
}

/**
 * A self-signed certificate for an existing P-256 signing key (a JWK with its private member d): what a JWS header's
 * x5t#S256 names, so that a verifier can match the key it finds at jku to a certificate. Key usage digitalSignature
 * only. Answers the certificate as DER, for its thumbprint and x5c.
 */
export async function selfSignedSigningCertificate(privateJwk: webcrypto.JsonWebKey, commonName: string, opts: { days?: number } = {}): Promise<Buffer> {
  const { d: _d, key_ops: _ops, ...publicJwk } = privateJwk;
  const privateKey = await webcrypto.subtle.importKey('jwk', { ...privateJwk, key_ops: ['sign'] }, ALGORITHM, false, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('jwk', { ...publicJwk, key_ops: ['verify'] }, ALGORITHM, true, ['verify']);
  const pemText = await build({
    subject: [[OID.commonName, commonName]],
    days: opts.days ?? 3650,
    publicKey,
    selfKey: privateKey,
    extensions: [ext(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false }).toSchema()), ext(OID.keyUsage, true, keyUsage(0x80))],
  });
  return Buffer.from(derOf(pemText, 'CERTIFICATE'));
}
