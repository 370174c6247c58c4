// /_sandbox webhook endpoints and deliveries (sandbox.md 4.2). An endpoint's secret is shown only by the POST that
// creates it; deliveries show every attempt, and a replay is a new delivery of the same event.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { addWebhook, deleteWebhook, locateDelivery, patchWebhook, replayDelivery } from '../services/webhooks';
import { listAccountDeliveries } from '../services/lists';
import { partsOf } from '../webhooks/dispatcher';
import { orderQuery, pageQuery, pageSchema } from './lists';
import { controlErrors, json, jsonBody } from '../http/schemas';
import { deliveryView, webhookView } from '../http/views';
import type { Router } from '../http/env';
import { EVENT_KINDS } from '../webhooks/events';
import { WebhookPatchSchema, WebhookSpecSchema } from './schemas';

const tags = ['Control API'];
const Loose = z.record(z.string(), z.unknown());
const pathParam = (name: string) => z.string().openapi({ param: { name, in: 'path' } });
const accountId = z.object({ id: pathParam('id') });
const DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;

export function registerWebhookControl(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/webhooks',
      tags,
      summary: 'Register a webhook endpoint (optionally for one sub-account, optionally for some event kinds); the secret is shown only here',
      request: { params: accountId, body: jsonBody(WebhookSpecSchema.omit({ id: true })) },
      responses: { 201: json(Loose, 'The endpoint with its secret'), ...controlErrors },
    }),
    (c) => c.json(webhookView(addWebhook(deps, c.req.valid('param').id, c.req.valid('json')), true), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/webhooks',
      tags,
      summary: "An account's webhook endpoints (without secrets)",
      request: { params: accountId },
      responses: { 200: json(Loose, '{items}'), ...controlErrors },
    }),
    (c) => c.json({ items: deps.store.account(c.req.valid('param').id).webhooks.map((w) => webhookView(w, false)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/webhooks/{endpointId}',
      tags,
      summary: 'Point an endpoint at a URL (null: nowhere) or change the event kinds it takes; pending retries use the new URL',
      request: { params: z.object({ endpointId: pathParam('endpointId') }), body: jsonBody(WebhookPatchSchema) },
      responses: { 200: json(Loose, 'The endpoint (without its secret)'), ...controlErrors },
    }),
    (c) => c.json(webhookView(patchWebhook(deps, c.req.valid('param').endpointId, c.req.valid('json')), false), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/webhooks/{endpointId}',
      tags,
      summary: 'Delete an endpoint; its pending deliveries end failed at their next attempt',
      request: { params: z.object({ endpointId: pathParam('endpointId') }) },
      responses: { 200: json(Loose, '{id, deleted}'), ...controlErrors },
    }),
    (c) => {
      const { endpointId } = c.req.valid('param');
      deleteWebhook(deps, endpointId);
      return c.json({ id: endpointId, deleted: true }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/deliveries',
      tags,
      summary: 'Deliveries of an account, oldest first unless order=newest, each with its attempts (time, status code, duration, error, request headers and body, first 2 KB of the answer), state and next attempt time; a page at a time',
      request: {
        params: accountId,
        query: z.object({
          state: z.enum(DELIVERY_STATES, { error: `must be one of ${DELIVERY_STATES.join(', ')}` }).optional(),
          event: z.enum(EVENT_KINDS, { error: `must be one of ${EVENT_KINDS.join(', ')}` }).optional(),
          eventId: z.string().optional(),
          endpointId: z.string().optional(),
          ...pageQuery,
          ...orderQuery,
        }),
      },
      responses: { 200: json(pageSchema(Loose, 'SandboxDeliveryPage'), '{items, total, page, limit}'), ...controlErrors },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      const { page, limit, order, ...filter } = c.req.valid('query');
      const list = listAccountDeliveries(deps, id, filter, order, { page, limit });
      const account = deps.store.account(id);
      return c.json({ ...list, items: list.items.map((d) => deliveryView(d, partsOf(account, d).event?.body)) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/deliveries/{deliveryId}',
      tags,
      summary: 'One delivery with its attempts',
      request: { params: z.object({ deliveryId: pathParam('deliveryId') }) },
      responses: { 200: json(Loose, 'Delivery'), ...controlErrors },
    }),
    (c) => {
      const { account, delivery } = locateDelivery(deps, c.req.valid('param').deliveryId);
      return c.json(deliveryView(delivery, partsOf(account, delivery).event?.body), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/deliveries/{deliveryId}/replay',
      tags,
      summary: 'Send the same event again to the same endpoint as a new delivery (new X-Service-Webhook-ID, same body and eventId)',
      request: { params: z.object({ deliveryId: pathParam('deliveryId') }) },
      responses: { 201: json(Loose, 'The new delivery (pending: its first attempt starts right after this answer)'), ...controlErrors },
    }),
    (c) => c.json(deliveryView(replayDelivery(deps, c.req.valid('param').deliveryId)), 201),
  );
}
