// A PIX charge as POST /v2/pix takes it (and the control API's charge lists) and as the faces show it.
import { z } from '@hono/zod-openapi';
import { toCents } from '../../domain/money';
import { TRANSACTION_STATUSES } from '../../domain/types';
import { REFERENCE_PATTERN } from '../../domain/subaccounts';
import { serviceDocument } from '../documents';
import { SplitLegSchema } from '../../webhooks/schemas';
import { brl, dateTime, metadataSchema, optionalId, uuid } from '../schemas';

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
      .refine(serviceDocument('customer.document'), { error: 'must be a CPF (11 digits) or CNPJ (14 characters), without punctuation, like 12345678909' })
      .optional(),
    email: z.email({ error: 'must be an email address, like ana@example.com' }).max(255, { error: 'must be at most 255 characters' }).optional(),
    phone: z.string().max(20, { error: 'must be at most 20 characters' }).optional(),
  })
  .openapi('Customer');

const SplitItemSchema = z
  .object({
    subAccount: z
      .string({ error: 'must be a sub-account reference or "principal"' })
      .regex(REFERENCE_PATTERN, { error: 'must match ^[a-z0-9][a-z0-9_-]{1,31}$ (a sub-account reference) or be "principal"' })
      .openapi({ description: 'Reference of an active sub-account of the same account; "principal" (the main account) only from a charge a sub-account creates', example: 'loja-centro' }),
    amount: cents(0.01, 999_999_999.99, 'amount').openapi({ type: 'number', minimum: 0.01, maximum: 999_999_999.99, description: 'Fixed BRL amount, at most 2 decimal places (no percentages)', example: 5 }),
  })
  .openapi('SplitItem');

export const ChargeInputSchema = z
  .object({
    amount: cents(1, 999_999_999.99, 'amount').openapi({ type: 'number', minimum: 1, example: 25.9 }),
    description: z.string({ error: 'must be a string' }).max(255, { error: 'must be at most 255 characters' }),
    customer: CustomerSchema.optional(),
    projectId: optionalId('a project id from GET /v2/projects, or omit projectId').openapi({ format: 'uuid', description: 'Default: the account\'s project when it has exactly one' }),
    pspCredentialId: optionalId('an institution id of the account, or omit pspCredentialId').openapi({ format: 'uuid', description: 'Pins the issuing institution (accounts with institution choice); never routed elsewhere' }),
    expiresIn: z
      .number({ error: 'must be a whole number of seconds' })
      .int({ error: 'must be a whole number of seconds' })
      .min(300, { error: 'must be at least 300 seconds' })
      .max(604800, { error: 'must be at most 604800 seconds (7 days)' })
      .default(86400)
      .openapi({ description: 'Seconds until the charge expires; default 86400 (24 h)' }),
    externalReference: z.string().max(255, { error: 'must be at most 255 characters' }).optional(),
    metadata: metadataSchema.optional(),
    split: z
      .array(SplitItemSchema)
      .max(10, { error: 'must have at most 10 items' })
      .optional(),
  })
  .openapi('ChargeInput');

export const ChargeSchema = z
  .object({
    id: uuid(),
    status: z.enum(TRANSACTION_STATUSES),
    amount: z.number(),
    currency: z.literal('BRL'),
    pixCopyPaste: z.string(),
    qrCodeBase64: z.string().optional().openapi({ description: 'data:image/png;base64,...' }),
    pspPaymentId: z.string().optional(),
    expiresAt: dateTime(),
    pspCredentialId: uuid().optional(),
    externalReference: z.string().optional(),
    createdAt: dateTime(),
    split: z.array(SplitLegSchema).optional().openapi({ description: 'Present only when the charge was created with a split' }),
  })
  .openapi('PixCharge');
