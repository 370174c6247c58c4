// The pages a person opens: the console at / (and its assets). GET /_sandbox/console (control/console.ts) answers
// the same sections for the console's live updates. With SANDBOX_ADMIN_TOKEN set, / renders no tenant data: the
// script asks for the token and loads the sections through the control API, which checks it.
import { createRoute, z } from '@hono/zod-openapi';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { Env } from '../http/env';
import { intQuery } from '../http/schemas';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../domain/types';
import { ConsoleBody, type ConsoleQuery } from './console';
import { Layout, renderPage } from './layout';
import { registerAssets } from './static';

const TYPES = TRANSACTION_TYPES;
const STATUSES = TRANSACTION_STATUSES;

/** The console's query: which account, the transaction filters and the page of each list. */
export const ConsoleQuerySchema = z.object({
  account: z.string().optional().openapi({ description: 'Account id (default: the first account)' }),
  // '' is what the filter form sends for "any".
  type: z.enum(['', ...TYPES], { error: `must be one of ${TYPES.join(', ')} (or empty for any)` }).optional(),
  // 'expired': the charges cancelled by expiry (sandbox.md 5.1), a console filter over the cancelled ones.
  status: z.enum(['', ...STATUSES, 'expired'], { error: `must be one of ${STATUSES.join(', ')}, expired (or empty for any)` }).optional(),
  wallet: z.string().optional().openapi({ description: 'Only transactions of this wallet: a sub-account reference or "principal"' }),
  page: intQuery('page', 1, Number.MAX_SAFE_INTEGER, 1),
  epage: intQuery('epage', 1, Number.MAX_SAFE_INTEGER, 1),
  dpage: intQuery('dpage', 1, Number.MAX_SAFE_INTEGER, 1),
});

/** Empty filters from a GET form (`type=`) mean "any". */
export function consoleQuery(raw: z.infer<typeof ConsoleQuerySchema>): ConsoleQuery {
  return { ...raw, account: raw.account || undefined, wallet: raw.wallet || undefined, type: raw.type || undefined, status: raw.status || undefined };
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
      request: { query: ConsoleQuerySchema },
      responses: { 200: { description: 'The console page', content: { 'text/html': { schema: z.string() } } }, 400: { description: 'A query parameter out of range' } },
    }),
    (c) => {
      const q = consoleQuery(c.req.valid('query'));
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
    },
  );
}
