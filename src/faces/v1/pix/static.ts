// POST /v1/pix/qrcode-static (sandbox.md 12): a static BR Code of the account's PIX key, paid any number of times.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { qrPngDataUrl } from '../../../pix';
import { createStaticQr } from '../../../services/static-qr';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { dateTime, json, jsonBody, metadataSchema, uuid } from '../../../wire/schemas';
import { centsV1, expiresInSchema, nullableId, text, v1Errors, v1Headers, v1NotFound, v1Security, v1Tags } from '../schemas';
import { staticQrView } from '../views';
import { nowOf } from '../../../services/clocks';

export const StaticQrInputSchema = z
  .object({
    amount: centsV1(1),
    description: text(255),
    projectId: nullableId('a project id from GET /v1/projects, or omit projectId'),
    externalReference: text(255).nullish().transform((v) => v ?? undefined),
    expiresIn: expiresInSchema(86400),
    metadata: metadataSchema.optional(),
  })
  .openapi('StaticQrInput');

export const StaticQrSchema = z
  .object({
    id: uuid(),
    status: z.enum(['pending', 'cancelled']).openapi({ description: 'pending until it expires, then cancelled; its payments are transactions of their own' }),
    amount: z.number(),
    currency: z.literal('BRL'),
    pixCopyPaste: z.string().openapi({ description: 'Static BR Code: point of initiation 11, the account\'s PIX key, the amount' }),
    qrCodeBase64: z.string().openapi({ description: 'data:image/png;base64,...' }),
    externalReference: z.string().optional(),
    expiresAt: dateTime(),
    createdAt: dateTime(),
  })
  .openapi('StaticQr');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/pix/qrcode-static',
      operationId: 'createStaticQrCode',
      tags: v1Tags,
      summary: 'Create a static QR code (reusable; each payment is its own transaction with payment_completed)',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['PIX:WRITE'] })] as const,
      request: { headers: v1Headers, body: jsonBody(StaticQrInputSchema, { amount: 25, description: 'Doação', externalReference: 'pedido-12345' }) },
      responses: { 201: json(StaticQrSchema, 'The static QR code'), ...v1Errors, ...v1NotFound },
    }),
    (c) => {
      const qr = createStaticQr(deps, c.get('caller'), c.req.valid('json'));
      return c.json(staticQrView(qr, nowOf(deps, c.get('caller').account), qrPngDataUrl(qr.pixCopyPaste)), 201);
    },
  );
}
