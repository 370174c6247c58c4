// Shared by the v1 routes: the error responses (same envelope as v2), the optional X-Sub-Account header, the security
// scheme (X-API-Key, registered on the v1 router and merged into /openapi.json).
import { z } from '@hono/zod-openapi';
import { ErrorSchema, json } from '../schemas';

export const v1Errors = {
  400: json(ErrorSchema, 'Validation failure: details.code VALIDATION_ERROR with details.fields naming each query parameter'),
  401: json(ErrorSchema, 'X-API-Key missing, malformed or unknown'),
  403: json(ErrorSchema, 'PERMISSION_DENIED (the key lacks the permission), or SUB_ACCOUNT_FORBIDDEN (X-Sub-Account other than "principal": API keys are account-level)'),
} as const;

export const API_KEY_SCHEME = 'apiKeyAuth';
export const v1Security = [{ [API_KEY_SCHEME]: [] }];

export const v1Headers = z.object({
  'X-Sub-Account': z
    .string()
    .optional()
    .openapi({ description: 'Only "principal" (the whole account) is accepted: API keys are account-level; any other value is 403 SUB_ACCOUNT_FORBIDDEN' }),
});
