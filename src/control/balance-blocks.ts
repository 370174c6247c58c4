// POST /_sandbox/balance-blocks/{id}/{defend|approve|reject}: move a balance block on (sandbox.md 4.3). Blocks are
// opened with the transaction action `block` on a completed payment.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { BLOCK_ACTIONS, resolveBlock } from '../services/balance-blocks';
import { controlErrors, json, jsonBody } from '../http/schemas';
import { balanceBlockControlView } from '../http/views';
import type { Router } from '../http/env';

export function registerBalanceBlockControl(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/balance-blocks/{id}/{action}',
      tags: ['Control API'],
      summary: 'Defend, approve (the amount leaves as a chargeback) or reject (back to available) a balance block',
      request: {
        params: z.object({
          id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
          action: z.enum(BLOCK_ACTIONS, { error: `must be one of ${BLOCK_ACTIONS.join(', ')}` }).openapi({ param: { name: 'action', in: 'path' } }),
        }),
        body: jsonBody(z.object({ reason: z.string({ error: 'must be a string' }).max(255, { error: 'must be at most 255 characters' }).optional() })),
      },
      responses: { 200: json(z.record(z.string(), z.unknown()), 'The block after the move'), ...controlErrors },
    }),
    (c) => {
      const { id, action } = c.req.valid('param');
      const { account, block } = resolveBlock(deps, id, action, c.req.valid('json').reason);
      return c.json(balanceBlockControlView(account, block), 200);
    },
  );
}
