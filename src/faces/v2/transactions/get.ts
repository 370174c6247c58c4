import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../../../domain/types';
import { getTransaction } from '../../../services/transactions';
import { guard } from '../guard';
import { dateTime, json, pathParam, subAccountHeader, uuid, v2Errors } from '../../../wire/schemas';
import { transactionView } from '../../../wire/views';
import type { Router } from '../../../wire/env';

export const TransactionSchema = z
  .object({
    id: uuid(),
    status: z.enum(TRANSACTION_STATUSES),
    type: z.enum(TRANSACTION_TYPES),
    paymentMethod: z.enum(['pix', 'credit_card', 'boleto']),
    amount: z.number(),
    currency: z.literal('BRL'),
    createdAt: dateTime(),
    description: z.string().optional(),
    externalReference: z.string().optional(),
    customerId: uuid().optional(),
    projectId: uuid().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    pixCopyPaste: z.string().optional(),
    expiresAt: dateTime().optional(),
    paidAt: dateTime().optional(),
    e2eId: z.string().optional(),
    counterpartName: z.string().optional(),
    counterpartDocument: z.string().optional(),
    updatedAt: dateTime().optional(),
  })
  .openapi('Transaction');

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
