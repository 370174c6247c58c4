// The nine webhook payloads (service document 6.2-6.8, sandbox.md 2.7) as schemas: /openapi.json lists them under
// `webhooks` with the delivery headers of 6.3, and a test checks every recorded event against them field for field.
// The builders in services/ (charges, refunds, withdrawals, balance-blocks) make the bytes; these only describe them.
import { z } from '@hono/zod-openapi';
import { BALANCE_BLOCK_STATUSES, BLOCK_TYPES } from '../domain/types';
import { EVENT_KINDS, type EventKind } from '../domain/events';

const uuid = (description?: string) => z.string().openapi({ format: 'uuid', ...(description ? { description } : {}) });
const dateTime = (description?: string) => z.string().openapi({ format: 'date-time', ...(description ? { description } : {}) });
const brl = (description: string) => z.number().openapi({ description: `${description} (BRL)` });
const environment = z.enum(['production', 'sandbox']).openapi({ description: "The account's environment" });
const metadata = z.record(z.string(), z.unknown()).openapi({ description: 'The metadata given at creation, key for key' });

export const SplitLegSchema = z
  .object({
    subAccount: z.string().openapi({ description: 'Destination sub-account reference, or "principal" for the main account', example: 'loja-centro' }),
    amount: z.number().openapi({ description: 'BRL', example: 10 }),
  })
  .openapi('SplitLeg');

const PaymentCompletedData = z
  .object({
    transactionId: uuid(),
    environment,
    amount: brl('Total payment amount'),
    feeAmount: brl('Fee charged'),
    netAmount: brl('amount - feeAmount'),
    split: z.array(SplitLegSchema).optional().openapi({ description: 'What was actually distributed; reconcile with this, never with the request' }),
    currency: z.literal('BRL'),
    paymentMethod: z.literal('pix'),
    status: z.literal('completed'),
    completedAt: dateTime(),
    externalReference: z.string().optional(),
    e2eId: z.string().optional(),
    counterpartName: z.string().optional().openapi({ description: 'Payer name from the PSP' }),
    counterpartDocument: z.string().optional().openapi({ description: 'Payer CPF/CNPJ, unmasked' }),
    metadata: metadata.optional(),
  })
  .openapi('PaymentCompletedData');

const PaymentExpiredData = z
  .object({
    transactionId: uuid(),
    environment,
    amount: brl('The charge amount'),
    feeAmount: z.literal(0),
    netAmount: z.literal(0),
    currency: z.literal('BRL'),
    paymentMethod: z.literal('pix'),
    status: z.literal('expired'),
    expiredAt: dateTime(),
    externalReference: z.string().optional(),
    metadata: metadata.optional(),
  })
  .openapi('PaymentExpiredData');

const RefundCompletedData = z
  .object({
    refundTransactionId: uuid(),
    originalTransactionId: uuid(),
    environment,
    amount: brl('Refund amount'),
    feeAmount: brl('Refund fee charged to the merchant, debited separately'),
    netAmount: brl('What the end customer receives, equal to amount'),
    currency: z.literal('BRL'),
    paymentMethod: z.enum(['pix', 'credit_card', 'boleto']).openapi({ description: 'Of the original transaction' }),
    status: z.literal('completed'),
    refundedAt: dateTime(),
    externalReference: z.string().optional().openapi({ description: 'From the original payment' }),
    metadata: metadata.optional(),
  })
  .openapi('RefundCompletedData');

const withdrawalBase = {
  withdrawalId: uuid(),
  projectId: uuid().nullable().openapi({ description: 'null when not given at creation and the account has 2 or more projects' }),
  environment,
  amount: brl('Gross amount'),
  feeAmount: brl('Withdrawal fee'),
  netAmount: brl('What the recipient receives'),
  currency: z.literal('BRL'),
};
const paidOut = {
  completedAt: dateTime(),
  externalReference: z.string().optional(),
  e2eId: z.string().optional(),
  counterpartName: z.string().optional().openapi({ description: 'Recipient name' }),
  counterpartDocument: z.string().optional().openapi({ description: 'Recipient CPF/CNPJ, unmasked' }),
};

const WithdrawalCompletedData = z
  .object({ ...withdrawalBase, status: z.literal('completed'), ...paidOut, metadata: metadata.optional() })
  .openapi('WithdrawalCompletedData');

const WithdrawalFailedData = z
  .object({
    ...withdrawalBase,
    status: z.literal('failed'),
    failureReason: z.string().openapi({ example: 'Chave PIX não encontrada' }),
    failedAt: dateTime(),
    externalReference: z.string().optional(),
  })
  .openapi('WithdrawalFailedData');

