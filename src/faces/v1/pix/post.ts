// POST /v1/pix (sandbox.md 12): the SDKs' PIX charge, translated to the core's createCharge (the verb POST /v2/pix
// calls), so v2, the control API, /pay, the clock and the ledger see the same charge.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { chargeWithQr, createCharge } from '../../../services/charges';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json, jsonBody, metadataSchema, uuid } from '../../../wire/schemas';
import { CustomerInputSchema } from '../customers/post';
import { centsV1, expiresInSchema, nullableId, text, v1Errors, v1Headers, v1NotFound, v1Security, v1Tags } from '../schemas';
import { pixV1View } from '../views';
import { inRequestUnit } from '../../../wire/request-unit';
import { ChargeSchema } from '../../../wire/resources/charges';


function oneCustomer(value: unknown, ctx: z.RefinementCtx) {
  const v = value as Record<string, unknown> | null;
  if (v && typeof v === 'object' && v.customer != null && v.customerId != null) {
    const message = 'send customerId (a customer record) or customer (the payer details), not both';
    ctx.addIssue({ code: 'custom', path: ['customer'], message });
    ctx.addIssue({ code: 'custom', path: ['customerId'], message });
  }
}

export const PixV1InputSchema = z
  .object({
    amount: centsV1(1),
    description: text(255),
    customerId: nullableId('a customer id from GET /v1/customers, or omit customerId'),
    customer: CustomerInputSchema.nullish().transform((v) => v ?? undefined),
    projectId: nullableId('a project id from GET /v1/projects, or omit projectId'),
    expiresIn: expiresInSchema(86400),
    externalReference: text(255).nullish().transform((v) => v ?? undefined),
    metadata: metadataSchema.optional(),
  })
  .check(z.superRefine(oneCustomer, { when: () => true }))
  .openapi('PixChargeInputV1');

/** v2's charge (2.4) as the SDKs type it: qrCodeBase64 always, customerId, and none of the PSP, pinning or split fields. */
export const PixV1Schema = ChargeSchema.pick({ id: true, status: true, amount: true, currency: true, pixCopyPaste: true, expiresAt: true, externalReference: true, createdAt: true })
  .extend({ qrCodeBase64: z.string().openapi({ description: 'data:image/png;base64,... (the BR Code as a QR image)' }), customerId: uuid().optional() })
  .openapi('PixChargeV1');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/pix',
      operationId: 'createPixChargeV1',
      tags: v1Tags,
      summary: 'Create a PIX charge (the SDKs\' pix.create): the same charge as POST /v2/pix',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['PIX:WRITE'] })] as const,
      request: {
        headers: v1Headers,
        body: jsonBody(PixV1InputSchema, { amount: 150.75, description: 'Pedido 12345', customer: { name: 'João da Silva', document: '12345678909', email: 'joao@example.com' }, externalReference: 'pedido-12345', metadata: { orderId: '12345' } }),
      },
      responses: { 201: json(PixV1Schema, 'Charge created, pending'), ...v1Errors, ...v1NotFound },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const drawn = await chargeWithQr(deps, c.get('caller'), input);
      const { tx } = inRequestUnit(c, () => createCharge(deps, c.get('caller'), input, undefined, { id: drawn.id, pixCopyPaste: drawn.brCode() }));
      return c.json(pixV1View(tx, drawn.qr(tx)), 201);
    },
  );
}
