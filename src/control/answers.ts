// What the control API answers, as schemas: /openapi.json types every control answer with them (the views in
// wire/views.ts build the JSON). Ids a spec may choose (credentials, sub-accounts, institutions, endpoints) are plain
// strings here; those the sandbox makes are UUIDs.
import { z } from '@hono/zod-openapi';
import { PERMISSIONS } from '../domain/permissions';
import { ACCOUNT_STATUSES } from '../domain/types';
import { dateTime, uuid } from '../wire/schemas';
import { ProjectSchema } from '../wire/resources/projects';
import { WebhookEventSchema } from '../webhooks/schemas';
import { BalanceSchema, CompanySchema, SubAccountSchema } from '../wire/resources/accounts';
import { BalanceBlockSchema } from '../wire/resources/balance-blocks';
import { RefundResultSchema, TransactionSchema } from '../wire/resources/transactions';
import { DELIVERY_EVENT_KINDS, EVENT_KINDS } from '../domain/events';

const permissions = z.array(z.enum(PERMISSIONS));
const environment = z.enum(['sandbox', 'production']);

export const CredentialSchema = z
  .object({ id: z.string(), clientId: z.string(), clientSecret: z.string(), permissions, subAccountAccess: z.boolean() })
  .openapi('Credential');

export const InstitutionSchema = z
  .object({ id: z.string(), name: z.string(), status: z.enum(['up', 'down', 'out_of_capacity']), enabled: z.boolean() })
  .openapi('Institution');

export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string().nullable().openapi({ format: 'uri', description: 'null: nowhere yet (no deliveries are made)' }),
    subAccount: z.string().nullable().openapi({ description: 'Sub-account whose events it receives; null = the main account (and sub-accounts without their own)' }),
    events: z.array(z.enum(EVENT_KINDS)).openapi({ description: 'Event kinds it receives; empty = all' }),
    createdAt: dateTime(),
    secret: z.string().optional().openapi({ description: 'Signing secret: only in the answer that creates the endpoint (and the account)' }),
    chave: z.string().optional().openapi({ description: 'A webhook of the standard API Pix face (PUT /api-pix/v2/webhook/{chave}): it receives only the Pix of this key, unsigned, at {url}/pix' }),
  })
  .openapi('WebhookEndpoint');

export const WebhookEndpointListSchema = z.object({ items: z.array(WebhookEndpointSchema) }).openapi('WebhookEndpointList');

const FeeScheduleSchema = z
  .object({
    pix: z.object({ percent: z.number(), fixed: z.number().openapi({ description: 'BRL' }), min: z.number().openapi({ description: 'BRL' }) }),
    withdrawal: z.object({ fixed: z.number().openapi({ description: 'BRL' }) }),
    refund: z.object({ fixed: z.number().openapi({ description: 'BRL' }) }),
  })
  .openapi('FeeSchedule');

export const ClockSchema = z.object({ now: z.string().openapi({ format: 'date-time' }), frozen: z.boolean() }).openapi('Clock');
export const TenantClockSchema = ClockSchema.extend({
  own: z.boolean().openapi({ description: 'Whether the tenant has a clock of its own; false: it runs on the sandbox clock, shown here' }),
}).openapi('TenantClock');

