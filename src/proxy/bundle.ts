// The CA bundle of sandbox.md 13: the system's CAs and the sandbox's local CA in one file in PIX_SANDBOX_HOME, for the
// clients that take one file in place of the system's (SSL_CERT_FILE, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE): with it an
// app reaches the sandbox at the service's names and every other HTTPS host as before.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BUNDLE_FILE = 'ca-bundle.pem';
/** The local CA's certificate in the home (src/tls/ca.ts CA_FILE; not imported, that module brings the certificate code). */
const CA_FILE = 'ca.pem';
/** Where Debian and Ubuntu (and the official Node images) keep the system's CAs; else Node's own list. */
const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The local CA's certificate (made when missing) and the bundle, rewritten when it differs; their paths. */
export async function writeCaBundle(home: string): Promise<{ ca: string; bundle: string }> {
  const ca = join(home, CA_FILE);
  // The certificate code (pkijs) is loaded only when the CA must be made.
  const caPem = existsSync(ca) ? readFileSync(ca, 'utf8') : (await (await import('../tls')).loadOrCreateCa(home)).cert;
  let system: string;
  try {
    system = readFileSync(SYSTEM_BUNDLE, 'utf8');
  } catch {
    system = (await import('node:tls')).rootCertificates.join('\n');
  }
  const text = `${system.trimEnd()}\n# pix-sandbox local CA (${ca})\n${caPem.trimEnd()}\n`;
  const bundle = join(home, BUNDLE_FILE);
  let current: string | undefined;
  try {
    current = readFileSync(bundle, 'utf8');
  } catch {}
  if (current !== text) {
    mkdirSync(home, { recursive: true });
    // Several sandboxes may start at once: each writes its own file and renames it over the bundle (same content).
    const tmp = `${bundle}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, bundle);
  }
  return { ca, bundle };
}
