// The pages a person opens: the console at / (and its assets). GET /_sandbox/console (control/console.ts) answers
// the same sections for the console's live updates. With SANDBOX_ADMIN_TOKEN set, / renders no tenant data: the
// script asks for the token and loads the sections through the control API, which checks it.
import { createRoute, z } from '@hono/zod-openapi';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { Env } from '../http/env';
import { intQuery } from '../http/schemas';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../domain/types';
import { raw } from 'hono/html';
import { SandboxError } from '../domain/errors';
import { ConsoleBody, consoleHref, type ConsoleQuery } from './console';
import { Layout, renderPage } from './layout';
import { registerAssets } from './static';

const TYPES = TRANSACTION_TYPES;
const STATUSES = TRANSACTION_STATUSES;

/** The console's query: which account, the transaction filters and the page of each list. */
export const ConsoleQuerySchema = z.object({
  account: z.string().optional().openapi({ description: 'Account id (default: the first account)' }),
  // '' is what the filter form sends for "any".
  type: z.enum(['', ...TYPES], { error: `must be one of ${TYPES.join(', ')} (or empty for any)` }).optional(),
  status: z.enum(['', ...STATUSES], { error: `must be one of ${STATUSES.join(', ')} (or empty for any)` }).optional(),
  wallet: z.string().optional().openapi({ description: 'Only transactions of this wallet: a sub-account reference or "principal"' }),
  page: intQuery('page', 1, Number.MAX_SAFE_INTEGER, 1),
  epage: intQuery('epage', 1, Number.MAX_SAFE_INTEGER, 1),
  dpage: intQuery('dpage', 1, Number.MAX_SAFE_INTEGER, 1),
});

/** Empty filters from a GET form (`type=`) mean "any". */
export function consoleQuery(raw: z.infer<typeof ConsoleQuerySchema>): ConsoleQuery {
  return { ...raw, account: raw.account || undefined, wallet: raw.wallet || undefined, type: raw.type || undefined, status: raw.status || undefined };
}

/**
 * The page's own query, read leniently: a value that does not fit is dropped and said in a note, so a person who
 * typed `/?page=-1` or `/?type=x` sees the console, never a raw JSON error (GET /_sandbox/console stays strict).
 */
function pageQuery(input: Record<string, string>): { q: ConsoleQuery; notes: string[] } {
  const notes: string[] = [];
  const kept = { ...input };
  for (;;) {
    const parsed = ConsoleQuerySchema.safeParse(kept);
    if (parsed.success) return { q: consoleQuery(parsed.data), notes };
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]);
      notes.push(`Ignored ${key}=${kept[key] ?? ''}: ${key} ${issue.message}.`);
      delete kept[key];
    }
  }
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

export function registerPages(app: OpenAPIHono<Env>, deps: Deps) {
  registerAssets(app);
  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags: ['Pages'],
      operationId: 'getConsolePage',
      security: [],
      // A page for people, not an API operation: served and validated like the rest, left out of /openapi.json.
      hide: true,
      summary: 'The console (HTML): accounts, wallets, transactions with their control actions, events, deliveries, the clock; live',
      // Read leniently by the handler (pageQuery), not validated here: a bad value shows the page with a note.
      responses: { 200: { description: 'The console page', content: { 'text/html': { schema: z.string() } } } },
    }),
    (c) => {
      const { q: asked, notes } = pageQuery(c.req.query());
      // ?gone=1: the console script came back here because what it showed is gone (its fragment answered 404).
      if (c.req.query('gone') !== undefined) notes.unshift('What the console showed is gone (the sandbox was reset, or an account or sub-account was deleted): here is the account list.');
      const needsToken = Boolean(deps.settings.adminToken);
      const body = needsToken ? { q: asked, html: '' } : consoleSections(deps, asked, notes);
      const search = consoleHref(body.q, {}).slice(1);
      return renderPage(
        c,
        <Layout title="Console" active="console" needsToken={needsToken} scripts={['/assets/console.js']}>
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
    },
  );
}
