// The CA bundle of sandbox.md 13: the system's CAs and the sandbox's local CA in one file, for the clients that take
// one file in place of the system's (SSL_CERT_FILE, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE): with it an app reaches the
// sandbox at the service's names and every other HTTPS host as before. Files are replaced whole (written aside, then
// renamed), and only when their content changes: several sandboxes or env commands may write them at once.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const BUNDLE_FILE = 'ca-bundle.pem';
/** The local CA's certificate in the home (src/tls/ca.ts CA_FILE; not imported, that module brings the certificate code). */
const CA_FILE = 'ca.pem';
/** Where Debian and Ubuntu (and the official Node images) keep the system's CAs; else Node's own list. */
const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The system's CAs as PEM text. */
export async function systemCas(): Promise<string> {
  try {
    return readFileSync(SYSTEM_BUNDLE, 'utf8');
  } catch {
    return (await import('node:tls')).rootCertificates.join('\n');
  }
}

/** The bundle's text: the system's CAs, then the sandbox's (`label` says where it comes from). */
export async function bundleText(caPem: string, label: string): Promise<string> {
  return `${(await systemCas()).trimEnd()}\n# pix-sandbox local CA (${label})\n${caPem.trimEnd()}\n`;
}

/** Writes `content` at `path` (and its directory) unless it is there already. */
export function writeIfChanged(path: string, content: string | Buffer): void {
  let current: Buffer | undefined;
  try {
    current = readFileSync(path);
  } catch {}
  if (current?.equals(typeof content === 'string' ? Buffer.from(content) : content)) return;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** The home's local CA's certificate (made when missing) and the bundle beside it; their paths. */
export async function writeCaBundle(home: string): Promise<{ ca: string; bundle: string }> {
  const ca = join(home, CA_FILE);
  // The certificate code (pkijs) is loaded only when the CA must be made.
  const caPem = existsSync(ca) ? readFileSync(ca, 'utf8') : (await (await import('../tls')).loadOrCreateCa(home)).cert;
  const bundle = join(home, BUNDLE_FILE);
  writeIfChanged(bundle, await bundleText(caPem, ca));
  return { ca, bundle };
}
