// POST /v2/transactions/{id}/refund: request the total, asynchronous refund of a completed payment (service
// document 4.4). 201 with the refund result of 2.6, status PENDING until refund_completed.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { requestRefund } from '../../../services/refunds';
import { guard } from '../guard';
import { createdHeaders, json, optionalJsonBody, pathParam, subAccountHeader, v2Errors } from '../../../wire/schemas';
import { refundResultView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { RefundResultSchema } from '../../../wire/resources/transactions';

const RefundInput = z.object({ reason: z.string({ error: 'must be a string' }).max(255, { error: 'must be at most 255 characters' }).optional() }).openapi('RefundInput');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/transactions/{id}/refund',
      operationId: 'refundTransaction',
      tags: ['v2 API'],
      summary: 'Refund what is left of a completed payment, all of it unless API Pix devoluções returned part (asynchronous: refund_completed follows)',
      middleware: [guard(deps, { permissions: ['REFUND:WRITE'] })] as const,
      request: {
        headers: subAccountHeader,
        params: z.object({ id: pathParam('id', 'The payment transaction id') }),
        body: optionalJsonBody(RefundInput, { reason: 'Customer returned the product' }),
      },
      responses: {
        201: {
          ...json(RefundResultSchema, 'Refund accepted, PENDING'),
          headers: createdHeaders({ idempotent: false, location: 'The refund transaction: /v2/transactions/{refundTransactionId}' }),
        },
        ...v2Errors,
      },
    }),
    (c) => {
      const refund = requestRefund(deps, c.get('caller'), c.req.valid('param').id, c.req.valid('json'));
      // 2.6 carries no id of the refund transaction itself: Location names it, for GET /v2/transactions/{id}
      // and the control actions (it also arrives later as refundTransactionId in refund_completed).
      c.header('Location', `/v2/transactions/${refund.id}`);
      return c.json(refundResultView(refund), 201);
    },
  );
}
