// Webhook URLs the service's production could never reach (sandbox.md 14): a loopback or private address, a local
// name, plain http. The sandbox delivers to them (a receiver on this machine is the point of it) and says so in a
// warning, so that the URL does not travel unnoticed into a production configuration. One it never delivers to: the
// sandbox's own listeners (sandbox.md 11), refused where a route stores a webhook URL.
import { isIP } from 'node:net';
import type { Deps } from '../deps';
import { validationError } from '../domain/errors';
import { quotedForHeader } from '../lib/header-text';
import { warn } from '../lib/warnings';
import { selfWebhookHint } from '../webhooks/own-listeners';

function privateAddress(host: string): string | undefined {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return 'a loopback name';
  if (name.endsWith('.local') || name.endsWith('.internal')) return 'a local network name';
  const kind = isIP(name);
  if (kind === 4) {
    const [a, b] = name.split('.').map(Number) as [number, number];
    if (a === 127) return 'a loopback address';
    if (a === 0) return 'an unspecified address';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private address';
    if (a === 169 && b === 254) return 'a link-local address';
    if (a === 100 && b >= 64 && b <= 127) return 'a shared (carrier-grade NAT) address';
  } else if (kind === 6) {
    if (name === '::1') return 'a loopback address';
    if (name === '::') return 'an unspecified address';
    if (/^f[cd]/.test(name)) return 'a private address';
    if (/^fe[89ab]/.test(name)) return 'a link-local address';
    if (name.startsWith('::ffff:')) return privateAddress(name.slice(7));
  }
  return undefined;
}

/** Why production could not deliver to `url`, or undefined when it could (or `url` is not a URL: others say so). */
export function unreachableReason(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const { protocol, hostname } = new URL(url);
  const reasons = [privateAddress(hostname), protocol === 'http:' ? 'plain http' : undefined].filter(Boolean);
  return reasons.length ? reasons.join(' and ') : undefined;
}

/** How much of a URL its warning repeats: all of an ordinary one. */
const URL_SHOWN = 512;

/** A zod refinement that passes any URL and warns of one production could never reach. */
export const warnUnreachable = (field: string) => (url: string | null | undefined) => {
  const reason = typeof url === 'string' ? unreachableReason(url) : undefined;
  if (reason && typeof url === 'string') warn(`${field} ${quotedForHeader(url, URL_SHOWN)} is ${reason}, which production could never deliver to (it needs a public https URL); accepted, as the sandbox delivers from this machine`);
  return true;
};


/** Refuses, with one 400 naming each field, the webhook URLs (`[field, url]`) that reach the sandbox's own listeners. */
export function refuseSelfWebhooks(deps: Deps, urls: ReadonlyArray<readonly [field: string, url: string | null | undefined]>): void {
  const fields = urls.flatMap(([field, url]) => {
    const reason = typeof url === 'string' ? deps.listeners.check(url) : undefined;
    return reason ? [{ field, message: selfWebhookHint(reason) }] : [];
  });
  if (fields.length) throw validationError(fields);
}
