// /_sandbox webhook endpoints and deliveries (sandbox.md 4.2). An endpoint's secret is shown only by the POST that
// creates it; deliveries show every attempt, and a replay is a new delivery of the same event.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { addWebhook, deleteWebhook, locateDelivery, patchWebhook, replayDelivery } from '../services/webhooks';
import { listAccountDeliveries } from '../services/lists';
import { partsOf } from '../webhooks/dispatcher';
import { orderQuery, pageQuery } from './lists';
import { controlConflict, controlErrors, controlSecurity, createdHeaders, json, jsonBody, pathParam as param } from '../wire/schemas';
import { DeletedSchema, DeliveryListSchema, DeliverySchema, WebhookEndpointListSchema, WebhookEndpointSchema } from './answers';
import { deliveryView, webhookView } from '../wire/views';
import type { Router } from '../wire/env';
import { WebhookPatchSchema, WebhookSpecSchema } from './schemas';
import { extended } from '../lib/objects';
import { DELIVERY_EVENT_KINDS } from '../domain/events';
import { refuseSelfWebhooks } from '../wire/webhook-urls';

const tags = ['Control API'];
const security = controlSecurity;
const pathParam = (name: string) => param(name, undefined, name === 'id' ? '11111111-1111-4111-8111-111111111111' : undefined);
const accountId = z.object({ id: pathParam('id') });
const DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;

export function registerWebhookControl(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/webhooks',
      operationId: 'createWebhookEndpoint',
      tags,
      security,
      summary: 'Register a webhook endpoint (optionally for one sub-account, optionally for some event kinds); the secret is shown only here',
      request: {
        params: accountId,
        body: jsonBody(WebhookSpecSchema.omit({ id: true }).openapi('WebhookEndpointInput'), { url: 'http://127.0.0.1:3000/webhooks', events: ['payment_completed', 'payment_expired'] }),
      },
      responses: { 201: json(WebhookEndpointSchema, 'The endpoint with its secret'), ...controlErrors },
    }),
    (c) => {
      const spec = c.req.valid('json');
      refuseSelfWebhooks(deps, [['url', spec.url]]);
      return c.json(webhookView(addWebhook(deps, c.req.valid('param').id, spec), true), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/webhooks',
      operationId: 'listWebhookEndpoints',
      tags,
      security,
      summary: "An account's webhook endpoints (without secrets)",
      request: { params: accountId },
      responses: { 200: json(WebhookEndpointListSchema, 'The endpoints'), ...controlErrors },
    }),
    (c) => c.json({ items: deps.store.account(c.req.valid('param').id).webhooks.map((w) => webhookView(w, false)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/webhooks/{endpointId}',
      operationId: 'updateWebhookEndpoint',
      tags,
      security,
      summary: 'Point an endpoint at a URL (null: nowhere) or change the event kinds it takes; pending retries use the new URL',
      request: { params: z.object({ endpointId: pathParam('endpointId') }), body: jsonBody(WebhookPatchSchema, { url: 'http://127.0.0.1:3000/webhooks' }) },
      responses: { 200: json(WebhookEndpointSchema, 'The endpoint (without its secret)'), ...controlErrors },
    }),
    (c) => {
      const patch = c.req.valid('json');
      refuseSelfWebhooks(deps, [['url', patch.url]]);
      return c.json(webhookView(patchWebhook(deps, c.req.valid('param').endpointId, patch), false), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/webhooks/{endpointId}',
      operationId: 'deleteWebhookEndpoint',
      tags,
      security,
      summary: 'Delete an endpoint; its pending deliveries end failed at their next attempt',
      request: { params: z.object({ endpointId: pathParam('endpointId') }) },
      responses: { 200: json(DeletedSchema, 'Deleted'), ...controlErrors },
    }),
    (c) => {
      const { endpointId } = c.req.valid('param');
      deleteWebhook(deps, endpointId);
      return c.json({ id: endpointId, deleted: true as const }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/deliveries',
      operationId: 'listDeliveries',
      tags,
      security,
      summary: 'Deliveries of an account, oldest first unless order=newest, each with its attempts (time, status code, duration, error, request headers and body, first 2 KB of the answer), state and next attempt time; a page at a time',
      request: {
        params: accountId,
        query: z.object({
          state: z.enum(DELIVERY_STATES, { error: `must be one of ${DELIVERY_STATES.join(', ')}` }).optional(),
          event: z.enum(DELIVERY_EVENT_KINDS, { error: `must be one of ${DELIVERY_EVENT_KINDS.join(', ')}` }).optional(),
          eventId: z.string().optional(),
          endpointId: z.string().optional(),
          ...pageQuery,
          ...orderQuery,
        }),
      },
      responses: { 200: json(DeliveryListSchema, '{items, total, page, limit}'), ...controlErrors },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      const { page, limit, order, ...filter } = c.req.valid('query');
      const list = listAccountDeliveries(deps, id, filter, order, { page, limit });
      const account = deps.store.account(id);
      return c.json(extended(list, { items: list.items.map((d) => deliveryView(d, partsOf(account, d).event?.body)) }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/deliveries/{deliveryId}',
      operationId: 'getDelivery',
      tags,
      security,
      summary: 'One delivery with its attempts',
      request: { params: z.object({ deliveryId: pathParam('deliveryId') }) },
      responses: { 200: json(DeliverySchema, 'Delivery'), ...controlErrors },
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
      operationId: 'replayDelivery',
      tags,
      security,
      summary: 'Send the same event again to the same endpoint as a new delivery (new X-Service-Webhook-ID, same body and eventId)',
      request: { params: z.object({ deliveryId: pathParam('deliveryId') }) },
      responses: {
        201: { ...json(DeliverySchema, 'The new delivery (pending: its first attempt starts right after this answer)'), headers: createdHeaders({ idempotent: false, location: 'The new delivery: /_sandbox/deliveries/{id}' }) },
        ...controlErrors,
        ...controlConflict('WEBHOOK_URL_NOT_SET: the endpoint has no URL to send the replay to'),
      },
    }),
    (c) => {
      const delivery = replayDelivery(deps, c.req.valid('param').deliveryId);
      c.header('Location', `/_sandbox/deliveries/${delivery.id}`);
      return c.json(deliveryView(delivery), 201);
    },
  );
}
