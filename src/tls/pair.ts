// --cert FILE --key FILE: a certificate the user brings. Checked before listening, so a bad pair stops the start with a
// message naming the file, not a handshake error in some client later.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PemPair } from './certificates';
import { TlsSetupError } from './errors';

function read(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new TlsSetupError(`Cannot read the ${what} ${path} (${(err as Error).message}). Check the path given to --${what === 'certificate' ? 'cert' : 'key'}, or leave out --cert and --key to use a certificate signed by the local CA.`);
  }
}

/** Reads and checks a certificate (PEM, chain allowed) and its private key. `now` is real time (TLS peers use it). */
export function loadKeyPair(certFile: string, keyFile: string, now = Date.now()): PemPair {
  const cert = read(certFile, 'certificate');
  const key = read(keyFile, 'key');
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new TlsSetupError(`${certFile} is not a PEM certificate (${(err as Error).message}). Give --cert a file that starts with -----BEGIN CERTIFICATE-----.`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new TlsSetupError(`${keyFile} is not a PEM private key (${(err as Error).message}). Give --key an unencrypted key file that starts with -----BEGIN PRIVATE KEY----- (or RSA/EC PRIVATE KEY).`);
  }
  if (!x509.checkPrivateKey(privateKey)) throw new TlsSetupError(`The key ${keyFile} does not belong to the certificate ${certFile}. Give --key the private key the certificate was made for.`);
  if (Date.parse(x509.validTo) <= now) throw new TlsSetupError(`The certificate ${certFile} expired on ${x509.validTo}. Renew it, or leave out --cert and --key to use a certificate signed by the local CA.`);
  if (Date.parse(x509.validFrom) > now) throw new TlsSetupError(`The certificate ${certFile} is not valid before ${x509.validFrom}. Check the machine's clock, or use another certificate.`);
  return { cert, key };
}
