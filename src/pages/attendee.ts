// Which workshop attendee a page is opened for (sandbox.md 5.2): their console token or read-only view token in the
// link (?attendee=), else the join cookie of the browser they joined from. The page then shows their tenant only and
// hands the token to its scripts, which send it as X-Sandbox-Token: the control API (control/principal.ts) decides
// what it reaches, the page only shapes what it shows.
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Deps } from '../deps';
import type { Principal } from '../domain/workshop';
import { attendeeByToken, attendeeOf } from '../services/workshop';

/** The cookie /join sets on the browser an attendee joined from; its value is a browser id the sandbox made. */
export const BROWSER_COOKIE = 'pix_sandbox_attendee';

export type AttendeeScope = Principal & { kind: 'attendee' };
export interface PageAttendee {
  scope: AttendeeScope;
  /** The token the page's scripts send. */
  token: string;
}

/** The attendee the page is for; 'unknown' for a link whose token nobody holds (forged, or the workshop ended). */
export function pageAttendee(c: Context, deps: Deps): PageAttendee | 'unknown' | undefined {
  const given = c.req.query('attendee');
  if (given !== undefined) {
    const found = attendeeByToken(deps.workshop, given);
    // A tenant gone with a reset (the room outlives it) is no console to show either.
    return found && deps.store.findAccount(found.attendee.accountId) ? { scope: found.principal, token: given } : 'unknown';
  }
  const joined = attendeeOf(deps.workshop, getCookie(c, BROWSER_COOKIE));
  if (!joined || !deps.store.findAccount(joined.accountId)) return undefined;
  return { scope: attendeeByToken(deps.workshop, joined.consoleToken)!.principal, token: joined.consoleToken };
}
