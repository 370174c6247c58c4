// Schemas shared by several routes: the error envelope (documented on every route), money, ids.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { answerHeaderOf } from './answer-header';
import { ERROR_CODES } from '../domain/errors';
import { hasAtMostTwoDecimals } from '../domain/money';
import { PERMISSIONS } from '../domain/permissions';
import { warningsOf } from './request-warnings';

/** Security requirements, by the scheme names registered in faces/docs.ts. */
export const BEARER_SCHEME = 'bearerAuth';
export const SANDBOX_TOKEN_SCHEME = 'sandboxToken';
export const bearerSecurity = [{ [BEARER_SCHEME]: [] }];
/** Every /_sandbox route: X-Sandbox-Token, checked only when SANDBOX_ADMIN_TOKEN is set. */
export const controlSecurity = [{ [SANDBOX_TOKEN_SCHEME]: [] }];

export const FieldErrorSchema = z
  .object({ field: z.string().openapi({ example: 'amount' }), message: z.string().openapi({ example: 'is required' }) })
  .openapi('FieldError');

export const ErrorDetailsSchema = z
  .object({
    code: z.enum(ERROR_CODES).openapi({ description: 'What went wrong, for programs: one of the closed list the sandbox emits (sandbox.md 2.2)' }),
    fields: z.array(FieldErrorSchema).optional().openapi({ description: 'VALIDATION_ERROR: every failing field, as a client writes it (split[1].amount)' }),
    resource: z.string().optional().openapi({ description: 'On a 404 or 409: the kind of resource (charge, sub-account, project...)', example: 'project' }),
    id: z.string().optional().openapi({ description: 'On a 404: the id or reference that was not found' }),
    field: z.string().optional().openapi({ description: 'On a 409: the field whose value is taken', example: 'name' }),
    value: z.string().optional().openapi({ description: 'On a 409: the value that is taken' }),
    required: z.array(z.enum(PERMISSIONS)).optional().openapi({ description: 'PERMISSION_DENIED: the permissions of which the credential needs one (or FULL_ACCESS)' }),
  })
  .catchall(z.unknown())
  .openapi('ErrorDetails', { description: 'Business code and the data that explains it; other keys may appear for some codes (kind, action, from, reference...)' });

export const ErrorSchema = z
  .object({
    statusCode: z.number().int().min(400).max(599).openapi({ example: 400 }),
    error: z.string().openapi({ description: 'Error name: BadRequest, Unauthorized, Forbidden, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, UnprocessableEntity, TooManyRequests, InternalError, ServiceUnavailable', example: 'BadRequest' }),
    message: z.string().openapi({ description: 'What went wrong and what to send instead', example: 'Invalid request: amount is required' }),
    // Optional as in the service document (section 7): the sandbox always sends both, the service may not.
    details: ErrorDetailsSchema.optional(),
    timestamp: z.string().openapi({ format: 'date-time', example: '2026-03-10T12:00:00.000Z' }),
    traceId: z.string().optional().openapi({ format: 'uuid', description: 'Also in header X-Trace-Id', example: '0b6c1f3e-8d4a-4c1e-9f3a-2d5e7a9b1c40' }),
  })
  .openapi('Error');

export const AuthErrorSchema = z
  .object({ error: z.string().openapi({ example: 'Unauthorized' }), message: z.string().openapi({ example: 'Invalid client_id or client_secret.' }) })
  .openapi('AuthError', { description: 'The small error body of POST /v2/auth (service document 7)' });

export const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });

/** The error responses every authenticated v2 route can give, merged into each route's own. */
export const v2Errors = {
  400: errorResponse('VALIDATION_ERROR (details.fields lists every failing field), MALFORMED_JSON, or a business rule named by details.code'),
  401: errorResponse('Missing, invalid or expired bearer token'),
  403: errorResponse('PERMISSION_DENIED, SUB_ACCOUNT_FORBIDDEN or SUB_ACCOUNT_SUSPENDED'),
  404: errorResponse('Not found: details.resource and details.id (SUB_ACCOUNT_NOT_FOUND for an unknown X-Sub-Account)'),
} as const;

export const controlErrors = {
  400: errorResponse('Validation failure'),
  401: errorResponse('X-Sandbox-Token missing or wrong (only when SANDBOX_ADMIN_TOKEN is set)'),
  404: errorResponse('Not found: details.resource and details.id'),
} as const;

/** A 409 of a control route: `what` names the codes it can give. */
export const controlConflict = (what: string) => ({ 409: errorResponse(what) }) as const;

// Optional headers carry no `example`: Swagger UI would pre-fill it and act as a sub-account (or replay) unasked.
const SUB_ACCOUNT_DOC = {
  description: 'Sub-account reference to act as that wallet (like loja-centro), or "principal" (the default) for the main account; needs the credential\'s sub-account access',
  pattern: '^[a-z0-9][a-z0-9_-]{1,31}$',
};

/** Headers of a POST that takes an Idempotency-Key (service document 4.2 rule 1). */
export const idempotentHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .min(8, { error: 'must be 8 to 255 characters' })
    .max(255, { error: 'must be 8 to 255 characters' })
    .optional()
    .openapi({ description: 'Retrying with the same key (like order-2026-0001) within 24 h replays the first answer (header Idempotent-Replayed: true); the same key with a different body is 422' }),
  'X-Sub-Account': z.string().optional().openapi(SUB_ACCOUNT_DOC),
});

