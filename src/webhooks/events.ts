// Events: each state change worth a webhook is recorded once, with its body bytes fixed at that moment
// (envelope of service document 6.2), then handed to the dispatcher, which makes one delivery per endpoint.
import type { Deps } from '../deps';
import type { Account, Wallet } from '../domain/types';
import { createDeliveries } from './dispatcher';
import { isoTime } from '../lib/iso';
import { nowOf } from '../services/clocks';

export const EVENT_KINDS = [
  'payment_completed',
  'payment_expired',
  'refund_completed',
  'withdrawal_completed',
  'withdrawal_failed',
  'withdrawal_reversed',
  'balance_block_created',
  'balance_block_approved',
  'balance_block_rejected',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
/** The standard API Pix face's notice of Pix received (`{"pix":[...]}`), sent only to the webhook of its key. */
export const API_PIX_EVENT = 'pix' as const;
/** Every kind a delivery can carry: the service's events and the standard face's notice. */
export const DELIVERY_EVENT_KINDS = [...EVENT_KINDS, API_PIX_EVENT] as const;
export type DeliveryEventKind = (typeof DELIVERY_EVENT_KINDS)[number];

export interface SandboxEvent {
  /** Internal id of the record (deliveries point at it). */
  id: string;
  event: DeliveryEventKind;
  /** The envelope's eventId (sandbox.md 2.7). */
  eventId: string;
  walletId: string;
  subAccount: string | null;
  createdAt: number;
  /** The exact JSON bytes every delivery of this event sends. */
  body: string;
  /** A notice of the standard face: the PIX key whose webhook receives it (and no other endpoint does). */
  chave?: string;
}

/** Records an event of `wallet` and queues its deliveries. `data` is the event-specific object. */
export function recordEvent(deps: Deps, account: Account, wallet: Wallet, event: EventKind, eventId: string, data: Record<string, unknown>): SandboxEvent {
  const at = nowOf(deps, account);
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
    createdAt: nowOf(deps, account),
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
