// Who calls the control API, decided in this one place for every /_sandbox route (sandbox.md 5.2, 11):
// - the admin token (X-Sandbox-Token, or ?token= on the stream) or, when none is set, no token at all: the presenter,
//   who reaches everything;
// - a workshop attendee's console token: that attendee, who reaches their own tenant only (its account routes, the
//   records it holds, its stream, stories played on it, decoding a code to pay it); a read-only view token (the
//   presenter's way in to help) reaches the same with GETs only;
// - any other token: 401, whatever routes it names. Another tenant's record or a whole-sandbox action (reset, faults,
//   the sandbox clock, the workshop, the account list) with an attendee's token is 403 OUTSIDE_ATTENDEE_TENANT.
// Routes read the principal (c.get('principal')) only to shape what they show (the console, the stream's filter).
// The same reading of whom a request names gives the request log its account (controlAccount): an attendee's own, else
// the one tenant the path names, else none (and then no filtered stream carries it).
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import type { Principal } from '../domain/workshop';
import type { Env } from '../wire/env';
import { ownersOf } from '../services/holders';
import { parsedBody } from '../wire/middleware/body';
import { attendeeByToken } from '../services/workshop';

const ADMIN: Principal = { kind: 'admin' };

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a control request carries: the header, or (EventSource sends no headers) ?token= on the stream. */
export const tokenOf = (c: Context) => c.req.header('x-sandbox-token') ?? (c.req.path === '/_sandbox/stream' ? c.req.query('token') : undefined);

/** The principal a token names; throws 401 for a token nobody holds, or for none when the admin token is set. */
export function principalOf(deps: Deps, given: string | undefined): Principal {
  const adminToken = deps.settings.adminToken;
  if (given === undefined || given === '') {
    if (!adminToken) return ADMIN;
    throw new SandboxError('UNAUTHORIZED', 'This sandbox requires header X-Sandbox-Token on control calls (SANDBOX_ADMIN_TOKEN is set); send its value.');
  }
  if (adminToken && tokenMatches(given, adminToken)) return ADMIN;
  const found = attendeeByToken(deps.workshop, given);
  if (found) return found.principal;
  throw new SandboxError(
    'UNAUTHORIZED',
    adminToken
      ? 'X-Sandbox-Token is neither the admin token (SANDBOX_ADMIN_TOKEN) nor the console token of an attendee of the workshop running here: send one of them.'
      : 'X-Sandbox-Token is not the console token of an attendee of the workshop running here (the workshop may have ended): open your console from your join page again, or send no token.',
  );
}

/**
 * Control routes that address a record by id alone: the index of the id's segment after /_sandbox, and what the record
 * is called in a refusal. Whose record it is, ownersOf says over every kind at once (services/holders.ts): a route that
 * acts on a static QR by /transactions/{id} is checked as surely as one on a charge. A Map: the key is a client's text.
 */
const RECORD_ID_AT: ReadonlyMap<string, { at: number; name: string }> = new Map([
  ['transactions', { at: 1, name: 'transaction' }],
  ['balance-blocks', { at: 1, name: 'balance block' }],
  ['webhooks', { at: 1, name: 'webhook endpoint' }],
  ['deliveries', { at: 1, name: 'delivery' }],
  ['charges', { at: 1, name: 'payment link' }],
  ['api-pix', { at: 2, name: 'API Pix record' }], // /api-pix/{cob|rec|solicrec|cobr}/{id}/...
]);

const outside = (p: Principal & { kind: 'attendee' }, what: string) =>
  new SandboxError('OUTSIDE_ATTENDEE_TENANT', `This console token reaches only ${p.name}'s tenant (${p.accountId}); ${what}. Ask the presenter, or use the routes of your own account.`, { accountId: p.accountId });

/** A path segment as the routes read it: percent-decoded, or as it came when it does not decode (as hono does). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A control path's segments after /_sandbox, each as the routes read it. */
const segmentsOf = (path: string) => path.split('/').slice(1).map(decodedSegment);

/**
 * The tenants a control request names, read before its route runs: `owners`, every account it names (the account of
 * /accounts/{id}/..., every holder of a record addressed by id alone, the log entry's of /requests/{id}, the
 * accountId a story is played on, the account a console or stream is asked for), `what` says so in a refusal;
 * `tenant`, the one account it acts on, if exactly one (a txid two tenants hold names neither unless ?account= does).
 */
