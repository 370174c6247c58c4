// The console page at / (registered in pages/index.tsx, loaded at its first visit).
import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import { ConsoleBody, consoleHref } from './console';
import type { ConsoleQuery } from '../wire/console-query';
import { Layout, renderPage } from './layout';

/** The console with `notes` above it (values of the URL that were ignored, a reset that took what it showed). */
export function consolePage(c: Context, deps: Deps, asked: ConsoleQuery, notes: string[]) {
  const needsToken = Boolean(deps.settings.adminToken);
  const body = needsToken ? { q: asked, html: '' } : consoleSections(deps, asked, notes);
  const search = consoleHref(body.q, {}).slice(1);
  return renderPage(
    c,
    <Layout title="Console" active="console" needsToken={needsToken} scripts={['/assets/console.js']} phoneUrl={deps.settings.lanUrls?.[0]}>
      <h1 class="visually-hidden">Sandbox console</h1>
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

/** The console's sections, or (when the query names what is not there: a deleted sub-account) the account's first page with a note. */
function consoleSections(deps: Deps, q: ConsoleQuery, notes: string[]): { q: ConsoleQuery; html: string } {
  try {
    return { q, html: String(<ConsoleBody deps={deps} q={q} />) };
  } catch (err) {
    if (!(err instanceof SandboxError) || err.status >= 500) throw err;
    notes.push(`${err.message} Showing the account without filters.`);
    const plain: ConsoleQuery = { account: q.account, page: 1, epage: 1, dpage: 1 };
    return { q: plain, html: String(<ConsoleBody deps={deps} q={plain} />) };
  }
}

/** The console's sections alone (GET /_sandbox/console, control/console.tsx). */
export const consoleFragment = (deps: Deps, q: ConsoleQuery) => String(<ConsoleBody deps={deps} q={q} />);
