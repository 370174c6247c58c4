// The local CA kept in PIX_SANDBOX_HOME (default ~/.pix-sandbox): ca.pem (public: what clients trust) and ca-key.pem
// (mode 0600, never served or logged). Made on first use. Several processes may start at once (parallel test files),
// so the files are published with link(), which fails if the name exists: the key first, the certificate last, and a
// reader treats the CA as present only once ca.pem is there. A loser of the race waits for the winner's ca.pem.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createCaMaterial, type CaMaterial } from './certificates';
import { TlsSetupError } from './errors';
import { sandboxHome } from './home';

export const CA_FILE = 'ca.pem';
export const CA_KEY_FILE = 'ca-key.pem';

/** The local CA: its PEM material and where it lives. */
export interface LocalCa extends CaMaterial {
  /** Directory holding it (PIX_SANDBOX_HOME). */
  home: string;
  /** Path of ca.pem: what NODE_EXTRA_CA_CERTS, curl --cacert, REQUESTS_CA_BUNDLE and keytool are given. */
  certPath: string;
  /** Path of ca-key.pem. Never print or serve it. */
  keyPath: string;
  /** True when this call made the CA (first use). */
  created: boolean;
}


const WAIT_MS = 10_000;

function readCa(home: string, created: boolean): LocalCa {
  const certPath = join(home, CA_FILE);
  const keyPath = join(home, CA_KEY_FILE);
  let cert: string;
  let key: string;
  try {
    cert = readFileSync(certPath, 'utf8');
  } catch (err) {
    throw new TlsSetupError(`Cannot read the local CA certificate ${certPath} (${(err as Error).message}). Make it readable, or delete ${home} to have a new CA made.`);
  }
  try {
    key = readFileSync(keyPath, 'utf8');
  } catch (err) {
    throw new TlsSetupError(`Cannot read the local CA key ${keyPath} (${(err as Error).message}). Make it readable, or delete ${certPath} and ${keyPath} to have a new CA made (clients must then trust the new ca.pem).`);
  }
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new TlsSetupError(`The local CA certificate ${certPath} is not a PEM certificate (${(err as Error).message}). Delete ${certPath} and ${keyPath} to have a new CA made.`);
  }
  let matches = false;
  try {
    matches = x509.checkPrivateKey(createPrivateKey(key));
  } catch {
    // not a key at all: same answer as a key of another certificate
  }
  if (!matches) throw new TlsSetupError(`The local CA key ${keyPath} does not belong to ${certPath}. Delete both to have a new CA made (clients must then trust the new ca.pem).`);
  if (Date.parse(x509.validTo) <= Date.now()) throw new TlsSetupError(`The local CA ${certPath} expired on ${x509.validTo}. Delete ${certPath} and ${keyPath} to have a new CA made, and trust the new ca.pem.`);
  return { home, certPath, keyPath, cert, key, created };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Loads the CA of `home`, making it (and `home`) when missing. Throws TlsSetupError with what to do. */
export async function loadOrCreateCa(home: string = sandboxHome()): Promise<LocalCa> {
  home = resolve(home);
  const certPath = join(home, CA_FILE);
  const keyPath = join(home, CA_KEY_FILE);
  if (existsSync(certPath)) return readCa(home, false);
  const cannotWrite = (err: unknown) =>
    new TlsSetupError(`Cannot make the local CA in ${home} (${(err as Error).message}). Point PIX_SANDBOX_HOME at a directory you can write, or bring your own certificate with --cert FILE --key FILE.`);
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw cannotWrite(err);
  }
  const made = await createCaMaterial();
  const tmp = `.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const tmpKey = join(home, `${CA_KEY_FILE}${tmp}`);
  const tmpCert = join(home, `${CA_FILE}${tmp}`);
  try {
    writeFileSync(tmpKey, made.key, { mode: 0o600 });
    chmodSync(tmpKey, 0o600); // mode is masked by the umask on creation
    writeFileSync(tmpCert, made.cert, { mode: 0o644 });
  } catch (err) {
    for (const f of [tmpKey, tmpCert]) if (existsSync(f)) unlinkSync(f);
    throw cannotWrite(err);
  }
  let won = false;
  try {
    linkSync(tmpKey, keyPath);
    won = true;
    linkSync(tmpCert, certPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotWrite(err);
  } finally {
    unlinkSync(tmpKey);
    unlinkSync(tmpCert);
  }
  if (won) return readCa(home, true);
  // Another process is making it (its key is there): wait for its certificate.
  for (let waited = 0; !existsSync(certPath); waited += 50) {
    if (waited >= WAIT_MS)
      throw new TlsSetupError(`${keyPath} exists but ${certPath} does not (a start that stopped half way?). Delete ${keyPath} to have a new CA made.`);
    await sleep(50);
  }
  return readCa(home, false);
}
