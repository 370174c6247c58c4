// Which workshop attendee a page is opened for (sandbox.md 5.2): their console token or read-only view token in the
// link (?attendee=), else the join cookie of the browser they joined from. The page then shows their tenant only and
// hands the token to its scripts, which send it as X-Sandbox-Token: the control API (control/principal.ts) decides
// what it reaches, the page only shapes what it shows. One who left the room (the workshop ended, a reset) gets a page
// that says so (pages/gone.tsx), never a form asking for a token.
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Deps } from '../deps';
import type { GoneReason, Principal } from '../domain/workshop';
import { attendeeByToken, attendeeOf, goneBy } from '../services/workshop';

/** The cookie /join sets on the browser an attendee joined from; its value is a browser id the sandbox made. */
export const BROWSER_COOKIE = 'pix_sandbox_attendee';

export type AttendeeScope = Principal & { kind: 'attendee' };
export interface PageAttendee {
  scope: AttendeeScope;
  /** The token the page's scripts send. */
  token: string;
}

/**
 * A page opened with an attendee's way in that opens nothing now: why ('unknown': a link whose token nobody here ever
 * held, forged or mistyped, or older than this process), and whether it came by link or by the join cookie.
 */
export interface PageGone {
  gone: GoneReason | 'unknown';
  by: 'link' | 'browser';
}

/** The attendee the page is for, a way in that opens nothing now (PageGone), or none (the presenter, a customer). */
export function pageAttendee(c: Context, deps: Deps): PageAttendee | PageGone | undefined {
  const given = c.req.query('attendee');
  if (given !== undefined) {
    const found = attendeeByToken(deps.workshop, given);
    // A tenant gone some other way (the presenter deleted it) is no console to show either.
    if (found && deps.store.findAccount(found.attendee.accountId)) return { scope: found.principal, token: given };
    return { gone: goneBy(deps.workshop, given) ?? 'unknown', by: 'link' };
  }
  const browser = getCookie(c, BROWSER_COOKIE);
  const joined = attendeeOf(deps.workshop, browser);
  if (!joined || !deps.store.findAccount(joined.accountId)) {
    // A cookie nobody holds that the room does not remember (a restart): the browser is anyone's again.
    const why = goneBy(deps.workshop, browser);
    return why ? { gone: why, by: 'browser' } : undefined;
  }
  return { scope: attendeeByToken(deps.workshop, joined.consoleToken)!.principal, token: joined.consoleToken };
}

export const isGone = (a: PageAttendee | PageGone | undefined): a is PageGone => a !== undefined && 'gone' in a;
