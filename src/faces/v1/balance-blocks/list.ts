// GET /v1/balance-blocks (sandbox.md 12): the v2 answer ({items, total}) for the main account.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { listBlocks } from '../../../services/balance-blocks';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json } from '../../../wire/schemas';
import { balanceBlockV1View } from '../views';
import { v1Errors, v1Headers, v1Security, v1Tags } from '../schemas';
import { BalanceBlockQuery, BalanceBlockSchema } from '../../../wire/resources/balance-blocks';

const nullable = (s: z.ZodString) => s.nullable();
const BalanceBlockV1Schema = BalanceBlockSchema.extend({
  externalReference: nullable(z.string()),
  e2eId: nullable(z.string()),
  resolutionReason: nullable(z.string()),
  resolvedAt: nullable(z.string().openapi({ format: 'date-time' })),
}).openapi('BalanceBlockV1');


export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/balance-blocks',
      operationId: 'listBalanceBlocksV1',
      tags: v1Tags,
      summary: 'List the balance blocks of the main account',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['BALANCE_BLOCK:READ'] })] as const,
      request: { headers: v1Headers, query: BalanceBlockQuery },
      responses: { 200: json(z.object({ items: z.array(BalanceBlockV1Schema), total: z.number().int() }).openapi('BalanceBlockListV1'), 'The blocks, newest first'), ...v1Errors },
    }),
    (c) => {
      const items = listBlocks(c.get('caller'), c.req.valid('query').status).map(balanceBlockV1View);
      return c.json({ items, total: items.length }, 200);
    },
  );
}
