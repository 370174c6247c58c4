// Events: each state change worth a webhook is recorded once, with its body bytes fixed at that moment
// (envelope of service document 6.2), then handed to the dispatcher, which makes one delivery per endpoint.
import type { Deps } from '../deps';
import type { Account, Wallet } from '../domain/types';
import { createDeliveries } from './dispatcher';
import { isoTime } from '../lib/iso';
import type { DeliveryEventKind, EventKind, SandboxEvent } from '../domain/events';

/** Records an event of `wallet` and queues its deliveries. `data` is the event-specific object. */
export function recordEvent(deps: Deps, account: Account, wallet: Wallet, event: EventKind, eventId: string, data: Record<string, unknown>): SandboxEvent {
  const at = deps.clocks.nowOf(account);
  const envelope = { event, eventId, timestamp: isoTime(at), subAccount: wallet.reference, data };
  return recordBody(deps, account, wallet, event, eventId, JSON.stringify(envelope));
}

/** Records an event whose body is already made (the service's envelope, or a notice of the standard face) and queues its deliveries. */
export function recordBody(deps: Deps, account: Account, wallet: Wallet, event: DeliveryEventKind, eventId: string, body: string, chave?: string): SandboxEvent {
  const record: SandboxEvent = {
    id: deps.ids.uuid(),
    event,
    eventId,
    walletId: wallet.id,
    subAccount: wallet.reference,
    createdAt: deps.clocks.nowOf(account),
    body,
    ...(chave === undefined ? {} : { chave }),
  };
  account.events.push(record);
  createDeliveries(deps, account, record);
  deps.bus.publish(() => ({ kind: 'event', accountId: account.id, event, envelope: JSON.parse(record.body) as Record<string, unknown> }));
  return record;
}

/** The environment events carry: that of the account (sandbox.md 2.3). */
export const environmentOf = (account: Account) => account.environment;
