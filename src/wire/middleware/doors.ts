// The doors of a local server (sandbox.md 11), checked before any route runs, for every path (the control API, the
// pages' own routes and every API face, including faces added later: nothing here lists prefixes).
// - Host: a request whose Host is not an IP literal, localhost or *.localhost, the public host, a TLS name or a name
//   allowed with --allowed-host is refused 421 HOST_NOT_ALLOWED. That closes DNS rebinding: a page on evil.example
//   whose name was made to resolve to 127.0.0.1 reaches the sandbox with `Host: evil.example`.
// - Origin: a state-changing request (any method but GET, HEAD, OPTIONS) that carries an Origin other than the
//   sandbox's own (scheme, host and port of the request's own Host) or one allowed with --allowed-origin, or
//   `Sec-Fetch-Site: cross-site`, is refused 403 ORIGIN_NOT_ALLOWED. A bodiless POST needs no CORS preflight, so without
//   this any web page could reset the sandbox or pay a charge. Clients that send no Origin (curl, SDKs, suites) pass.
// Both refusals happen before the request's unit of work begins: nothing is changed.
import { isIP } from 'node:net';
import type { Context } from 'hono';
import { SandboxError } from '../../domain/errors';

export interface DoorsOptions {
  /** Host names (no port) allowed besides IP literals and localhost; '*' allows any. */
  allowedHosts: readonly string[];
  /** Origins (scheme://host[:port]) allowed to send state-changing requests besides the sandbox's own. */
  allowedOrigins: readonly string[];
  /** The service name a request was sent to through the proxy (src/proxy/marks.ts): that name is its allowed Host. */
  proxiedName?: (c: Context) => string | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The host name of `host[:port]` (a bracketed IPv6 literal keeps its brackets off), lower-cased, without a final dot. */
export function hostNameOf(authority: string): string {
  let host = authority.trim().toLowerCase();
  const at = host.lastIndexOf('@');
  if (at >= 0) host = host.slice(at + 1);
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 ? host.slice(1, end) : host;
  }
  const colon = host.indexOf(':');
  if (colon >= 0) host = host.slice(0, colon);
  const slash = host.indexOf('/');
  if (slash >= 0) host = host.slice(0, slash);
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** Whether a listen address reaches this machine only (127.x, ::1, localhost): anything else is open to the network. */
export function isLoopback(host: string): boolean {
  const name = hostNameOf(host);
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || name.startsWith('127.') || name === '::ffff:127.0.0.1';
}

/** An origin as browsers send it: scheme://host[:port], lower-cased, default ports dropped; null when not one. */
export function normalizeOrigin(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}

/** The authority (host[:port]) and scheme of a request URL, without building a URL object. */
function authorityOf(url: string): { scheme: string; authority: string } {
  const sep = url.indexOf('://');
  const start = sep + 3;
  let end = url.indexOf('/', start);
  if (end === -1) end = url.length;
  return { scheme: url.slice(0, sep).toLowerCase(), authority: url.slice(start, end).toLowerCase() };
}

const refuseHost = (name: string) =>
  new SandboxError(
    'HOST_NOT_ALLOWED',
    `This sandbox does not answer requests for host '${name}' (a guard against DNS rebinding). Use 127.0.0.1, localhost or an IP address, or allow the name at start: --allowed-host ${name || 'NAME'} (SANDBOX_ALLOWED_HOSTS=${name || 'NAME'}, comma-separated).`,
    { host: name },
  );

const refuseOrigin = (origin: string) =>
  new SandboxError(
    'ORIGIN_NOT_ALLOWED',
    origin === 'cross-site'
      ? "A page of another site sent this request (Sec-Fetch-Site: cross-site), so it was refused and nothing was changed. Send it from the sandbox's own pages or without a browser (curl, an SDK), or allow the page's origin at start: --allowed-origin http://host:port (SANDBOX_ALLOWED_ORIGINS)."
      : `A page of origin '${origin}' sent this request, so it was refused and nothing was changed: only the sandbox's own pages may change state from a browser. Send it without a browser (curl, an SDK, a test suite send no Origin), or allow that origin at start: --allowed-origin ${origin === 'null' ? 'http://host:port' : origin} (SANDBOX_ALLOWED_ORIGINS, comma-separated).`,
    { origin },
  );

const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };
/** Whether two authorities name the same host and port, a port left out being the scheme's default. */
function sameAuthority(a: string, b: string, scheme: string): boolean {
  const portOf = (authority: string) => /:(\d+)$/.exec(authority.trim())?.[1] ?? DEFAULT_PORT[scheme] ?? '';
  return hostNameOf(a) === hostNameOf(b) && portOf(a) === portOf(b);
}

