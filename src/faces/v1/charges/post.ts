// POST /v1/charges (sandbox.md 12): a payment link of a project; its payments are ordinary charges of the core.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { PAYMENT_METHODS } from '../../../domain/types';
import { createPaymentLink } from '../../../services/payment-links';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json, jsonBody } from '../../../wire/schemas';
import { paymentLinkView } from '../../../wire/views';
import { centsV1, nullableId, text, v1Errors, v1Headers, v1NotFound, v1Security, v1Tags } from '../schemas';
import { PaymentLinkSchema } from '../../../wire/resources/payment-links';
import { CLOCK_RANGE_TEXT, inClockRange } from '../../../lib/clock';
import { nowOf } from '../../../services/clocks';

const PaymentLinkInput = z
  .object({
    projectId: z.string({ error: 'must be a string: a project id from GET /v1/projects' }).min(1, { error: 'must not be empty: a project id from GET /v1/projects' }),
    name: text(255).trim().min(1, { error: 'must not be empty' }),
    description: text(255).nullish().transform((v) => v ?? undefined),
    amount: centsV1(1),
    paymentMethods: z
      .array(z.enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` }), { error: `must be an array of ${PAYMENT_METHODS.join(', ')}` })
      .min(1, { error: `must name at least one of ${PAYMENT_METHODS.join(', ')}` }),
    expiresAt: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time in the future, like 2026-12-31T23:59:59Z', abort: true })
      // An offset can carry 9999-12-31 into year 10000, so the instant is checked, not the text.
      .refine((v) => inClockRange(Date.parse(v)), { error: `must be an instant from ${CLOCK_RANGE_TEXT}` })
      .nullish()
      .transform((v) => (v == null ? undefined : Date.parse(v))),
    customerId: nullableId('a customer id from GET /v1/customers, or omit customerId (a link with one is single-use)'),
    allowCoupons: z.boolean({ error: 'must be true or false' }).nullish().transform((v) => v ?? undefined),
    notifications: z.array(z.enum(['email'], { error: "must be 'email'" })).nullish().transform((v) => v ?? undefined),
    maxInstallments: z.number().int().min(1).max(12, { error: 'must be a whole number from 1 to 12' }).nullish().transform((v) => v ?? undefined),
  })
  .openapi('PaymentLinkInput');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/charges',
      operationId: 'createPaymentLink',
      tags: v1Tags,
      summary: 'Create a payment link (the SDKs\' charges.create): a page /c/{slug} that takes payments',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['CHARGE:WRITE'] })] as const,
      request: {
        headers: v1Headers,
        body: jsonBody(PaymentLinkInput, { projectId: '33333333-3333-4333-8333-333333333301', name: 'Produto Premium', amount: 99.9, paymentMethods: ['pix', 'credit_card'], description: 'Acesso anual' }),
      },
      responses: { 201: json(PaymentLinkSchema, 'The payment link, active'), ...v1Errors, ...v1NotFound },
    }),
    (c) => c.json(paymentLinkView(createPaymentLink(deps, c.get('caller'), c.req.valid('json')), nowOf(deps, c.get('caller').account), new URL(c.req.url).origin), 201),
  );
}
