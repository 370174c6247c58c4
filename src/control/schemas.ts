// Schemas of the control API's account spec. The fixtures file is validated with the same schema, so the default
// world is built exactly like an account created with POST /_sandbox/accounts. BRL in, cents out.
import { DURATION_HINT, parseDuration } from '../lib/duration';
import { z } from '@hono/zod-openapi';
import { toCents } from '../domain/money';
import { PERMISSIONS } from '../domain/permissions';
import { ACCOUNT_STATUSES } from '../domain/types';
import { isValidCnpj, isValidCpf } from '../pix';
import { CompanySchema } from '../wire/resources/accounts';
import { intQuery } from '../wire/schemas';
import { EVENT_KINDS } from '../domain/events';
import { CLOCK_RANGE_TEXT, inClockRange } from '../lib/clock';
import { warnUnreachable } from '../wire/webhook-urls';

/** The instant a clock is set to (PUT /_sandbox/clock, a tenant's clock): ISO 8601, epoch ms, or null for real time. */
export const clockNow = z
  .union([z.iso.datetime({ offset: true }), z.number().int(), z.null()], { error: 'must be an ISO 8601 date-time like 2026-01-15T12:00:00Z, epoch milliseconds, or null for real time' })
  // An offset can carry a 9999-12-31 date-time past the range, so the instant is checked, not the text.
  .refine((v) => v === null || inClockRange(typeof v === 'number' ? v : Date.parse(v)), { error: `must be an instant from ${CLOCK_RANGE_TEXT}` });

