// POST /v1/transactions/{id}/refund (sandbox.md 12): the refund of the core (requestRefund, as v2), acting on the
// wallet that owns the payment; 201 with the refund result of 2.6, refund_completed follows.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { requestRefund } from '../../../services/refunds';
import { getAccountTransaction, ownerOf } from '../../../services/transactions';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json, optionalJsonBody, pathParam } from '../../../wire/schemas';
import { refundResultView } from '../../../wire/views';
import { text, v1Errors, v1Headers, v1NotFound, v1Security, v1Tags } from '../schemas';
import { RefundResultSchema } from '../../../wire/resources/transactions';

const RefundV1Input = z.object({ reason: text(255).nullish().transform((v) => v ?? undefined) }).openapi('RefundInputV1');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/transactions/{id}/refund',
      operationId: 'refundTransactionV1',
      tags: v1Tags,
      summary: 'Refund what is left of a completed payment, all of it unless API Pix devoluções returned part (asynchronous: refund_completed follows)',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['REFUND:WRITE'] })] as const,
      request: { headers: v1Headers, params: z.object({ id: pathParam('id', 'The payment transaction id') }), body: optionalJsonBody(RefundV1Input, { reason: 'Cliente devolveu o produto' }) },
      responses: { 201: json(RefundResultSchema, 'Refund accepted, PENDING'), ...v1Errors, ...v1NotFound },
    }),
    (c) => {
      const { account } = c.get('caller');
      const payment = getAccountTransaction(account, c.req.valid('param').id);
      const refund = requestRefund(deps, ownerOf(account, payment), payment.id, c.req.valid('json') ?? {});
      c.header('Location', `/v1/transactions/${refund.id}`);
      return c.json(refundResultView(refund), 201);
    },
  );
}
