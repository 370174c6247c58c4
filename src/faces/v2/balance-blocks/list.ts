// GET /v2/balance-blocks: the wallet's balance blocks (service document 4.9), newest first, optionally of one status.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { listBlocks } from '../../../services/balance-blocks';
import { guard } from '../guard';
import { json, subAccountHeader, v2Errors } from '../../../wire/schemas';
import { balanceBlockView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { BalanceBlockQuery, BalanceBlockSchema } from '../../../wire/resources/balance-blocks';

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
