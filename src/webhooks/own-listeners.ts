// The sandbox's own listeners, which no webhook may reach (sandbox.md 11): a delivery there would be a request from the
// sandbox to itself, on a path a tenant chose (the control API's included). Invariants:
// - the set is live: listen() adds each listener once its port is known (port 0), close() empties it; with none (the
//   app called in process) nothing is refused, and with `allowSelf` (--allow-self-webhooks) nothing ever is;
// - a URL is the sandbox's own when its port is a listening port and its host is this machine (a loopback or
//   unspecified address, an address of its interfaces or listeners, localhost, the machine's name, the public host, a
//   TLS name), or when it is the public host at the port it is reached on; at delivery a name is resolved too.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { hostname as machineName, networkInterfaces } from 'node:os';

/** Resolves a name to its addresses (node:dns lookup with all: true). */
export type Lookup = (name: string) => Promise<string[]>;
const systemLookup: Lookup = (name) => dnsLookup(name, { all: true, verbatim: true }).then((all) => all.map((a) => a.address));

export interface OwnListeners {
  /** --allow-self-webhooks: nothing is refused. */
  readonly allowSelf: boolean;
  /** A listener's base URL (http://127.0.0.1:4747), once listening. */
  add(url: string): void;
  clear(): void;
  /** Why `url` reaches one of the listeners by the host it names (no name resolved), or undefined. */
  check(url: string): string | undefined;
  /**
   * The same at a delivery attempt, resolving a host name at a listening port: a promise only then, so that an
   * attempt to another port pays no lookup and no extra turn.
   */
  atDelivery(url: string): string | undefined | Promise<string | undefined>;
}

/** An address as a socket would connect to it: lower case, no brackets or zone, an IPv4-mapped IPv6 address as IPv4. */
function plainAddress(host: string): string {
  const name = host.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase().replace(/\.$/, '');
  const mapped = /^::ffff:(?:([0-9.]+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(name);
  if (!mapped) return name;
  if (mapped[1]) return mapped[1];
  const hi = parseInt(mapped[2]!, 16);
  const lo = parseInt(mapped[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Loopback and unspecified addresses: a connection to one of them reaches this machine. */
function loopbackOrUnspecified(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return address.startsWith('127.') || address.startsWith('0.');
  return kind === 6 && (address === '::1' || address === '::');
}

/** What to send instead of a URL that reaches the sandbox itself (`reason` names the listener). */
export const selfWebhookHint = (reason: string) =>
  `points at the sandbox itself (${reason}): a delivery there would call its own API. Use a receiver on another port (like http://127.0.0.1:3000/webhooks), or start the sandbox with --allow-self-webhooks (SANDBOX_ALLOW_SELF_WEBHOOKS=1) if a test means to`;

/** How many parsed URLs are kept (a CI suite's endpoints; past that the cache starts again). */
const URL_CACHE = 256;
const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80);

export function createOwnListeners(o: { allowSelf?: boolean; publicHost: string; tlsNames?: readonly string[]; lookup?: Lookup }): OwnListeners {
  const allowSelf = o.allowSelf ?? false;
  const lookup = o.lookup ?? systemLookup;
  const ports = new Set<number>();
  const bound = new Set<string>();
  const publicHost = new URL(`http://${o.publicHost}`);
  const publicName = plainAddress(publicHost.hostname);
  // The public host is where others reach the sandbox: without a port, through a front at the scheme's port.
  const publicPorts = publicHost.port ? [Number(publicHost.port)] : [80, 443];
  const names = new Set(['localhost', plainAddress(machineName()), publicName, ...(o.tlsNames ?? []).map(plainAddress)]);

  /** Whether a connection to `address` (an IP literal) lands on this machine. */
  const local = (address: string) => {
    if (loopbackOrUnspecified(address) || bound.has(address)) return true;
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) if (plainAddress(a.address) === address) return true;
    return false;
  };
  /** Each URL's host (plain) and port, parsed once (the last URL_CACHE of them kept, as the transport does). */
  const targets = new Map<string, { host: string; port: number; shown: string }>();
  /** The URL's host and port, or undefined when nothing can be refused. */
  const target = (url: string) => {
    if (allowSelf || ports.size === 0) return undefined;
    let t = targets.get(url);
    if (!t) {
      if (!URL.canParse(url)) return undefined;
      const u = new URL(url);
      t = { host: plainAddress(u.hostname), port: u.port ? Number(u.port) : defaultPort(u.protocol), shown: u.host };
      if (targets.size >= URL_CACHE) targets.clear();
      targets.set(url, t);
    }
    return t;
  };
  const refusal = (shown: string, via = '') => `${shown}${via} is this sandbox's own listener`;
  const byName = (host: string, port: number) => {
    if (host === publicName && publicPorts.includes(port)) return true;
    if (!ports.has(port)) return false;
    return isIP(host) ? local(host) : names.has(host) || host.endsWith('.localhost');
  };

  return {
    allowSelf,
    add(url) {
      const u = new URL(url);
      ports.add(Number(u.port));
      bound.add(plainAddress(u.hostname));
    },
    clear() {
      ports.clear();
      bound.clear();
    },
    check(url) {
      const t = target(url);
      return t && byName(t.host, t.port) ? refusal(t.shown) : undefined;
    },
    atDelivery(url) {
      const t = target(url);
      if (!t) return undefined;
      if (byName(t.host, t.port)) return refusal(t.shown);
      // Only a listening port can be the sandbox's: other URLs cost no lookup.
      if (isIP(t.host) || !ports.has(t.port)) return undefined;
      return lookup(t.host).then(
        (addresses) => {
          const own = addresses.map(plainAddress).find(local);
          return own === undefined ? undefined : refusal(t.shown, ` (${t.host} resolves to ${own})`);
        },
        () => undefined, // a name that does not resolve fails at the send, which says so
      );
    },
  };
}
