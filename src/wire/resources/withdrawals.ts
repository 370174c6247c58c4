// A withdrawal as POST /v2/withdrawals takes it (and the control API's withdrawal action) and as every surface shows it.
import { z } from '@hono/zod-openapi';
import { toCents } from '../../domain/money';
import { checkKeyAndDocument, DOCUMENT_TYPES, PIX_KEY_TYPES } from '../pix-fields';
import { brl, dateTime, optionalId, uuid } from '../schemas';

const cents = (what: string) =>
  brl(1, what)
    .refine((v) => v <= 999_999_999.99, { error: 'must be at most 999999999.99' })
    .transform((v) => toCents(v)!)
    .openapi({ type: 'number', minimum: 1 });

/** Checks that need several fields: run even when another field failed, so every problem is listed at once. */
function crossFieldChecks(value: unknown, ctx: z.RefinementCtx) {
  if (typeof value !== 'object' || value === null) return;
  const v = value as Record<string, unknown>;
  if ((v.amount === undefined) === (v.netAmount === undefined)) {
    const message = v.amount === undefined ? 'send exactly one of amount (gross) and netAmount (what the recipient receives); neither was sent' : 'send exactly one of amount and netAmount, not both';
    ctx.addIssue({ code: 'custom', path: ['amount'], message });
    ctx.addIssue({ code: 'custom', path: ['netAmount'], message });
  }
  checkKeyAndDocument(v, ctx);
}

const exactlyOne = (sent: string, absent: string) =>
  ({ type: 'object', required: [sent], properties: { [sent]: { type: 'number' }, [absent]: false } }) as unknown as { type: 'object' };

export const WithdrawalInputSchema = z
  .object({
    pixKey: z.string({ error: 'must be a string: the recipient PIX key' }).openapi({ example: 'fulano@example.com' }),
    pixKeyType: z.enum(PIX_KEY_TYPES, { error: `must be one of ${PIX_KEY_TYPES.join(', ')}` }),
    holderName: z.string({ error: 'must be a string: the name of the account holder' }).min(1, { error: 'must not be empty' }).max(255, { error: 'must be at most 255 characters' }),
    holderDocument: z.string({ error: 'must be a string: the CPF or CNPJ of the holder, without punctuation' }),
    holderDocumentType: z.enum(DOCUMENT_TYPES, { error: "must be 'cpf' or 'cnpj'" }),
    projectId: optionalId('a project id from GET /v2/projects, or omit projectId').openapi({ format: 'uuid', description: 'Default: the account\'s project when it has exactly one' }),
    amount: cents('amount').optional().openapi({ description: 'Gross BRL debited from the balance; the recipient receives amount - feeAmount. Exactly one of amount and netAmount.' }),
    netAmount: cents('netAmount').optional().openapi({ description: 'BRL the recipient receives; gross = netAmount + feeAmount is debited. Exactly one of amount and netAmount.' }),
    externalReference: z.string().max(255, { error: 'must be at most 255 characters' }).optional(),
  })
  .check(z.superRefine(crossFieldChecks, { when: () => true }))
  // Exactly one of amount and netAmount (crossFieldChecks enforces it): each variant requires one and forbids the
  // other (a `false` schema), which generators turn into `{ amount: number; netAmount?: never } | { ... }`.
  .openapi('WithdrawalInput', { oneOf: [exactlyOne('amount', 'netAmount'), exactlyOne('netAmount', 'amount')] });

const nullable = (s: z.ZodString) => s.nullable();
export const WithdrawalSchema = z
  .object({
    id: uuid(),
    amount: z.number(),
    feeAmount: z.number(),
    netAmount: z.number(),
    status: z.enum(['pending', 'processing', 'completed', 'failed']),
    snapshotHolderName: z.string(),
    snapshotHolderDocument: z.string(),
    createdAt: dateTime(),
    projectId: nullable(uuid()),
    snapshotPixKey: nullable(z.string()),
    snapshotPixKeyType: z.enum(PIX_KEY_TYPES).nullable(),
    failureReason: nullable(z.string()),
    pspReference: nullable(z.string()),
    processedAt: nullable(dateTime()),
    externalReference: nullable(z.string()),
  })
  .openapi('Withdrawal');
