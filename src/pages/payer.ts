// GET /pay: the payer page (src/pages/pay.tsx). The page itself holds no rules: it calls POST /_sandbox/brcodes/decode
// and POST /_sandbox/transactions/{id}/pay, the routes curl uses.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { JSQR_PATH, servePackageFile } from './static';
import type { Env } from '../wire/env';

const route = createRoute({
  method: 'get',
  path: '/pay',
  operationId: 'showPayerPage',
  tags: ['Pages'],
  summary: 'Payer page: read a BR Code (paste, image file or camera), see its fields checked, pay the charge it points at; authorise or refuse the Pix Automático recurrences waiting for the payer; lists the magic values',
  security: [],
  // A page for people, not an API operation: left out of /openapi.json like the console.
  hide: true,
  responses: { 200: { description: 'The payer page', content: { 'text/html': { schema: z.string() } } } },
});

export function registerPayerPage(app: OpenAPIHono<Env>, deps: Deps) {
  // The page's code is loaded at its first visit, not at start-up.
  app.openapi(route, async (c) => {
    const [{ payPage }, { renderPage }, { pendingAuthorisations }, { pageAttendee, isGone }, { gonePage }] = await Promise.all([import('./pay'), import('./layout'), import('../services/recs'), import('./attendee'), import('./gone')]);
    // A workshop attendee (the browser they joined from) pays their own charges with their console token; other
    // tenants' recurrences are not theirs to answer. One whose tenant is gone is told so.
    const own = pageAttendee(c, deps);
    if (isGone(own)) return gonePage(c, deps, own) as never;
    return renderPage(c, payPage({ tokenRequired: !!deps.settings.adminToken, phoneUrl: deps.settings.lanUrls?.[0], authorisations: own ? [] : pendingAuthorisations(deps), attendee: own })) as never;
  });
  // The QR decoder the page runs, from node_modules (a dependency of the sandbox): no CDN, works offline.
  servePackageFile(app, JSQR_PATH, 'jsqr', 'dist/jsQR.js');
}
