// Schemas shared by several routes: the error envelope (documented on every route), money, ids.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { hasAtMostTwoDecimals } from '../domain/money';

export const ErrorSchema = z
  .object({
    statusCode: z.number().int().openapi({ example: 400 }),
    error: z.string().openapi({ example: 'BadRequest' }),
    message: z.string(),
    timestamp: z.string().openapi({ format: 'date-time' }),
    traceId: z.string(),
    details: z.record(z.string(), z.unknown()).openapi({ example: { code: 'VALIDATION_ERROR', fields: [{ field: 'amount', message: 'is required' }] } }),
  })
  .openapi('Error');

export const AuthErrorSchema = z.object({ error: z.string(), message: z.string() }).openapi('AuthError');

export const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });

/** The error responses every authenticated v2 route can give, merged into each route's own. */
export const v2Errors = {
  400: errorResponse('Validation failure (details.code VALIDATION_ERROR with details.fields) or a business rule'),
  401: errorResponse('Missing, invalid or expired token'),
  403: errorResponse('PERMISSION_DENIED, SUB_ACCOUNT_FORBIDDEN or SUB_ACCOUNT_SUSPENDED'),
  404: errorResponse('Not found (SUB_ACCOUNT_NOT_FOUND for an unknown X-Sub-Account)'),
} as const;

export const controlErrors = {
  400: errorResponse('Validation failure'),
  401: errorResponse('X-Sandbox-Token missing or wrong (only when SANDBOX_ADMIN_TOKEN is set)'),
  404: errorResponse('Not found'),
  409: errorResponse('Conflict or INVALID_STATE_TRANSITION'),
} as const;

/** Headers of a POST that takes an Idempotency-Key (service document 4.2 rule 1). */
export const idempotentHeaders = z.object({
  'Idempotency-Key': z.string().min(8, { error: 'must be 8 to 255 characters' }).max(255, { error: 'must be 8 to 255 characters' }).optional(),
  'X-Sub-Account': z.string().optional(),
});

export const idempotencyErrors = { 422: errorResponse('IDEMPOTENCY_KEY_REUSED: the same Idempotency-Key with a different request') } as const;

/** Sends an idempotent outcome as raw text, not c.json(): a replay must send the stored bytes as they were. */
export function sendIdempotent(c: Context, result: { status: number; text: string; replayed: boolean }) {
  const headers = { 'Content-Type': 'application/json', ...(result.replayed ? { 'Idempotent-Replayed': 'true' } : {}) };
  return c.body(result.text, result.status as 201, headers) as never;
}

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** A BRL amount: a number with at most 2 decimals. */
export const brl = (min: number, _what = 'amount') =>
  z
    .number({ error: `must be a number in BRL, like 10.50` })
    .min(min, { error: `must be at least ${min}` })
    .refine(hasAtMostTwoDecimals, { error: 'must have at most 2 decimal places' });

export const subAccountHeader = z.object({
  'X-Sub-Account': z.string().optional().openapi({ description: 'Sub-account reference, or "principal" for the main account' }),
});

export const uuidParam = (name: string) =>
  z.object({ [name]: z.string().openapi({ param: { name, in: 'path' } }) });

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

/**
 * Client metadata, kept as the JSON parser made it: z.record copies into a plain object, where a `__proto__` key
 * vanishes (sandbox.md 2.8: what a client sends comes back key for key). Checked to be an object, never copied.
 */
export const metadataSchema = z
  .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { error: 'must be an object of key-value pairs' })
  .openapi({ type: 'object', additionalProperties: true, description: 'Free key-value pairs, returned key for key' });

/** An id the client may omit but not send empty: "" is not "absent" (sandbox.md 2.8). */
export const optionalId = (hint: string) => z.string({ error: `must be a string: ${hint}` }).min(1, { error: `must not be empty: ${hint}` }).optional();