const WithdrawalReversedData = z
  .object({
    ...withdrawalBase,
    status: z.literal('reversed'),
    ...paidOut,
    failureReason: z.literal('REVERSED'),
    reversalReason: z.string().openapi({ example: 'Conta destino encerrada' }),
    reversedAt: dateTime(),
  })
  .openapi('WithdrawalReversedData');

const blockData = (name: string, status: (typeof BALANCE_BLOCK_STATUSES)[number], resolved: boolean) =>
  z
    .object({
      blockId: uuid(),
      transactionId: uuid('The blocked payment'),
      environment,
      amount: brl('Blocked amount'),
      currency: z.literal('BRL'),
      blockType: z.enum(BLOCK_TYPES),
      status: z.literal(status),
      referenceNumber: z.string(),
      reason: z.string(),
      e2eId: z.string().optional(),
      createdAt: dateTime(),
      ...(resolved ? { resolutionReason: z.string(), resolvedAt: dateTime() } : {}),
    })
    .openapi(name);

const DATA = {
  payment_completed: PaymentCompletedData,
  payment_expired: PaymentExpiredData,
  refund_completed: RefundCompletedData,
  withdrawal_completed: WithdrawalCompletedData,
  withdrawal_failed: WithdrawalFailedData,
  withdrawal_reversed: WithdrawalReversedData,
  balance_block_created: blockData('BalanceBlockCreatedData', 'awaiting_response', false),
  balance_block_approved: blockData('BalanceBlockApprovedData', 'approved', true),
  balance_block_rejected: blockData('BalanceBlockRejectedData', 'rejected', true),
} satisfies Record<EventKind, z.ZodObject>;

const pascal = (kind: string) => kind.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

const SUMMARY: Record<EventKind, string> = {
  payment_completed: 'A PIX charge was paid',
  payment_expired: 'A PIX charge expired without payment',
  refund_completed: 'A refund was processed',
  withdrawal_completed: 'A withdrawal was paid out',
  withdrawal_failed: 'A withdrawal was rejected or failed; its amount is back in the balance',
  withdrawal_reversed: 'A completed withdrawal was reversed by the PSP; its amount is back in the balance',
  balance_block_created: 'A balance block (MED, judicial, administrative) moved an amount to held',
  balance_block_approved: 'A balance block was approved: the amount returned to the payer',
  balance_block_rejected: 'A balance block was rejected: the amount returned to the merchant',
};

/** The envelope of each event kind (6.2), with its own data. */
export const EVENT_SCHEMAS = Object.fromEntries(
  EVENT_KINDS.map((kind) => [
    kind,
    z
      .object({
        event: z.literal(kind),
        eventId: z.string().openapi({ description: 'The transaction id for the first event of a transaction, else <event>_<id>' }),
        timestamp: dateTime(),
        subAccount: z.string().nullable().openapi({ description: 'Reference of the sub-account the event came from; null for the main account' }),
        data: DATA[kind],
      })
      .openapi(`${pascal(kind)}Event`),
  ]),
) as { [K in EventKind]: z.ZodObject<{ event: z.ZodLiteral<K>; eventId: z.ZodString; timestamp: z.ZodString; subAccount: z.ZodNullable<z.ZodString>; data: (typeof DATA)[K] }> };

/** Any event, told apart by `event`. */
export const WebhookEventSchema = z
  .discriminatedUnion('event', EVENT_KINDS.map((k) => EVENT_SCHEMAS[k]) as unknown as [z.ZodObject, ...z.ZodObject[]])
  .openapi('WebhookEvent');

/** The headers of every delivery (6.3); the vendor word is "Service" in this document. */
export const DeliveryHeadersSchema = z.object({
  'User-Agent': z.literal('Service-Webhook/1.0'),
  'X-Service-Event': z.enum(EVENT_KINDS).openapi({ description: 'The event kind' }),
  'X-Service-Webhook-ID': z.string().openapi({ format: 'uuid', description: 'Id of this delivery; the same across its retries' }),
  'X-Service-Signature': z.string().openapi({ description: 'sha256=<hex HMAC-SHA256 of the raw body, keyed with the endpoint secret>', pattern: '^sha256=[0-9a-f]{64}$' }),
  'X-Service-Timestamp': z.string().openapi({ description: 'Delivery time in milliseconds since the Unix epoch (sandbox clock)', pattern: '^[0-9]+$' }),
});

export const eventSummary = (kind: EventKind) => SUMMARY[kind];
export const webhookOperationId = (kind: EventKind) => `on${pascal(kind)}`;
