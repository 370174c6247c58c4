// POST /v1/withdrawals (sandbox.md 12): a withdrawal of the core (createWithdrawal, the verb of POST /v2/withdrawals)
// to a bank account of the tenant (bankAccountId) or to a PIX key given in full.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { SandboxError } from '../../../domain/errors';
import type { Account } from '../../../domain/types';
import { checkKeyAndDocument, DOCUMENT_TYPES, PIX_KEY_TYPES } from '../../../wire/pix-fields';
import { documentTypeOf } from '../../../services/customers';
import { createWithdrawal, type WithdrawalInput } from '../../../services/withdrawals';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json, jsonBody } from '../../../wire/schemas';
import { centsV1, nullableId, text, v1Errors, v1Headers, v1NotFound, v1Security, v1Tags } from '../schemas';
import { withdrawalV1View } from '../views';
import { WithdrawalSchema } from '../../../wire/resources/withdrawals';

const PIX_FIELDS = ['pixKey', 'pixKeyType', 'holderName', 'holderDocument', 'holderDocumentType'] as const;

/** bankAccountId, or all five PIX fields (never both, never some); each key and document checked against its type. */
function destination(value: unknown, ctx: z.RefinementCtx) {
  if (typeof value !== 'object' || value === null) return;
  const v = value as Record<string, unknown>;
  const given = PIX_FIELDS.filter((f) => v[f] != null);
  const bank = v.bankAccountId != null;
  if (bank && given.length > 0) for (const f of given) ctx.addIssue({ code: 'custom', path: [f], message: 'must not be sent with bankAccountId: send bankAccountId or the PIX fields, not both' });
  else if (!bank && given.length === 0) ctx.addIssue({ code: 'custom', path: ['bankAccountId'], message: `is required unless all of ${PIX_FIELDS.join(', ')} are sent` });
  else if (!bank && given.length < PIX_FIELDS.length)
    for (const f of PIX_FIELDS.filter((f) => v[f] == null)) ctx.addIssue({ code: 'custom', path: [f], message: `is required with the other PIX fields (${given.join(', ')} were sent): send all of ${PIX_FIELDS.join(', ')}, or bankAccountId alone` });
  checkKeyAndDocument(v, ctx);
}

const optional = <T extends z.ZodType>(s: T) => s.nullish().transform((v) => v ?? undefined);

export const WithdrawalV1Input = z
  .object({
    amount: centsV1(1),
    bankAccountId: nullableId('a bank account id of the account (GET /_sandbox/accounts/{id} lists them)'),
    pixKey: optional(text(77)),
    pixKeyType: optional(z.enum(PIX_KEY_TYPES, { error: `must be one of ${PIX_KEY_TYPES.join(', ')}` })),
    holderName: optional(text(255).min(1, { error: 'must not be empty' })),
    holderDocument: optional(z.string({ error: 'must be a string: the CPF or CNPJ of the holder, without punctuation' })),
    holderDocumentType: optional(z.enum(DOCUMENT_TYPES, { error: "must be 'cpf' or 'cnpj'" })),
  })
  .check(z.superRefine(destination, { when: () => true }))
  .openapi('WithdrawalInputV1');

/** v2's withdrawal (2.7) as the SDKs type it: bankAccountId, and no projectId or externalReference. */
export const WithdrawalV1Schema = WithdrawalSchema.omit({ projectId: true, externalReference: true })
  .extend({ bankAccountId: z.string().nullable().openapi({ description: 'The tenant\'s bank account it went to; null when sent to PIX fields' }) })
  .openapi('WithdrawalV1');

/** The core's input: the PIX fields as sent, or those of the tenant's bank account (its holder's document as the key). */
function toCoreInput(account: Account, body: z.infer<typeof WithdrawalV1Input>): WithdrawalInput {
  if (body.bankAccountId === undefined) {
    return { amount: body.amount, pixKey: body.pixKey!, pixKeyType: body.pixKeyType!, holderName: body.holderName!, holderDocument: body.holderDocument!, holderDocumentType: body.holderDocumentType! };
  }
  const bank = account.bankAccounts.find((b) => b.id === body.bankAccountId);
  if (!bank)
    throw new SandboxError('BANK_ACCOUNT_NOT_FOUND', `No bank account with id '${body.bankAccountId}' in this account. Add one with POST /_sandbox/accounts (or PATCH /_sandbox/accounts/{id}) bankAccounts, or send the PIX fields instead.`, {
      resource: 'bankAccount',
      id: body.bankAccountId,
    });
  const type = documentTypeOf(bank.holderDocument);
  return { amount: body.amount, pixKey: bank.holderDocument, pixKeyType: type, holderName: bank.holderName, holderDocument: bank.holderDocument, holderDocumentType: type, bankAccountId: bank.id };
}

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/withdrawals',
      operationId: 'createWithdrawalV1',
      tags: v1Tags,
      summary: 'Create a PIX withdrawal (asynchronous: withdrawal_completed or withdrawal_failed follows)',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['WITHDRAWAL:WRITE'] })] as const,
      request: {
        headers: v1Headers,
        body: jsonBody(WithdrawalV1Input, { amount: 150.75, pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'João da Silva', holderDocument: '12345678909', holderDocumentType: 'cpf' }),
      },
      responses: { 201: json(WithdrawalV1Schema, 'Withdrawal created, pending'), ...v1Errors, ...v1NotFound },
    }),
    (c) => {
      const caller = c.get('caller');
      const tx = createWithdrawal(deps, caller, toCoreInput(caller.account, c.req.valid('json')));
      return c.json(withdrawalV1View(tx), 201);
    },
  );
}
