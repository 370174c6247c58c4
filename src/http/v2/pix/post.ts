// POST /v2/pix: create a PIX charge (service document 4.2). 201 with the charge of 2.4; Idempotency-Key replays.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { toCents } from '../../../domain/money';
import { REFERENCE_PATTERN } from '../../../domain/subaccounts';
import { createCharge } from '../../../services/charges';
import { idempotent } from '../../../services/idempotency';
import { isValidCnpj, isValidCpf, qrPngDataUrl } from '../../../pix';
import { guard } from '../../middleware/guard';
import { brl, errorResponse, idempotencyErrors, idempotentHeaders, json, jsonBody, metadataSchema, optionalId, sendIdempotent, v2Errors } from '../../schemas';
import { chargeView } from '../../views';
import type { Router } from '../../env';

const cents = (min: number, max: number, what: string) =>
  brl(min, what)
    .refine((v) => v <= max, { error: `must be at most ${max}` })
    .transform((v) => toCents(v)!);

const CustomerSchema = z
  .object({
    name: z.string().max(255, { error: 'must be at most 255 characters' }).optional(),
    document: z
      .string()
      .max(20, { error: 'must be at most 20 characters' })
      .refine((d) => isValidCpf(d) || isValidCnpj(d), { error: 'must be a CPF (11 digits) or CNPJ (14 characters) with valid check digits, without punctuation, like 12345678909' })
      .optional(),
    email: z.email({ error: 'must be an email address, like ana@example.com' }).max(255, { error: 'must be at most 255 characters' }).optional(),
    phone: z.string().max(20, { error: 'must be at most 20 characters' }).optional(),
  })
  .openapi('Customer');

const SplitItemSchema = z.object({
  subAccount: z.string({ error: 'must be a sub-account reference or "principal"' }).regex(REFERENCE_PATTERN, { error: 'must match ^[a-z0-9][a-z0-9_-]{1,31}$ (a sub-account reference) or be "principal"' }),
  amount: cents(0.01, 999_999_999.99, 'amount'),
});

export const ChargeInputSchema = z
  .object({
    amount: cents(1, 999_999_999.99, 'amount').openapi({ type: 'number', minimum: 1, example: 25.9 }),
    description: z.string({ error: 'must be a string' }).max(255, { error: 'must be at most 255 characters' }),
    customer: CustomerSchema.optional(),
    projectId: optionalId('a project id from GET /v2/projects, or omit projectId'),
    pspCredentialId: optionalId('an institution id of the account, or omit pspCredentialId'),
    expiresIn: z
      .number({ error: 'must be a whole number of seconds' })
      .int({ error: 'must be a whole number of seconds' })
      .min(300, { error: 'must be at least 300 seconds' })
      .max(604800, { error: 'must be at most 604800 seconds (7 days)' })
      .default(86400),
    externalReference: z.string().max(255, { error: 'must be at most 255 characters' }).optional(),
    metadata: metadataSchema.optional(),
    split: z
      .array(SplitItemSchema.openapi({ type: 'object' }))
      .max(10, { error: 'must have at most 10 items' })
      .optional(),
  })
  .openapi('ChargeInput');

const ChargeSchema = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'completed', 'failed', 'cancelled']),
    amount: z.number(),
    currency: z.literal('BRL'),
    pixCopyPaste: z.string(),
    qrCodeBase64: z.string().optional(),
    pspPaymentId: z.string().optional(),
    expiresAt: z.string(),
    pspCredentialId: z.string().optional(),
    externalReference: z.string().optional(),
    createdAt: z.string(),
    split: z.array(z.object({ subAccount: z.string(), amount: z.number() })).optional(),
  })
  .openapi('PixCharge');

export const route = createRoute({
  method: 'post',
  path: '/pix',
  tags: ['v2 API'],
  summary: 'Create a PIX charge (BR Code and QR image)',
  request: {
    headers: idempotentHeaders,
    body: jsonBody(ChargeInputSchema),
  },
  responses: {
    201: json(ChargeSchema, 'Charge created (a replay of an Idempotency-Key carries header Idempotent-Replayed: true)'),
    ...v2Errors,
    ...idempotencyErrors,
    503: errorResponse('PSP_UNAVAILABLE or PSP_OUT_OF_CAPACITY for a pinned institution'),
  },
});

export function register(app: Router, deps: Deps) {
  app.openapi({ ...route, middleware: [guard(deps, { permissions: ['PIX:WRITE'] })] as const }, async (c) => {
    const caller = c.get('caller');
    const key = c.req.valid('header')['Idempotency-Key'];
    const result = idempotent(deps, caller, 'POST /v2/pix', key, await c.req.json(), () => {
      const { tx } = createCharge(deps, caller, c.req.valid('json'), key);
      return { status: 201, body: chargeView(tx, qrPngDataUrl(tx.charge!.pixCopyPaste)) };
    });
    return sendIdempotent(c, result);
  });
}
