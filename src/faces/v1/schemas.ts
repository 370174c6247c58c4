// Shared by the v1 routes: the error responses (same envelope as v2), the optional X-Sub-Account header, the security
// scheme (X-API-Key, registered on the v1 router and merged into /openapi.json), and the inputs several routes take.
import { z } from '@hono/zod-openapi';
import { toCents } from '../../domain/money';
import { serviceDocument } from '../../wire/documents';
import { brl, ErrorSchema, errorResponse, json } from '../../wire/schemas';

export const v1Errors = {
  400: json(ErrorSchema, 'Validation failure: details.code VALIDATION_ERROR with details.fields naming each field'),
  401: json(ErrorSchema, 'X-API-Key missing, malformed or unknown'),
  403: json(ErrorSchema, 'PERMISSION_DENIED (the key lacks the permission), or SUB_ACCOUNT_FORBIDDEN (X-Sub-Account other than "principal": API keys are account-level)'),
} as const;
export const v1NotFound = { 404: errorResponse('Not found: details.resource and details.id') } as const;

export const API_KEY_SCHEME = 'apiKeyAuth';
export const v1Security = [{ [API_KEY_SCHEME]: [] }];
export const v1Tags = ['v1 API'];

export const v1Headers = z.object({
  'X-Sub-Account': z
    .string()
    .optional()
    .openapi({ description: 'Only "principal" (the whole account) is accepted: API keys are account-level; any other value is 403 SUB_ACCOUNT_FORBIDDEN' }),
});

/** BRL in (minimum `min`, at most 2 decimals), cents out. */
export const centsV1 = (min: number) =>
  brl(min)
    .refine((v) => v <= 999_999_999.99, { error: 'must be at most 999999999.99' })
    .transform((v) => toCents(v)!)
    .openapi({ type: 'number', minimum: min, example: 25.9 });

export const text = (max: number) => z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });

/** CPF (11 digits) or CNPJ (14), as the service takes them: wrong check digits are accepted with a warning. */
export const documentSchema = z
  .string({ error: 'must be a string: a CPF (11 digits) or CNPJ (14 characters) without punctuation' })
  .max(20, { error: 'must be at most 20 characters' })
  .refine(serviceDocument('document'), { error: 'must be a CPF (11 digits) or CNPJ (14 characters), without punctuation, like 12345678909' });

/** An id the SDKs may send as null when absent (the PHP SDK sends projectId: null): null reads as absent. */
export const nullableId = (hint: string) =>
  z
    .string({ error: `must be a string: ${hint}` })
    .min(1, { error: `must not be empty: ${hint}` })
    .nullish()
    .transform((v) => v ?? undefined)
    .openapi({ type: 'string', format: 'uuid' });

export const expiresInSchema = (dflt: number) =>
  z
    .number({ error: 'must be a whole number of seconds' })
    .int({ error: 'must be a whole number of seconds' })
    .min(300, { error: 'must be at least 300 seconds' })
    .max(604800, { error: 'must be at most 604800 seconds (7 days)' })
    .default(dflt);