/** Response headers of a 201 answered through an Idempotency-Key, and of any 201 with a Location. */
export const createdHeaders = (opts: { idempotent: boolean; location?: string }) =>
  z.object({
    ...(opts.location ? { Location: z.string().openapi({ description: opts.location, example: '/v2/transactions/0b6c1f3e-8d4a-4c1e-9f3a-2d5e7a9b1c40' }) } : {}),
    ...(opts.idempotent
      ? { 'Idempotent-Replayed': z.literal('true').optional().openapi({ description: 'Present (true) when this answer is the replay of an earlier request with the same Idempotency-Key' }) }
      : {}),
  });

export const idempotencyErrors = { 422: errorResponse('IDEMPOTENCY_KEY_REUSED: the same Idempotency-Key with a different request') } as const;

/**
 * Sends an idempotent outcome as raw text, not c.json(): a replay must send the stored bytes as they were.
 * A 201 carries Location, built from the created id: `created.id` when the verb just ran, else (a replay) the stored
 * answer's own `id` field.
 */
export function sendIdempotent(c: Context, result: { status: number; text: string; replayed: boolean }, created?: { id: string | undefined; location: (id: string) => string }) {
  if (created && result.status === 201) answerHeaderOf(c)('Location', created.location(created.id ?? (JSON.parse(result.text) as { id: string }).id));
  // Through the context, so the answer carries what it staged (a Sandbox-Warning per unknown field), on a real port
  // too; a first answer brings one header of its own, and with nothing staged c.body() builds no WHATWG Headers for it.
  // Idempotent-Replayed travels with the answer, where the request log reads it.
  return c.body(result.text, result.status as 201, result.replayed ? { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' } : { 'Content-Type': 'application/json' }) as never;
}

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A required JSON body; `example` is what Swagger UI pre-fills, and a test sends it as is (it must be accepted). */
export const jsonBody = <T extends z.ZodType>(schema: T, example?: unknown) => ({
  required: true,
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

/** A JSON body whose fields are all optional: it may be left out (an empty body reads as {}). */
export const optionalJsonBody = <T extends z.ZodType>(schema: T, example?: unknown) => ({ ...jsonBody(schema, example), required: false });

/** An id in a path; `example` (a UUID by default) is what the document shows and the examples test sends. */
export const pathParam = (name: string, description?: string, example = '0b6c1f3e-8d4a-4c1e-9f3a-2d5e7a9b1c40') =>
  z.string().openapi({ param: { name, in: 'path' }, example, ...(description ? { description } : {}) });

/** A date-time string in a response (ISO 8601, UTC). */
export const dateTime = () => z.string().openapi({ format: 'date-time', example: '2026-03-10T12:00:00.000Z' });
/** A UUID string in a response. */
export const uuid = () => z.string().openapi({ format: 'uuid', example: '0b6c1f3e-8d4a-4c1e-9f3a-2d5e7a9b1c40' });

/** A BRL amount: a number with at most 2 decimals. */
export const brl = (min: number, _what = 'amount') =>
  z
    .number({ error: `must be a number in BRL, like 10.50` })
    .min(min, { error: `must be at least ${min}` })
    .refine(hasAtMostTwoDecimals, { error: 'must have at most 2 decimal places' });

export const subAccountHeader = z.object({
  'X-Sub-Account': z.string().optional().openapi(SUB_ACCOUNT_DOC),
});

/** Page-number query parameters, shared with the v1 customers list. */
export const intQuery = (name: string, min: number, max: number, dflt: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return dflt;
      const n = Number(v);
      if (!/^-?\d+$/.test(v.trim()) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`} (default ${dflt})` });
        return z.NEVER;
      }
      return n;
    })
    .openapi({ param: { name, in: 'query' }, type: 'integer', minimum: min, ...(max === Number.MAX_SAFE_INTEGER ? {} : { maximum: max }), default: dflt });

/** Bounds of metadata (the service document sets none; docs/reference.md): Stripe's key count and key length, and a size. */
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_BYTES = 8192;

/**
 * Client metadata, kept as the JSON parser made it: z.record copies into a plain object, where a `__proto__` key
 * vanishes (sandbox.md 2.8: what a client sends comes back key for key). Checked to be an object, never copied, and
 * bounded: it is stored with the charge and copied into its events, so its size is what a record weighs (sandbox.md 11).
 */
export const metadataSchema = z
  .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { error: 'must be an object of key-value pairs' })
  .superRefine((v, ctx) => {
    const keys = Object.keys(v);
    const long = keys.find((k) => k.length > METADATA_MAX_KEY_LENGTH);
    let why: string | null = null;
    if (keys.length > METADATA_MAX_KEYS) why = `must have at most ${METADATA_MAX_KEYS} keys (got ${keys.length}); keep the rest in your own system under an id you put here`;
    else if (long !== undefined) why = `keys must be at most ${METADATA_MAX_KEY_LENGTH} characters ('${long.slice(0, 20)}...' has ${long.length})`;
    else {
      const bytes = Buffer.byteLength(JSON.stringify(v));
      if (bytes > METADATA_MAX_BYTES) why = `must be at most ${METADATA_MAX_BYTES} bytes as JSON (got ${bytes}); keep large values in your own system under an id you put here`;
    }
    if (why) ctx.addIssue({ code: 'custom', message: why });
  })
  .openapi({ type: 'object', additionalProperties: true, maxProperties: METADATA_MAX_KEYS, description: `Free key-value pairs, returned key for key: at most ${METADATA_MAX_KEYS} keys of at most ${METADATA_MAX_KEY_LENGTH} characters, at most ${METADATA_MAX_BYTES} bytes as JSON` });

/** An id the client may omit but not send empty: "" is not "absent" (sandbox.md 2.8). */
export const optionalId = (hint: string) => z.string({ error: `must be a string: ${hint}` }).min(1, { error: `must not be empty: ${hint}` }).optional();