export const AccountDetailSchema = z
  .object({
    id: uuid(),
    name: z.string(),
    environment,
    status: z.enum(ACCOUNT_STATUSES),
    createdAt: dateTime(),
    institutionChoice: z.boolean(),
    strict: z.boolean().openapi({ description: 'Unknown request fields are a 400 for this tenant, not a Sandbox-Warning header (sandbox.md 14)' }),
    fees: FeeScheduleSchema,
    limits: z.object({ withdrawalMax: z.number().nullable(), dailyWithdrawalMax: z.number().nullable() }).openapi({ description: 'BRL; null = no limit' }),
    automation: z.object({ completeAfterSeconds: z.number().int(), autoPayAfterSeconds: z.number().int().nullable() }),
    webhookRetrySchedule: z.array(z.number()).openapi({ description: 'Seconds of sandbox clock between webhook attempts' }),
    clock: TenantClockSchema.openapi({ description: "The clock the tenant runs on (sandbox.md 4.6): its own, or the sandbox clock (own: false)" }),
    retention: z
      .object({
        retain: z.string().nullable().openapi({ description: 'The period after which it is deleted when untouched (its own, else --retain); null: kept (a fixture tenant, or no retention)', example: '7d' }),
        own: z.boolean().openapi({ description: 'Whether the period is its own (retain in its spec)' }),
        lastTouchedAt: dateTime().openapi({ description: 'When a request last named it, on its clock (its creation when none has)' }),
        deletedAfter: dateTime().nullable().openapi({ description: 'When it is deleted unless a request touches it first; null: kept' }),
      })
      .openapi({ description: 'Retention (sandbox.md 6.1, docs/data.md)' }),
    balances: z.array(
      BalanceSchema.extend({
        subAccount: z.string().nullable().openapi({ description: 'null for the main wallet' }),
        walletId: z.string(),
      }),
    ),
    credentials: z.array(CredentialSchema),
    apiKeys: z.array(z.object({ id: z.string(), key: z.string(), permissions })),
    subAccounts: z.array(SubAccountSchema),
    projects: z.array(ProjectSchema.extend({ subAccount: z.string().nullable() })),
    institutions: z.array(InstitutionSchema),
    webhooks: z.array(WebhookEndpointSchema),
    bankAccounts: z.array(z.object({ id: z.string(), bank: z.string(), agency: z.string(), account: z.string(), holderName: z.string(), holderDocument: z.string() })),
    webhookHeaderWord: z.string().openapi({ description: 'The vendor word of its delivery headers (its own, else the sandbox\'s)' }),
    company: CompanySchema.nullable(),
    pixKeys: z
      .array(z.object({ key: z.string(), type: z.enum(['cpf', 'cnpj', 'email', 'phone', 'random']), createdAt: dateTime() }))
      .openapi({ description: 'PIX keys: the chave of the standard API Pix face; the first is the key its static QR codes carry' }),
    receiverAccounts: z
      .array(z.object({ agencia: z.string(), conta: z.string(), tipoConta: z.enum(['CORRENTE', 'POUPANCA', 'PAGAMENTO']) }))
      .openapi({ description: "The receiver's accounts a recurring charge (PUT/POST /api-pix/v2/cobr) names as its recebedor" }),
  })
  .openapi('AccountDetail');

export const AccountListSchema = z
  .object({
    items: z.array(
      z.object({
        id: uuid(),
        name: z.string(),
        environment,
        status: z.enum(ACCOUNT_STATUSES),
        subAccounts: z.number().int().openapi({ description: 'How many' }),
        balance: z.number().openapi({ description: 'Available BRL of the main wallet' }),
      }),
    ),
  })
  .openapi('AccountList');

export const DeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('Deleted');

export const AdjustmentSchema = z
  .object({
    id: uuid(),
    type: z.literal('adjustment'),
    status: z.literal('completed'),
    amount: z.number().openapi({ description: 'BRL, signed: positive credits, negative debits' }),
    description: z.string().nullable(),
    createdAt: dateTime(),
  })
  .openapi('Adjustment');

export const DeliverySchema = z
  .object({
    id: uuid().openapi({ description: 'The X-Service-Webhook-ID of every attempt' }),
    event: z.enum(DELIVERY_EVENT_KINDS),
    eventId: z.string(),
    subAccount: z.string().nullable(),
    endpoint: z.object({ id: z.string(), url: z.string().nullable() }),
    state: z.enum(['pending', 'succeeded', 'failed']),
    createdAt: dateTime(),
    nextAttemptAt: dateTime().nullable(),
    replayOf: z.string().nullable().openapi({ description: 'The delivery this one replays' }),
    attempts: z.array(
      z
        .object({
          at: dateTime(),
          statusCode: z.number().int().nullable().openapi({ description: "The receiver's HTTP status; null when no response came" }),
          durationMs: z.number(),
          error: z.string().nullable().openapi({ description: 'Why the attempt failed; null when it succeeded' }),
          responseBody: z.string().optional().openapi({ description: "The first 2 KB of the receiver's answer" }),
          request: z
            .object({ headers: z.record(z.string(), z.string()), body: z.string().openapi({ description: 'The exact bytes sent (the event envelope)' }) })
            .optional()
            .openapi({ description: 'The request this attempt sent' }),
        })
        .openapi('DeliveryAttempt'),
    ),
  })
  .openapi('Delivery');

/** The page fields of the list routes (sandbox.md 4.8). */
const pageFields = { total: z.number().int(), page: z.number().int(), limit: z.number().int() };

