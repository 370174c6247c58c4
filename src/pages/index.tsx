// The pages a person opens: the console at / (and its assets). GET /_sandbox/console (control/console.ts) answers
// the same sections for the console's live updates. With SANDBOX_ADMIN_TOKEN set, / renders no tenant data: the
// script asks for the token and loads the sections through the control API, which checks it.
import { createRoute, z } from '@hono/zod-openapi';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { Env } from '../wire/env';
import { type ConsoleQuery, ConsoleQuerySchema, consoleQuery } from '../wire/console-query';
import { registerAssets } from './static';

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
    // The page's code (and the JSX runtime) is loaded at the first visit, not at start-up (STYLE.md 18).
    async (c) => {
      const { q, notes } = pageQuery(c.req.query());
      // ?gone=1: the console script came back here because what it showed is gone (its fragment answered 404).
      if (c.req.query('gone') !== undefined) notes.unshift('What the console showed is gone (the sandbox was reset, or an account or sub-account was deleted): here is the account list.');
      return (await import('./console-page')).consolePage(c, deps, q, notes) as never;
    },
  );
}
