// Webhook endpoints and the delivery log (sandbox.md 4.2): register, list, change and delete endpoints of an account;
// read deliveries with their attempts; replay one as a new delivery of the same event. Endpoints and deliveries are
// addressed by id alone in the control API, so they are found through the holders index (./holders).
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import type { Account, Delivery, DeliveryState, WebhookEndpoint } from '../domain/types';
import { partsOf, queueDelivery } from '../webhooks/dispatcher';
import { buildWebhook, type WebhookSpec } from './accounts';
import { holderOf, noteHolder } from './holders';
import { valuesOf } from '../lib/objects';
import type { DeliveryEventKind } from '../domain/events';

export function addWebhook(deps: Deps, accountId: string, spec: Omit<WebhookSpec, 'id'>): WebhookEndpoint {
  const account = deps.store.account(accountId);
  const endpoint = buildWebhook(deps, account, spec);
  account.webhooks.push(endpoint);
  noteHolder(deps.store, 'webhook', endpoint.id, account.id);
  return endpoint;
}

function locateWebhook(deps: Deps, endpointId: string): { account: Account; endpoint: WebhookEndpoint } {
  const account = holderOf(deps.store, 'webhook', endpointId);
  const endpoint = account?.webhooks.find((w) => w.id === endpointId);
  if (account && endpoint) return { account, endpoint };
  throw new SandboxError('WEBHOOK_NOT_FOUND', `No webhook endpoint '${endpointId}'; list an account's endpoints with GET /_sandbox/accounts/{id}/webhooks.`, { resource: 'webhook', id: endpointId });
}

/** Changes where an endpoint points (null: nowhere) and which kinds it takes (empty: all). Pending retries follow. */
export function patchWebhook(deps: Deps, endpointId: string, patch: { url?: string | null; events?: string[] }): WebhookEndpoint {
  const { endpoint } = locateWebhook(deps, endpointId);
  if (patch.url !== undefined) endpoint.url = patch.url;
  if (patch.events !== undefined) endpoint.events = patch.events;
  return endpoint;
}

/** Removes an endpoint; its pending deliveries end `failed` at their next attempt, which says why. */
export function deleteWebhook(deps: Deps, endpointId: string): void {
  const { account, endpoint } = locateWebhook(deps, endpointId);
  account.webhooks = account.webhooks.filter((w) => w !== endpoint);
}

export interface DeliveryFilter {
  state?: DeliveryState;
  event?: DeliveryEventKind;
  eventId?: string;
  endpointId?: string;
}

export function listDeliveries(deps: Deps, accountId: string, filter: DeliveryFilter): Delivery[] {
  const { state, event, eventId, endpointId } = filter;
  return valuesOf(deps.store.account(accountId).deliveries).filter(
    (d) => (!state || d.state === state) && (!event || d.event === event) && (!eventId || d.eventId === eventId) && (!endpointId || d.endpointId === endpointId),
  );
}

export function locateDelivery(deps: Deps, deliveryId: string): { account: Account; delivery: Delivery } {
  const account = holderOf(deps.store, 'delivery', deliveryId);
  if (account) return { account, delivery: account.deliveries[deliveryId]! };
  throw new SandboxError('DELIVERY_NOT_FOUND', `No delivery '${deliveryId}'; list an account's deliveries with GET /_sandbox/accounts/{id}/deliveries.`, { resource: 'delivery', id: deliveryId });
}

/** Sends the delivery's event again to its endpoint as a new delivery: new X-Service-Webhook-ID, same body and eventId. */
export function replayDelivery(deps: Deps, deliveryId: string): Delivery {
  const { account, delivery } = locateDelivery(deps, deliveryId);
  const { endpoint, event } = partsOf(account, delivery);
  if (!endpoint)
    throw new SandboxError('WEBHOOK_NOT_FOUND', `The endpoint of delivery '${deliveryId}' (${delivery.endpointId}) was deleted; register a new endpoint to receive new events.`, {
      resource: 'webhook',
      id: delivery.endpointId,
    });
  if (endpoint.url === null)
    throw new SandboxError('WEBHOOK_URL_NOT_SET', `Endpoint ${endpoint.id} has no URL, so there is nowhere to send the replay; set one with PATCH /_sandbox/webhooks/${endpoint.id} {"url": "http://..."} first.`, {
      resource: 'webhook',
      id: endpoint.id,
    });
  return queueDelivery(deps, account, event!, endpoint, delivery.id); // an account's deliveries and events go together
}
