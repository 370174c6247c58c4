// The events' vocabulary and the record an event leaves in its account (account.events): types and constants of the
// domain, so that an account (types.ts) holds its events without reaching up to webhooks/events.ts, which records them
// and hands them to the dispatcher.
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
/** Pix Automático's notices (sandbox.md 15): `{"recs":[...]}` to the webhookrec, `{"cobsr":[...]}` to the webhookcobr. */
export const REC_EVENT = 'rec' as const;
export const COBR_EVENT = 'cobr' as const;
export const DELIVERY_EVENT_KINDS = [...EVENT_KINDS, API_PIX_EVENT, REC_EVENT, COBR_EVENT] as const;
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