const refuseHostMismatch = (host: string, target: string) =>
  new SandboxError(
    'HOST_NOT_ALLOWED',
    `The request line names host '${target}' but the Host header says '${host.trim()}'; send the same authority in both (or an origin-form request line, /path, with the Host header).`,
    { host: hostNameOf(host), target: hostNameOf(target) },
  );

/** The Host door alone: whether a request for `authority` (host[:port], lower-case) is answered. */
export function hostDoor(allowedHosts: DoorsOptions['allowedHosts']): (authority: string) => boolean {
  const anyHost = allowedHosts.includes('*');
  const named = new Set(allowedHosts.map(hostNameOf));
  /** The decision per authority seen (a handful per run): the check costs one Map lookup per request. */
  const seen = new Map<string, boolean>();
  return (authority) => {
    let ok = seen.get(authority);
    if (ok === undefined) {
      const name = hostNameOf(authority);
      ok = anyHost || isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || named.has(name);
      if (seen.size > 1000) seen.clear();
      seen.set(authority, ok);
    }
    return ok;
  };
}

/** The check, called first thing by app.ts's request middleware: throws the refusal, or returns. */
export function doors(options: DoorsOptions): (c: Context) => void {
  const hostAllowed = hostDoor(options.allowedHosts);
  const origins = new Set(options.allowedOrigins.map((o) => normalizeOrigin(o) ?? o.toLowerCase()));
  return (c) => {
    const { scheme, authority } = authorityOf(c.req.url);
    // The URL's authority is the Host header's, or the request line's when it is in absolute form (a proxy's
    // request); then the two must name the same host and port, so neither can smuggle a name past the other.
    const host = c.req.header('host');
    if (host !== undefined && host.toLowerCase() !== authority && !sameAuthority(host, authority, scheme)) throw refuseHostMismatch(host, authority);
    if (!hostAllowed(authority) && (options.proxiedName?.(c) ?? '') !== hostNameOf(authority)) throw refuseHost(hostNameOf(authority));
    if (SAFE_METHODS.has(c.req.method)) return;
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site')?.toLowerCase();
    // Either cross-site signal refuses, whatever the other says: no page can set Sec-Fetch-Site.
    if (site === 'cross-site') throw refuseOrigin('cross-site');
    // Under Referrer-Policy: no-referrer a browser sends `Origin: null` for a plain form post of the sandbox's own
    // page (the payment link page); Sec-Fetch-Site, which no page can set, says it came from this origin.
    if (origin?.trim() === 'null' && site === 'same-origin') return;
    if (origin !== undefined) {
      const normalized = normalizeOrigin(origin);
      const own = normalized !== null && (normalized === normalizeOrigin(`${scheme}://${authority}`) || origins.has(normalized));
      if (!own) throw refuseOrigin(normalized ?? origin.trim());
    }
  };
}

/**
 * What a page may load and who may frame it (sandbox.md 11): only the sandbox's own scripts, styles and calls, no
 * inline script or style, never inside a frame (the console could be framed by another origin and clicked through).
 * `img-src data:` is for the BR Code images (qrCodeBase64) and Swagger UI's icons.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * The page headers, set before the route runs on every answer (an API answer carries them harmlessly): one place covers
 * every page, including pages added later, and costs no look at the answer (touching a finished answer's headers makes
 * @hono/node-server build a Headers object per request). app.ts sets them.
 */
export const PAGE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': PAGE_CSP,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
} as const;

/** Every answer's own headers, through `set`: its trace id, then the page headers (app.ts, control/early-health.ts). */
export function setAnswerHeaders(set: (name: string, value: string) => void, traceId: string): void {
  set('X-Trace-Id', traceId);
  for (const name in PAGE_HEADERS) set(name, PAGE_HEADERS[name as keyof typeof PAGE_HEADERS]);
}
