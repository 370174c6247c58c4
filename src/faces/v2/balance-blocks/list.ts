// GET /v2/balance-blocks: the wallet's balance blocks (service document 4.9), newest first, optionally of one status.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { BALANCE_BLOCK_STATUSES, BLOCK_TYPES } from '../../../domain/types';
import { listBlocks } from '../../../services/balance-blocks';
import { guard } from '../guard';
import { dateTime, json, subAccountHeader, uuid, v2Errors } from '../../../wire/schemas';
import { balanceBlockView } from '../../../wire/views';
import type { Router } from '../../../wire/env';

export const BalanceBlockSchema = z
  .object({
    id: uuid(),
    transactionId: uuid().openapi({ description: 'The blocked payment' }),
    amount: z.number(),
    status: z.enum(BALANCE_BLOCK_STATUSES),
    blockType: z.enum(BLOCK_TYPES),
    referenceNumber: z.string(),
    reason: z.string(),
    createdAt: dateTime(),
    externalReference: z.string().optional().openapi({ description: "The payment's externalReference" }),
    e2eId: z.string().optional().openapi({ description: "The payment's end-to-end id" }),
    resolutionReason: z.string().optional(),
    resolvedAt: dateTime().optional(),
  })
  .openapi('BalanceBlock');

export const BalanceBlockQuery = z.object({
  status: z
    .enum(BALANCE_BLOCK_STATUSES, { error: `must be one of ${BALANCE_BLOCK_STATUSES.join(', ')} (or omitted for every block)` })
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
});

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/balance-blocks',
      operationId: 'listBalanceBlocks',
      tags: ['v2 API'],
      summary: 'List the balance blocks (MED, judicial, administrative) of the wallet',
      middleware: [guard(deps, { permissions: ['BALANCE_BLOCK:READ'] })] as const,
      request: { headers: subAccountHeader, query: BalanceBlockQuery },
      responses: {
        200: json(z.object({ items: z.array(BalanceBlockSchema), total: z.number().int() }).openapi('BalanceBlockList'), 'The blocks, newest first'),
        ...v2Errors,
      },
    }),
    (c) => {
      const items = listBlocks(c.get('caller'), c.req.valid('query').status).map(balanceBlockView);
      return c.json({ items, total: items.length }, 200);
    },
  );
}
