// Who calls the control API, decided in this one place for every /_sandbox route (sandbox.md 5.2, 11):
// - the admin token (X-Sandbox-Token, or ?token= on the stream) or, when none is set, no token at all: the presenter,
//   who reaches everything;
// - a workshop attendee's console token: that attendee, who reaches their own tenant only (its account routes, the
//   records it holds, its stream, stories played on it, decoding a code to pay it); a read-only view token (the
//   presenter's way in to help) reaches the same with GETs only;
// - any other token: 401, whatever routes it names. Another tenant's record or a whole-sandbox action (reset, faults,
//   the sandbox clock, the workshop, the account list) with an attendee's token is 403 OUTSIDE_ATTENDEE_TENANT.
// Routes read the principal (c.get('principal')) only to shape what they show (the console, the stream's filter).
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import type { Principal } from '../domain/workshop';
import type { Env } from '../wire/env';
import { holderOf, type HolderKind } from '../services/holders';
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

/** Records addressed by id alone, by the first segment of their path: the kind whose holder names their tenant. */
const HELD_BY: Record<string, HolderKind[]> = {
  transactions: ['transaction'],
  'balance-blocks': ['balanceBlock'],
  webhooks: ['webhook'],
  deliveries: ['delivery'],
  charges: ['paymentLink', 'staticQr'],
};

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
 * The tenant a control path names: /accounts/{id}/..., or the holder of a record addressed by id alone
 * (/transactions/{id}/...); undefined when it names none (or an unknown record: the route's 404).
 */
function tenantNamed(deps: Deps, [first = '', id]: string[]): string | undefined {
  if (id === undefined) return undefined;
  if (first === 'accounts') return id;
  if (first in HELD_BY) return HELD_BY[first]!.map((kind) => holderOf(deps.store, kind, id)).find((a) => a !== undefined)?.id;
  return undefined;
}

/** Refuses what an attendee may not do; `segments`: the path after /_sandbox; `tenant`: whom it names (tenantNamed). */
async function checkScope(deps: Deps, p: Principal & { kind: 'attendee' }, c: Context<Env>, segments: string[], path: string, tenant: string | undefined): Promise<void> {
  const method = c.req.method;
  if (p.readOnly && method !== 'GET' && method !== 'HEAD')
    throw new SandboxError('READ_ONLY_CONSOLE', `This is a read-only view of ${p.name}'s console (a view token): it can look, not change. ${p.name}'s own console link can.`, { accountId: p.accountId });
  const [first = '', id, ...rest] = segments;
  const own = (accountId: string | undefined, what: string) => {
    if (accountId !== undefined && accountId !== p.accountId) throw outside(p, what);
  };
  if (first === 'accounts' && id !== undefined) {
    own(id, `account ${id} is another tenant`);
    if (rest.length === 0 && method === 'DELETE') throw outside(p, 'deleting a tenant is the presenter\'s (ending the workshop deletes it)');
    return;
  }
  if (first in HELD_BY && id !== undefined) return own(tenant, `${first.replace(/s$/, '')} ${id} belongs to another tenant`); // an unknown id: the route's 404
  if (first === 'requests' && id !== undefined) {
    const entry = deps.requestLog.get(id);
    return own(entry ? (entry.accountId ?? '') : undefined, `request ${id} was not made by your tenant`);
  }
  if (first === 'console' || first === 'stream') return own(c.req.query(first === 'console' ? 'account' : 'accountId') || undefined, 'another tenant cannot be shown');
  if (first === 'stories' && (id === undefined || method === 'GET')) return;
  if (first === 'stories') {
    const body = (await c.req.json().catch(() => undefined)) as { accountId?: unknown } | undefined;
    if (body?.accountId !== p.accountId) throw outside(p, `play stories on your own tenant: send {"accountId": "${p.accountId}"}`);
    return;
  }
  if (first === 'brcodes' && id === 'decode') return;
  throw outside(p, `${method} /_sandbox${path} acts on the whole sandbox`);
}

/** The one middleware of the control API that names its caller and keeps an attendee inside their tenant. */
export function principalGuard(deps: Deps): MiddlewareHandler<Env> {
  return async (c, next) => {
    const principal = principalOf(deps, tokenOf(c));
    c.set('principal', principal);
    const path = c.req.path.slice('/_sandbox'.length);
    const segments = segmentsOf(path);
    const tenant = tenantNamed(deps, segments);
    if (principal.kind === 'attendee') await checkScope(deps, principal, c, segments, path, tenant);
    // A request on a tenant touches it, and no retention sweep deletes it while it runs (services/retention.ts).
    const release = tenant !== undefined && Object.hasOwn(deps.store.raw.accounts, tenant) ? deps.retention.hold(tenant) : undefined;
    try {
      await next();
    } finally {
      release?.();
    }
  };
}