export const ClockInputSchema = z
  .object({
    now: clockNow.optional().openapi({ description: 'The instant to jump to; null goes back to real time (and unfreezes unless `frozen` is true)' }),
    frozen: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .openapi('ClockInput');

/** BRL in, cents out; at most 999,999,999.99 either way, so sums stay exact integers. */
const brlSigned = (_what: string) =>
  z
    .number({ error: `must be a number in BRL, like 1000.00` })
    .refine((v) => toCents(v) !== null, { error: 'must have at most 2 decimal places' })
    .refine((v) => Math.abs(v) <= 999_999_999.99, { error: 'must be at most 999999999.99 (either sign)' })
    .transform((v) => toCents(v)!);

const brlNonNegative = (what: string) => brlSigned(what).refine((c) => c >= 0, { error: 'must not be negative' });

const status = z.enum(ACCOUNT_STATUSES, { error: `must be one of ${ACCOUNT_STATUSES.join(', ')}` });
const permissions = z.array(z.enum(PERMISSIONS, { error: `must be one of ${PERMISSIONS.join(', ')}` }));
const institutionStatus = z.enum(['up', 'down', 'out_of_capacity'], { error: "must be 'up', 'down' or 'out_of_capacity'" });
const webhookUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, like http://127.0.0.1:3000/webhooks' }).refine(warnUnreachable('url'));

export const FeesSchema = z
  .object({
    pix: z.object({ percent: z.number().min(0).max(100), fixed: z.number().min(0), min: z.number().min(0) }).partial().optional(),
    withdrawal: z.object({ fixed: z.number().min(0) }).partial().optional(),
    refund: z.object({ fixed: z.number().min(0) }).partial().optional(),
  })
  .openapi('Fees');

export const LimitsSchema = z
  .object({
    withdrawalMax: brlNonNegative('withdrawalMax').nullable(),
    dailyWithdrawalMax: brlNonNegative('dailyWithdrawalMax').nullable(),
  })
  .partial();

export const AutomationSchema = z
  .object({
    completeAfterSeconds: z.number().int().min(0, { error: 'must be 0 (off) or more seconds' }),
    autoPayAfterSeconds: z.number().int().min(0).nullable(),
    magicValues: z
      .boolean({ error: 'must be true (magic values pick outcomes, the default) or false (they are plain values)' })
      .openapi({ description: 'Magic CPFs and PIX keys (sandbox.md 4.11) choose outcomes on the sandbox clock; false turns them off' }),
  })
  .partial();

const retrySchedule = z.array(z.number().min(0)).max(5, { error: 'at most 5 retries (the service retries up to 5 times)' });

export const CredentialSpecSchema = z.object({
  id: z.string().optional(),
  clientId: z.string().min(8).max(128).optional(),
  clientSecret: z.string().min(8).max(256).optional(),
  permissions: permissions.optional(),
  subAccountAccess: z.boolean().optional(),
});

export const SubAccountSpecSchema = z.object({
  id: z.string().optional(),
  reference: z.string(),
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(255).optional(),
  status: status.optional(),
  balance: brlSigned('balance').optional(),
});

const webhookEvents = z
  .array(z.enum(EVENT_KINDS, { error: `must be one of ${EVENT_KINDS.join(', ')}` }))
  .openapi({ description: 'Event kinds the endpoint receives; empty or absent = all' });

export const WebhookSpecSchema = z.object({
  id: z.string().optional(),
  url: webhookUrl.nullable().openapi({ description: 'Where deliveries are POSTed; null = nowhere yet (no deliveries are made)' }),
  subAccount: z.string().nullable().optional().openapi({ description: "Sub-account reference whose events it receives; null or 'principal' = the main account" }),
  secret: z.string().min(8, { error: 'must be at least 8 characters' }).optional().openapi({ description: 'Signing secret; generated (whsec_...) when absent' }),
  events: webhookEvents.optional(),
});

export const WebhookPatchSchema = z.object({ url: webhookUrl.nullable(), events: webhookEvents }).partial().openapi('WebhookPatch');

/** The vendor word of the webhook header names (X-{word}-Event...): letters, digits and dashes, as a header name allows. */
export const headerWord = z
  .string({ error: 'must be a word of letters, digits and dashes, like Service or Acme' })
  .regex(/^[A-Za-z][A-Za-z0-9-]{0,31}$/, { error: 'must be 1 to 32 letters, digits and dashes, starting with a letter, like Service or Acme' })
  .openapi({ description: 'Names the delivery headers X-{word}-Event, X-{word}-Webhook-ID, X-{word}-Signature, X-{word}-Timestamp and the User-Agent {word}-Webhook/1.0 (sandbox.md 12)', example: 'Service' });

export const BankAccountSpecSchema = z
  .object({
    id: z.string().min(1).optional(),
    bank: z.string().min(1).max(255),
    agency: z.string().min(1).max(20),
    account: z.string().min(1).max(30),
    holderName: z.string().min(1).max(255),
    holderDocument: z
      .string()
      .refine((d) => isValidCpf(d) || isValidCnpj(d), { error: 'must be a CPF (11 digits) or CNPJ (14 characters) with valid check digits, like 12345678909' }),
  })
  .openapi('BankAccountSpec', { description: 'A bank account a v1 withdrawal names by bankAccountId; the holder\'s document is the PIX key it is paid to' });

const company = CompanySchema;

/** A tenant's own retention period (services/retention.ts). */
const retain = z
  .string()
  .refine((t) => parseDuration(t) !== null, { error: `must be ${DURATION_HINT}` })
  .openapi({
    description: "This tenant's own --retain: it is deleted once no request has touched it for this long on its clock (sandbox.md 6.1); absent: the sandbox's --retain; null on PATCH: back to it",
    example: '1d',
  });

export const AccountSpecSchema = z
  .object({
    id: z.uuid({ error: 'must be a UUID' }).optional(),
    name: z.string().min(1).max(255).optional(),
    environment: z.enum(['sandbox', 'production'], { error: "must be 'sandbox' or 'production'" }).optional(),
    status: status.optional(),
    city: z.string().min(1).max(60).optional(),
    balance: brlSigned('balance').optional(),
    fees: FeesSchema.optional(),
    limits: LimitsSchema.optional(),
    automation: AutomationSchema.optional(),
    webhookRetrySchedule: retrySchedule.optional(),
    institutionChoice: z.boolean().optional(),
    strict: z.boolean({ error: 'must be true or false' }).optional().openapi({ description: "true: an unknown field of this tenant's requests to v2, v1 or API Pix is a 400 naming it, not a Sandbox-Warning header (as --strict, for this tenant alone)" }),
    institutions: z.array(z.object({ id: z.string().optional(), name: z.string().min(1), status: institutionStatus.optional(), enabled: z.boolean().optional() })).optional(),
    subAccounts: z.array(SubAccountSpecSchema).optional(),
    projects: z
      .array(
        z.object({
          id: z.string().optional(),
          name: z.string().min(1).max(255),
          color: z.string().regex(/^#[0-9A-Fa-f]{6}$/, { error: 'must be a hex color like #1A73E8' }).optional(),
          description: z.string().optional(),
          logoUrl: z.string().optional(),
          subAccount: z.string().optional(),
        }),
      )
      .optional(),
    credentials: z.array(CredentialSpecSchema).optional(),
    apiKeys: z.array(z.object({ id: z.string().optional(), key: z.string().min(12).optional(), permissions: permissions.optional() })).optional(),
    webhooks: z.array(WebhookSpecSchema).optional(),
    bankAccounts: z.array(BankAccountSpecSchema).optional(),
    webhookHeaderWord: headerWord.optional(),
    company: company.optional(),
    pixKeys: z
      .array(z.object({ key: z.string().min(1).max(77), type: z.enum(['cpf', 'cnpj', 'email', 'phone', 'random'], { error: 'must be one of cpf, cnpj, email, phone, random' }) }))
      .max(20)
      .optional()
      .openapi({ description: 'PIX keys: the chave of the standard API Pix face; the first is the key of static QR codes; absent: a random key and a generated CNPJ' }),
    retain: retain.optional(),
    clock: ClockInputSchema.optional().openapi({
      description: "A clock of the tenant's own (sandbox.md 4.6): it starts at `now` (absent: where the sandbox clock stands; null: real time), frozen or not (absent: as the sandbox clock is); absent: the tenant runs on the sandbox clock",
    }),
  })
  .openapi('AccountSpec');

export const AccountPatchSchema = z
  .object({
    name: z.string().min(1).max(255),
    status,
    fees: FeesSchema,
    limits: LimitsSchema,
    automation: AutomationSchema,
    institutionChoice: z.boolean(),
    strict: z.boolean({ error: 'must be true or false' }),
    webhookRetrySchedule: retrySchedule,
    bankAccounts: z.array(BankAccountSpecSchema),
    webhookHeaderWord: headerWord.nullable(),
    company: company.nullable(),
    retain: retain.nullable(),
  })
  .partial()
  .openapi('AccountPatch');

export const FixturesSchema = z.object({ accounts: z.array(AccountSpecSchema) });

export { brlSigned, institutionStatus, permissions, status };

const LoggedBodySchema = z
  .object({
    contentType: z.string(),
    size: z.number().int().nullable().openapi({ description: 'Bytes; null when unknown (a streamed body)' }),
    body: z.unknown().optional().openapi({ description: 'The JSON, secrets masked (absent when omitted)' }),
    omitted: z.string().optional().openapi({ description: "Why the body is not kept: 'not JSON', 'over the 64 KB cap', 'not valid JSON'" }),
  })
  .nullable()
  .openapi('LoggedBody');

/** An entry of the request log (sandbox.md 14). */
export const RequestEntrySchema = z
  .object({
    id: z.string().openapi({ example: 'req_42' }),
    at: z.string().openapi({ format: 'date-time', description: 'On the clock of the account it is logged under (else the sandbox clock)' }),
    wallAt: z.string().openapi({ format: 'date-time', description: 'Real time' }),
    face: z.enum(['v2', 'v1', 'api-pix', 'control']),
    method: z.string(),
    path: z.string(),
    query: z.string().openapi({ description: "'' or the query with its '?' (secrets masked)" }),
    status: z.number().int(),
    durationMs: z.number(),
    accountId: z.string().nullable(),
    credentialId: z.string().nullable().openapi({ description: 'The credential (v2, API Pix) or API key (v1) id used' }),
    idempotencyKey: z.string().nullable(),
    replayed: z.boolean().openapi({ description: 'The answer was the replay of an earlier request with the same Idempotency-Key' }),
    traceId: z.string().openapi({ description: "The answer's X-Trace-Id (an error's traceId): it finds the entry too" }),
    headers: z.record(z.string(), z.string()).openapi({ description: 'Request headers, lower-case; Authorization, X-API-Key, X-Sandbox-Token and Cookie masked' }),
    request: LoggedBodySchema,
    answer: LoggedBodySchema,
    ids: z.array(z.string()).openapi({ description: 'What it created or changed: the id of a 2xx answer and its Location' }),
    warnings: z.array(z.string()).openapi({ description: 'Its Sandbox-Warning headers' }),
  })
  .openapi('RequestEntry');

export const RequestPageSchema = z
  .object({ items: z.array(RequestEntrySchema), nextCursor: z.string().nullable().openapi({ description: 'Send as cursor for the next (older) page; null on the last' }), limit: z.number().int() })
  .openapi('RequestPage');

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** The filters and paging of the request log's lists. */
export const RequestQuerySchema = z.object({
  status: z
    .string()
    .regex(/^(?:[1-5](?:xx|\d\d)|failed)$/, { error: "must be a status like 201, a class like 4xx, or 'failed' (400 and up)" })
    .optional()
    .openapi({ description: "A status (201), a class (4xx) or 'failed' (400 and up)" }),
  method: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(METHODS, { error: `must be one of ${METHODS.join(', ')}` }))
    .optional(),
  path: z.string().startsWith('/', { error: "must be a path prefix starting with '/', like /v2/pix" }).optional().openapi({ description: 'Only paths that start with this, like /v2/pix' }),
  face: z.enum(['v2', 'v1', 'api-pix', 'control'], { error: 'must be one of v2, v1, api-pix, control' }).optional(),
  since: z
    .string()
    .refine((v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)), { error: 'must be an ISO 8601 date-time like 2026-01-15T12:00:00Z (on the sandbox clock)' })
    .transform((v) => Date.parse(v))
    .optional()
    .openapi({ type: 'string', format: 'date-time', description: 'Entries at or after this instant of the sandbox (or the account\'s) clock' }),
  limit: intQuery('limit', 1, 1000, 50),
  cursor: z.string().optional().openapi({ description: 'The nextCursor of the previous page' }),
});
