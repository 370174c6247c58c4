// GET /pix/qr/{id}: the location a dynamic BR Code points at (field 26-25). A payer's bank fetches it to learn what
// to pay. It answers a JWS (application/jose) signed with the sandbox key (public half at /.well-known/jwks.json), whose
// payload follows the Central Bank's charge ("cob") shape; `Accept: application/json` gets the payload as plain JSON.
// A browser (Accept preferring text/html) gets the checkout page a customer sees instead (src/pages/checkout.tsx).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { accepts } from 'hono/accepts';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import { locateCharge } from '../services/checkout';
import type { Env } from '../wire/env';
import { ErrorSchema, pathParam } from '../wire/schemas';
import { isoOf, nowOf } from '../services/clocks';
import { isoTime } from '../lib/iso';
import { keySetUrl } from '../services/tokens';

const route = createRoute({
  method: 'get',
  path: '/pix/qr/{id}',
  operationId: 'getBrCodeLocation',
  tags: ['BR Code location'],
  summary: 'The location a dynamic BR Code points at: the charge as a JWS (JSON with Accept: application/json; the checkout page for a browser)',
  description:
    'Answers by the Accept header: application/jose (the default, also for */* or no header), application/json, or text/html when a browser prefers it (the checkout page: merchant, amount, QR, copy-paste code, countdown on the sandbox clock, live status, and a panel that pays it as the customer).',
  security: [],
  request: { params: z.object({ id: pathParam('id', 'The charge id (the transaction id)') }) },
  responses: {
    200: {
      description: 'The charge in the Central Bank cob shape, signed (ES256, key at /.well-known/jwks.json)',
      content: {
        'application/jose': { schema: z.string() },
        'application/json': { schema: z.record(z.string(), z.unknown()) },
        'text/html': { schema: z.string().openapi({ description: 'The checkout page' }) },
      },
    },
    404: { description: 'No charge at this location (an HTML page for a browser)', content: { 'application/json': { schema: ErrorSchema }, 'text/html': { schema: z.string() } } },
  },
});

/** What the location answers for an Accept header: the first of these the client prefers; jose for anything else. */
export const LOCATION_TYPES = ['application/jose', 'application/json', 'text/html'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

const STATUS = { pending: 'ATIVA', completed: 'CONCLUIDA', cancelled: 'REMOVIDA_PELO_PSP', failed: 'REMOVIDA_PELO_PSP' } as const;

export function registerLocation(app: OpenAPIHono<Env>, deps: Deps) {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const type = accepts(c, { header: 'Accept', supports: [...LOCATION_TYPES], default: 'application/jose' }) as LocationType;
    const charge = locateCharge(deps, id);
    if (type === 'text/html') {
      // The checkout page's code is loaded at the first browser visit, not at start-up.
      const [{ checkoutPage, checkoutNotFoundPage }, { renderPage }, { pageAttendee, isGone }, { gonePage }] = await Promise.all([import('./checkout'), import('./layout'), import('./attendee'), import('./gone')]);
      // A workshop attendee (their link, or the browser they joined from) follows and pays with their own token; one
      // whose tenant is gone is told so (their charge went with it).
      const attendee = pageAttendee(c, deps);
      if (isGone(attendee)) return gonePage(c, deps, attendee) as never;
      if (!charge) return c.html(`<!doctype html>${String(checkoutNotFoundPage(id))}`, 404) as never;
      return renderPage(
        c,
        checkoutPage({
          charge,
          now: nowOf(deps, charge.account),
          frozen: deps.clocks.of(charge.account).frozen,
          ownClock: deps.clocks.owns(charge.account.id),
          tokenRequired: !!deps.settings.adminToken,
          phoneUrl: deps.settings.lanUrls?.[0],
          attendee,
        }),
      ) as never;
    }
    if (!charge) throw new SandboxError('TRANSACTION_NOT_FOUND', `No PIX charge at this location (${id}).`, { resource: 'charge', id });
    const { tx, account } = charge;
    const cob = tx.charge!;
    const payload = {
      calendario: {
        criacao: isoTime(tx.createdAt),
        apresentacao: isoOf(deps, account),
        expiracao: Math.round((cob.expiresAt - tx.createdAt) / 1000),
      },
      txid: tx.id.replaceAll('-', ''),
      revisao: 0,
      status: STATUS[tx.status],
      valor: { original: (tx.amount / 100).toFixed(2) },
      chave: account.id,
      ...(tx.description ? { solicitacaoPagador: tx.description.slice(0, 140) } : {}),
    };
    if (type === 'application/json') return c.json(payload, 200);
    return c.body(await deps.tokens.signJws(payload, { jku: keySetUrl(c.req.url) }), 200, { 'Content-Type': 'application/jose' }) as never;
  });
}