interface Named {
  owners: string[];
  what: string;
  tenant: string | undefined;
}

function namedBy(deps: Deps, c: Context<Env>, segments: string[]): Named {
  const [first = '', id] = segments;
  const one = (owners: string[], what: string): Named => ({ owners, what, tenant: owners.length === 1 ? owners[0] : undefined });
  if (id !== undefined && first === 'accounts') return one([id], `account ${id} is another tenant`);
  const record = RECORD_ID_AT.get(first);
  const recordId = record && segments[record.at];
  if (record && recordId !== undefined) {
    const owners = ownersOf(deps.store, recordId);
    const account = c.req.query('account'); // POST /api-pix/cob/{txid}/pay looks only there
    const what = `${record.name} ${recordId} belongs to another tenant`;
    if (account === undefined) return one(owners, what);
    return { owners: owners.includes(account) ? owners : [...owners, account], what, tenant: owners.includes(account) ? account : undefined };
  }
  if (id !== undefined && first === 'requests') {
    const entry = deps.requestLog.get(id);
    return one(entry ? [entry.accountId ?? ''] : [], `request ${id} was not made by your tenant`);
  }
  if (id !== undefined && first === 'stories' && c.req.method === 'POST') {
    const accountId = (parsedBody(c.req) as { accountId?: unknown } | undefined)?.accountId;
    return one(typeof accountId === 'string' ? [accountId] : [], 'play stories on your own tenant');
  }
  if (first === 'console' || first === 'stream') {
    const asked = c.req.query(first === 'console' ? 'account' : 'accountId') || undefined;
    return { owners: asked === undefined ? [] : [asked], what: 'another tenant cannot be shown', tenant: undefined };
  }
  return { owners: [], what: '', tenant: undefined };
}

/** Refuses what an attendee may not do; `segments`: the path after /_sandbox; `named`: whom it names (namedBy). */
function checkScope(p: Principal & { kind: 'attendee' }, c: Context<Env>, segments: string[], path: string, named: Named): void {
  const method = c.req.method;
  if (p.readOnly && method !== 'GET' && method !== 'HEAD')
    throw new SandboxError('READ_ONLY_CONSOLE', `This is a read-only view of ${p.name}'s console (a view token): it can look, not change. ${p.name}'s own console link can.`, { accountId: p.accountId });
  if (named.owners.some((owner) => owner !== p.accountId)) throw outside(p, named.what);
  const [first = '', id, ...rest] = segments;
  if (first === 'accounts' && id !== undefined) {
    if (rest.length === 0 && method === 'DELETE') throw outside(p, 'deleting a tenant is the presenter\'s (ending the workshop deletes it)');
    return;
  }
  // A record of theirs, or one nobody holds (the route's 404).
  if ((RECORD_ID_AT.has(first) || first === 'requests') && id !== undefined) return;
  if (first === 'console' || first === 'stream') return;
  if (first === 'stories' && (id === undefined || method === 'GET')) return;
  if (first === 'stories') {
    if (named.owners.length === 0) throw outside(p, `play stories on your own tenant: send {"accountId": "${p.accountId}"}`);
    return;
  }
  if (first === 'brcodes' && id === 'decode') return;
  throw outside(p, `${method} /_sandbox${path} acts on the whole sandbox`);
}

/** The one middleware of the control API that names its caller and keeps an attendee inside their tenant. */
export function principalGuard(deps: Deps): MiddlewareHandler<Env> {
  return async (c, next) => {
    // The log's account for the request (wire/middleware/request-log.ts): none until the token names a caller.
    c.set('controlAccount', null);
    const principal = principalOf(deps, tokenOf(c));
    c.set('principal', principal);
    const path = c.req.path.slice('/_sandbox'.length);
    const segments = segmentsOf(path);
    const named = namedBy(deps, c, segments);
    const tenant = named.tenant;
    // An attendee's requests are their tenant's, a refused one too: nobody writes into another tenant's log.
    c.set('controlAccount', principal.kind === 'attendee' ? principal.accountId : (tenant ?? null));
    if (principal.kind === 'attendee') checkScope(principal, c, segments, path, named);
    // A request on a tenant touches it, and no retention sweep deletes it while it runs (services/retention.ts).
    const release = tenant !== undefined && Object.hasOwn(deps.store.raw.accounts, tenant) ? deps.retention.hold(tenant) : undefined;
    try {
      await next();
    } finally {
      release?.();
    }
  };
}
