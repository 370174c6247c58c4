// The console page at / (registered in pages/index.tsx, loaded at its first visit).
import type { Context } from 'hono';
import type { Deps } from '../deps';
import { ConsoleBody, type ConsoleQuery } from './console';
import { Layout, renderPage } from './layout';

export function consolePage(c: Context, deps: Deps, q: ConsoleQuery) {
  const needsToken = Boolean(deps.settings.adminToken);
  const search = new URL(c.req.url).search;
  return renderPage(
    c,
    <Layout title="Console" active="console" needsToken={needsToken} scripts={['/assets/console.js']} phoneUrl={deps.settings.lanUrls?.[0]}>
      <h1 class="visually-hidden">Sandbox console</h1>
      <div id="console" data-query={search} data-account={q.account ?? ''} aria-live="off">
        {needsToken ? <p class="card muted">This sandbox needs its admin token to show its state.</p> : <ConsoleBody deps={deps} q={q} />}
      </div>
    </Layout>,
  );
}

/** The console's sections alone (GET /_sandbox/console, control/console.tsx). */
export const consoleFragment = (deps: Deps, q: ConsoleQuery) => String(<ConsoleBody deps={deps} q={q} />);
