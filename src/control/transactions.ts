// /_sandbox/transactions/{id}/{action} and /_sandbox/accounts/{id}/events.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { toCents } from '../domain/money';
import { ACTION_NAMES, runAction } from '../services/actions';
import { EVENT_KINDS } from '../webhooks/events';
import { controlErrors, json, jsonBody } from '../http/schemas';
import { eventView } from '../http/views';
import { listAccountEvents } from '../services/lists';
import { orderQuery, pageQuery, pageSchema } from './lists';
import type { Router } from '../http/env';

const tags = ['Control API'];
const Loose = z.record(z.string(), z.unknown());

export function registerTransactionControl(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/transactions/{id}/{action}',
      tags,
      summary: 'Move a transaction or withdrawal on: pay, expire, fail, cancel, process, complete, reverse, block',
      request: {
        params: z.object({
          id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
          action: z.enum(ACTION_NAMES, { error: `must be one of ${ACTION_NAMES.join(', ')}` }).openapi({ param: { name: 'action', in: 'path' } }),
        }),
        body: jsonBody(
          z.object({
            payerName: z.string().min(1).max(255).optional(),
            payerDocument: z.string().min(11).max(14).optional(),
            reason: z.string().max(255).optional(),
            amount: z
              .number()
              .positive()
              .refine((v) => toCents(v) !== null, { error: 'must have at most 2 decimal places' })
              .transform((v) => toCents(v)!)
              .optional(),
            blockType: z.enum(['med', 'judicial', 'administrative'], { error: "must be 'med', 'judicial' or 'administrative'" }).optional(),
          }),
        ),
      },
      responses: { 200: json(Loose, 'The resource after the move'), ...controlErrors },
    }),
    (c) => {
      const { id, action } = c.req.valid('param');
      return c.json(runAction(deps, id, action, c.req.valid('json')) as Record<string, unknown>, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/events',
      tags,
      summary: 'Events of an account, oldest first unless order=newest (the exact envelope each delivery sends), a page at a time',
      request: {
        params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) }),
        query: z.object({
          event: z.enum(EVENT_KINDS, { error: `must be one of ${EVENT_KINDS.join(', ')}` }).optional(),
          subAccount: z.string().optional().openapi({ description: 'Only events of this sub-account reference ("principal" for the main account)' }),
          ...pageQuery,
          ...orderQuery,
        }),
      },
      responses: { 200: json(pageSchema(Loose, 'SandboxEventPage'), '{items, total, page, limit}'), ...controlErrors },
    }),
    (c) => {
      const { page, limit, order, ...filter } = c.req.valid('query');
      const list = listAccountEvents(deps, c.req.valid('param').id, filter, order, { page, limit });
      return c.json({ ...list, items: list.items.map(eventView) }, 200);
    },
  );
}
