import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { getTransaction } from '../../../services/transactions';
import { guard } from '../guard';
import { json, pathParam, subAccountHeader, v2Errors } from '../../../wire/schemas';
import { transactionView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { TransactionSchema } from '../../../wire/resources/transactions';

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/transactions/{id}',
      operationId: 'getTransaction',
      tags: ['v2 API'],
      summary: 'Look up a transaction by id, externalReference or Idempotency-Key',
      middleware: [guard(deps, { permissions: ['TRANSACTION:READ'] })] as const,
      request: { headers: subAccountHeader, params: z.object({ id: pathParam('id', 'The transaction UUID, else the externalReference given at creation (newest wins), else the Idempotency-Key of POST /v2/pix or /v2/withdrawals') }) },
      responses: { 200: json(TransactionSchema, 'The transaction'), ...v2Errors },
    }),
    (c) => c.json(transactionView(getTransaction(c.get('caller'), c.req.valid('param').id)) as z.infer<typeof TransactionSchema>, 200),
  );
}
