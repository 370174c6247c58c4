// TLS for the sandbox's listener (sandbox.md 8), and what mutual TLS builds on. The whole API:
// - loadOrCreateCa(home): the local CA (cert + key PEM, paths), made on first use;
// - issueServerCertificate(ca, names) / issueClientCertificate(ca, { commonName }): PEM certificate + key signed by it;
// - toPkcs12(pair, passphrase, name): the pair as a .p12 for SDKs and Java key stores;
// - loadKeyPair(certFile, keyFile): a certificate the user brings, checked (readable, matching, not expired);
// - prepareServerTls(settings): the listener's certificate (brought, or a leaf of the local CA for the default names);
// - serverTlsOptions(tls, { clientCa, clientCertificates }): options for https.createServer / tls.createServer,
//   optionally asking for client certificates signed by a CA.
import { isIP } from 'node:net';
import type { ServerOptions } from 'node:https';
import { loadOrCreateCa, type LocalCa } from './ca';
import { issueServerCertificate, type PemPair } from './certificates';
import { TlsSetupError } from './errors';
import { loadKeyPair } from './pair';

export { CA_FILE, CA_KEY_FILE, loadOrCreateCa, type LocalCa } from './ca';
export { sandboxHome } from './home';
export { createCaMaterial, issueClientCertificate, issueServerCertificate, type CaMaterial, type PemPair } from './certificates';
export { TlsSetupError } from './errors';
export { loadKeyPair } from './pair';
export { toPkcs12 } from './p12';

export interface TlsSettings {
  /** PIX_SANDBOX_HOME: where the local CA is kept. */
  home: string;
  /** --cert FILE and --key FILE: both or neither. */
  certFile?: string;
  keyFile?: string;
  /** Names the leaf is for besides the defaults (--tls-name, repeatable). */
  names?: readonly string[];
  /** The public host (BR Code locations), with or without port: its host part is one of the leaf's names. */
  publicHost?: string;
  /** The listen address, named in the leaf when it is a specific address (not 0.0.0.0 or ::). */
  listenHost?: string;
}

/** The listener's certificate, and the local CA when it signed it (undefined with --cert/--key). */
export interface ServerTls extends PemPair {
  ca: LocalCa | undefined;
  /** Names in the leaf (empty for a brought certificate). */
  names: string[];
}

export const DEFAULT_TLS_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

const DNS_NAME = /^(?=.{1,253}$)(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Host part of `host[:port][/path]` or `[v6]:port`. */
function hostOf(publicHost: string): string {
  const noPath = publicHost.replace(/\/.*$/, '');
  const v6 = /^\[([^\]]+)\]/.exec(noPath);
  if (v6) return v6[1]!;
  return isIP(noPath) === 6 ? noPath : noPath.replace(/:\d+$/, '');
}

/** The names a local-CA leaf is made for: the defaults, the public host, a specific listen address, each --tls-name. */
export function leafNames(settings: Omit<TlsSettings, 'home'>): string[] {
  for (const name of settings.names ?? [])
    if (!isIP(name.replace(/^\[(.*)\]$/, '$1')) && !DNS_NAME.test(name))
      throw new TlsSetupError(`--tls-name '${name}' is neither a DNS name nor an IP address. Give a host name such as sandbox.local or an address such as 192.168.0.10.`);
  const listen = settings.listenHost && !['0.0.0.0', '::', ''].includes(settings.listenHost) ? [settings.listenHost] : [];
  const pub = settings.publicHost ? [hostOf(settings.publicHost)] : [];
  return [...new Set([...DEFAULT_TLS_NAMES, ...pub, ...listen, ...(settings.names ?? [])].map((n) => n.replace(/^\[(.*)\]$/, '$1').toLowerCase()))];
}

/** The listener's certificate: the brought pair, checked, or a fresh leaf (kept in memory only) of the local CA. */
export async function prepareServerTls(settings: TlsSettings): Promise<ServerTls> {
  if (settings.certFile !== undefined || settings.keyFile !== undefined) {
    if (!settings.certFile) throw new TlsSetupError(`--key ${settings.keyFile} was given without --cert. Give both --cert FILE and --key FILE, or neither to use a certificate signed by the local CA.`);
    if (!settings.keyFile) throw new TlsSetupError(`--cert ${settings.certFile} was given without --key. Give both --cert FILE and --key FILE, or neither to use a certificate signed by the local CA.`);
    return { ...loadKeyPair(settings.certFile, settings.keyFile), ca: undefined, names: [] };
  }
  const names = leafNames(settings);
  const ca = await loadOrCreateCa(settings.home);
  return { ...(await issueServerCertificate(ca, names)), ca, names };
}

export interface ClientCertificateOptions {
  /** PEM of the CA(s) whose client certificates are accepted (the local CA's `cert`, say). */
  clientCa?: string | string[];
  /**
   * 'none' (default): no client certificate is asked. 'request': asked; the connection stands without one or with a
   * bad one, and the app reads `socket.authorized` / `socket.getPeerCertificate()` to answer with a clear error.
   * 'require': the handshake fails without a certificate signed by `clientCa`.
   */
  clientCertificates?: 'none' | 'request' | 'require';
}

/** Options for https.createServer / tls.createServer. */
export function serverTlsOptions(tls: PemPair, opts: ClientCertificateOptions = {}): ServerOptions {
  const mode = opts.clientCertificates ?? 'none';
  if (mode !== 'none' && !opts.clientCa) throw new Error(`serverTlsOptions: clientCertificates '${mode}' needs clientCa (the PEM of the CA that signs client certificates)`);
  return {
    cert: tls.cert,
    key: tls.key,
    ...(mode === 'none' ? {} : { ca: opts.clientCa, requestCert: true, rejectUnauthorized: mode === 'require' }),
  };
}
