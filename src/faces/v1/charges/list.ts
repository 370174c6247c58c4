// GET /v1/charges (sandbox.md 12): the account's payment links, newest first; search, status and projectId filters.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { PAYMENT_LINK_STATUSES } from '../../../domain/types';
import { listPaymentLinks } from '../../../services/payment-links';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { intQuery, json } from '../../../wire/schemas';
import { paymentLinkView } from '../../../wire/views';
import { v1Errors, v1Headers, v1Security, v1Tags } from '../schemas';
import { PaymentLinkSchema } from '../../../wire/resources/payment-links';
import { extended } from '../../../lib/objects';
import { nowOf } from '../../../services/clocks';

const Query = z.object({
  page: intQuery('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: intQuery('limit', 1, 100, 20),
  search: z.string().max(255, { error: 'must be at most 255 characters' }).optional().openapi({ param: { name: 'search', in: 'query' }, description: 'Part of the name, description or slug' }),
  status: z.enum(PAYMENT_LINK_STATUSES, { error: `must be one of ${PAYMENT_LINK_STATUSES.join(', ')}` }).optional().openapi({ param: { name: 'status', in: 'query' } }),
  projectId: z.string().optional().openapi({ param: { name: 'projectId', in: 'query' } }),
});

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/charges',
      operationId: 'listPaymentLinks',
      tags: v1Tags,
      summary: 'List payment links, newest first',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['CHARGE:READ'] })] as const,
      request: { headers: v1Headers, query: Query },
      responses: {
        200: json(z.object({ items: z.array(PaymentLinkSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int(), totalPages: z.number().int() }).openapi('PaymentLinkList'), 'A page of links'),
        ...v1Errors,
      },
    }),
    (c) => {
      const result = listPaymentLinks(deps, c.get('caller').account, c.req.valid('query'));
      const now = nowOf(deps, c.get('caller').account);
      const origin = new URL(c.req.url).origin;
      return c.json(extended(result, { items: result.items.map((l) => paymentLinkView(l, now, origin)) }), 200);
    },
  );
}
