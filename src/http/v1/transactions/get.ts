// GET /v1/transactions/{id} (sandbox.md 12): any transaction of the account, whichever face or wallet made it.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../../../domain/types';
import { getAccountTransaction } from '../../../services/transactions';
import type { Router } from '../../env';
import { apiKeyGuard } from '../../middleware/apiKey';
import { dateTime, json, pathParam, uuid } from '../../schemas';
import { v1Errors, v1Headers, v1NotFound, v1Security, v1Tags } from '../schemas';
import { transactionV1View } from '../views';

export const TransactionV1Schema = z
  .object({
    id: uuid(),
    status: z.enum(TRANSACTION_STATUSES),
    type: z.enum(TRANSACTION_TYPES),
    paymentMethod: z.enum(['pix', 'credit_card', 'boleto']),
    amount: z.number(),
    currency: z.literal('BRL'),
    description: z.string().optional(),
    externalReference: z.string().optional(),
    customerId: uuid().optional(),
    projectId: uuid().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    pixCopyPaste: z.string().optional(),
    expiresAt: dateTime().optional(),
    paidAt: dateTime().optional(),
    createdAt: dateTime(),
    updatedAt: dateTime().optional(),
  })
  .openapi('TransactionV1');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/transactions/{id}',
      operationId: 'getTransactionV1',
      tags: v1Tags,
      summary: 'Look up a transaction of the account by id, externalReference or Idempotency-Key',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['TRANSACTION:READ'] })] as const,
      request: { headers: v1Headers, params: z.object({ id: pathParam('id', 'The transaction UUID, else an externalReference, else an Idempotency-Key') }) },
      responses: { 200: json(TransactionV1Schema, 'The transaction'), ...v1Errors, ...v1NotFound },
    }),
    (c) => c.json(transactionV1View(getAccountTransaction(c.get('caller').account, c.req.valid('param').id)) as z.infer<typeof TransactionV1Schema>, 200),
  );
}
