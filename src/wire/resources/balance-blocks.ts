// A balance block (MED) as GET /v2/balance-blocks, the v1 list and the control API show it, and the lists' status filter.
import { z } from '@hono/zod-openapi';
import { BALANCE_BLOCK_STATUSES, BLOCK_TYPES } from '../../domain/types';
import { dateTime, uuid } from '../schemas';

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
