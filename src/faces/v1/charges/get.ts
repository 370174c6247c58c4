// GET /v1/charges/{id} (sandbox.md 12): one payment link, its counters and its status on the sandbox clock.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { getPaymentLink } from '../../../services/payment-links';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json, pathParam } from '../../../wire/schemas';
import { paymentLinkView } from '../../../wire/views';
import { v1Errors, v1Headers, v1NotFound, v1Security, v1Tags } from '../schemas';
import { PaymentLinkSchema } from '../../../wire/resources/payment-links';
import { nowOf } from '../../../services/clocks';

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/charges/{id}',
      operationId: 'getPaymentLink',
      tags: v1Tags,
      summary: 'Get a payment link',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['CHARGE:READ'] })] as const,
      request: { headers: v1Headers, params: z.object({ id: pathParam('id', 'The payment link id') }) },
      responses: { 200: json(PaymentLinkSchema, 'The payment link'), ...v1Errors, ...v1NotFound },
    }),
    (c) => c.json(paymentLinkView(getPaymentLink(c.get('caller').account, c.req.valid('param').id), nowOf(deps, c.get('caller').account), new URL(c.req.url).origin), 200),
  );
}
