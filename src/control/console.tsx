// GET /_sandbox/console: the console's sections as an HTML fragment, for the console's live updates and for the
// console of a sandbox with an admin token (the page itself renders no tenant data then; this route checks the token
// like every control route). The markup is the pages' (pages/console-page.tsx): route-groups.ts hands it in as
// `fragment`, so that the control API imports no page.
import { createRoute, z } from '@hono/zod-openapi';
import type { Router } from '../wire/env';
import type { Principal } from '../domain/workshop';
import { controlErrors, controlSecurity } from '../wire/schemas';
import { type ConsoleQuery, ConsoleQuerySchema, consoleQuery } from '../wire/console-query';

/** The console's sections for a query, as HTML (loaded at its first call, not at start-up); an attendee's only their tenant's. */
export type ConsoleFragment = (q: ConsoleQuery, principal: Principal) => Promise<string>;

export function registerConsoleFragment(app: Router, fragment: ConsoleFragment) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/console',
      tags: ['Control API'],
      operationId: 'getConsoleFragment',
      security: controlSecurity,
      // For the console page, not an API operation: left out of /openapi.json like the pages.
      hide: true,
      summary: "The console's account picker and sections (HTML fragment) for the query the console page was opened with",
      request: { query: ConsoleQuerySchema },
      responses: { 200: { description: 'HTML fragment', content: { 'text/html': { schema: z.string() } } }, ...controlErrors },
    }),
    async (c) => c.html(await fragment(consoleQuery(c.req.valid('query')), c.get('principal'))),
  );
}
