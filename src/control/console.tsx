// GET /_sandbox/console: the console's sections as an HTML fragment, for the console's live updates and for the
// console of a sandbox with an admin token (the page itself renders no tenant data then; this route checks the token
// like every control route).
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { Router } from '../wire/env';
import { controlErrors, controlSecurity } from '../wire/schemas';
import { ConsoleQuerySchema, consoleQuery } from '../pages';

export function registerConsoleFragment(app: Router, deps: Deps) {
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
    // The console's code is loaded at the first call, not at start-up.
    async (c) => c.html((await import('../pages/console-page')).consoleFragment(deps, consoleQuery(c.req.valid('query')))),
  );
}
