// POST /_sandbox/balance-blocks/{id}/{defend|approve|reject}: move a balance block on (sandbox.md 4.3). Blocks are
// opened with the transaction action `block` on a completed payment.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { unknownAction } from './unknown-action';
import { BLOCK_ACTIONS, resolveBlock, type BlockAction } from '../services/balance-blocks';
import { controlConflict, controlErrors, controlSecurity, json, optionalJsonBody, pathParam } from '../wire/schemas';
import { balanceBlockControlView } from '../wire/views';
import type { Router } from '../wire/env';
import { BalanceBlockControlSchema } from './answers';

// One path per action, as for transactions (control/transactions.ts): defendBalanceBlock, approveBalanceBlock...
const SUMMARY: Record<BlockAction, string> = {
  defend: 'Defend a balance block awaiting response: defended (no event)',
  approve: 'Approve a balance block: the amount leaves as a chargeback; sends balance_block_approved',
  reject: 'Reject a balance block: the amount returns to available; sends balance_block_rejected',
};
const ReasonBody = z.object({ reason: z.string({ error: 'must be a string' }).max(255, { error: 'must be at most 255 characters' }).optional() }).openapi('BlockResolution');

export function registerBalanceBlockControl(app: Router, deps: Deps) {
  for (const action of BLOCK_ACTIONS) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/balance-blocks/{id}/${action}`,
        operationId: `${action}BalanceBlock`,
        tags: ['Control API'],
        security: controlSecurity,
        summary: SUMMARY[action],
        request: {
          params: z.object({ id: pathParam('id', 'The balance block id') }),
          body: optionalJsonBody(ReasonBody, { reason: 'Documents sent to the institution' }),
        },
        responses: { 200: json(BalanceBlockControlSchema, 'The block after the move'), ...controlErrors, ...controlConflict('INVALID_STATE_TRANSITION: the block is already resolved (or defended, for defend)') },
      }),
      (c) => {
        const { account, block } = resolveBlock(deps, c.req.valid('param').id, action, c.req.valid('json').reason);
        return c.json(balanceBlockControlView(account, block), 200);
      },
    );
  }
  // Not in /openapi.json: an action that is none of the above is a 400 naming the ones there are, not a bare 404.
  app.post('/balance-blocks/:id/*', unknownAction('/balance-blocks/', BLOCK_ACTIONS));
}
