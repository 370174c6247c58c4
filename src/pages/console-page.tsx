// The console page at / (registered in pages/index.tsx, loaded at its first visit).
import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import type { Principal } from '../domain/workshop';
import { ConsoleBody, consoleHref } from './console';
import type { ConsoleQuery } from '../wire/console-query';
import { Layout, renderPage } from './layout';
import { isGone, pageAttendee, type AttendeeScope } from './attendee';
import { gonePage } from './gone';

/** The console with `notes` above it (values of the URL that were ignored, a reset that took what it showed). */
export function consolePage(c: Context, deps: Deps, asked: ConsoleQuery, notes: string[]) {
  // A workshop attendee (their link, or the browser they joined from) sees their tenant only (sandbox.md 5.2).
  const attendee = pageAttendee(c, deps);
  if (isGone(attendee)) return gonePage(c, deps, attendee);
  const scope = attendee?.scope;
  if (scope && asked.account !== undefined && asked.account !== scope.accountId) return refusal(c, 403, `This console link shows only ${scope.name}'s tenant; account ${asked.account} is not theirs.`);
  const needsToken = Boolean(deps.settings.adminToken) && !scope;
  const body = needsToken ? { q: asked, html: '' } : consoleSections(deps, asked, notes, scope);
  const search = consoleHref(body.q, {}).slice(1);
  return renderPage(
    c,
    <Layout title={scope ? `Console of ${scope.name}` : 'Console'} active="console" needsToken={needsToken} attendee={attendee} scripts={['/assets/console.js', '/assets/room.js']} follows phoneUrl={deps.settings.lanUrls?.[0]}>
      <h1 class="visually-hidden">{scope ? `Sandbox console of ${scope.name}` : 'Sandbox console'}</h1>
      {notes.length > 0 && (
        <div class="card" id="console-note" role="status">
          {notes.map((n) => (
            <p>{n}</p>
          ))}
        </div>
      )}
      <div id="console" data-query={search} data-account={body.q.account ?? ''} aria-live="off">
        {needsToken ? <p class="card muted">This sandbox needs its admin token to show its state.</p> : raw(body.html)}
      </div>
    </Layout>,
  );
}

/** A console link that reaches nothing here: said plainly, with the status of the control API's answer. */
function refusal(c: Context, status: 403, message: string) {
  const page = (
    <Layout title="Console" active="console">
      <h1>Console</h1>
      <p class="card notice" role="alert" id="console-refused">
        {message}
      </p>
    </Layout>
  );
  return c.html(`<!doctype html>${String(page)}`, status);
}

/** The console's sections, or (when the query names what is not there: a deleted sub-account) the account's first page with a note. */
function consoleSections(deps: Deps, q: ConsoleQuery, notes: string[], scope?: AttendeeScope): { q: ConsoleQuery; html: string } {
  try {
    return { q, html: String(<ConsoleBody deps={deps} q={q} scope={scope} />) };
  } catch (err) {
    if (!(err instanceof SandboxError) || err.status >= 500) throw err;
    notes.push(`${err.message} Showing the account without filters.`);
    const plain: ConsoleQuery = { account: q.account, page: 1, epage: 1, dpage: 1, attendee: q.attendee, view: q.view };
    return { q: plain, html: String(<ConsoleBody deps={deps} q={plain} scope={scope} />) };
  }
}

/** The console's sections alone (GET /_sandbox/console, control/console.tsx): an attendee's, their tenant's only. */
export const consoleFragment = (deps: Deps, q: ConsoleQuery, principal: Principal) => String(<ConsoleBody deps={deps} q={q} scope={principal.kind === 'attendee' ? principal : undefined} />);