export const DeliveryListSchema = z.object({ items: z.array(DeliverySchema), ...pageFields }).openapi('DeliveryList');

export const EventListSchema = z
  .object({
    items: z.array(
      z
        .object({
          id: z.string(),
          event: z.enum(DELIVERY_EVENT_KINDS),
          eventId: z.string(),
          subAccount: z.string().nullable(),
          createdAt: dateTime(),
          payload: WebhookEventSchema.openapi({ description: 'The exact envelope every delivery of it sends' }),
        })
        .openapi('EventRecord'),
    ),
    ...pageFields,
  })
  .openapi('EventList');

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string().openapi({ description: 'pix-sandbox version' }),
    now: dateTime().openapi({ description: 'Sandbox clock' }),
    frozen: z.boolean(),
    uptimeSeconds: z.number(),
    accounts: z.number().int(),
    persistent: z.boolean(),
    pendingJobs: z.number().int().openapi({ description: "Jobs waiting in the state: automatic payments, webhook attempts and retries, follow-ups of magic values, payment links' expiries. A pending charge's expiry is not one: the charge itself dates it." }),
    rssBytes: z.number().int(),
    heapLimitBytes: z.number().int().openapi({ description: "This process's heap limit: Node's default, or NODE_OPTIONS=--max-old-space-size; the default maxRecords is three quarters of it at 2048 bytes a record" }),
    records: z.number().int().openapi({ description: 'Records held: every account\'s stored transactions (charges, payments, refunds and fees, withdrawals, adjustments)' }),
    oldestRecordAt: dateTime().nullable().openapi({ description: 'When the oldest record held was made (on its tenant\'s clock); null when none is held' }),
    maxRecords: z.number().int().openapi({ description: 'The budget as records of 2048 bytes (--max-records; by default from the heap limit): maxBytes / 2048' }),
    bytesHeld: z.number().int().openapi({ description: 'What the records held weigh: 2048 bytes each, and what their metadata and infoAdicionais add (docs/data.md)' }),
    maxBytes: z.number().int().openapi({ description: 'The budget in bytes (--max-bytes, or --max-records × 2048, or from the heap limit): a create whose record would pass it answers 507 STORAGE_FULL' }),
    storageFull: z.boolean().openapi({ description: 'Whether not even a record without metadata fits (bytesHeld + 2048 > maxBytes): creates answer 507 STORAGE_FULL; reads, deletes, payments and control actions go on' }),
    storageNote: z.string().nullable().openapi({ description: 'When storageFull: why the records held are all read but no new one is made, where the limit comes from (--max-records, --max-bytes or the heap limit) and what to restart with to raise it; null while there is room' }),
    retention: z
      .object({
        retain: z.string().nullable().openapi({ description: '--retain: tenants made through the control API untouched this long are deleted; null: off (a tenant may still have its own)', example: '7d' }),
        retainTransactions: z.string().nullable().openapi({ description: '--retain-transactions: settled transactions unchanged this long are deleted; null: off', example: '30d' }),
        lastRun: z
          .object({
            at: dateTime().openapi({ description: 'When it ended, on the sandbox clock' }),
            ms: z.number().int().openapi({ description: 'How long it took, real time' }),
            tenantsDeleted: z.number().int(),
            transactionsDeleted: z.number().int(),
          })
          .nullable()
          .openapi({ description: 'The last sweep (one runs every minute of real time and after every clock move); null: none yet' }),
        deleted: z.object({ tenants: z.number().int(), transactions: z.number().int() }).openapi({ description: 'Deleted by retention since this process started' }),
      })
      .openapi({ description: 'Retention (sandbox.md 6.1, docs/data.md)' }),
  })
  .openapi('Health');

export const ResetSchema = z.object({ reset: z.literal(true), accounts: z.number().int() }).openapi('ResetResult');

/** What a control action on a refund answers: the transaction (2.5) with the refund result (2.6) beside it. */
export const RefundTransactionSchema = TransactionSchema.extend({ refund: RefundResultSchema }).openapi('RefundTransaction');

/** What the block actions answer: the block (2.10) with its wallet and chargeback transaction. */
export const BalanceBlockControlSchema = BalanceBlockSchema.extend({
  subAccount: z.string().nullable().openapi({ description: 'The wallet it weighs on; null for the main wallet' }),
  chargebackTransactionId: uuid().openapi({ description: 'The chargeback transaction the block made (completed once approved)' }),
}).openapi('BalanceBlockControl');
