// GET /v1/transactions/{id} (sandbox.md 12): any transaction of the account, whichever face or wallet made it.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { getAccountTransaction } from '../../../services/transactions';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json, pathParam } from '../../../wire/schemas';
import { v1Errors, v1Headers, v1NotFound, v1Security, v1Tags } from '../schemas';
import { transactionV1View } from '../views';
import { TransactionSchema } from '../../../wire/resources/transactions';

/** v2's transaction (2.5) as the SDKs type it: without the PSP's fields. */
export const TransactionV1Schema = TransactionSchema.omit({ e2eId: true, counterpartName: true, counterpartDocument: true }).openapi('TransactionV1');

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
