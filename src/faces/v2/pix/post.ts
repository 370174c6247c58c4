// POST /v2/pix: create a PIX charge (service document 4.2). 201 with the charge of 2.4; Idempotency-Key replays.
import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { chargeWithQr, createCharge } from '../../../services/charges';
import { idempotent } from '../../../services/idempotency';
import { guard } from '../guard';
import { createdHeaders, errorResponse, idempotencyErrors, idempotentHeaders, json, jsonBody, sendIdempotent, v2Errors } from '../../../wire/schemas';
import { chargeView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { inRequestUnit } from '../../../wire/request-unit';
import { ChargeInputSchema, ChargeSchema } from '../../../wire/resources/charges';

export const route = createRoute({
  method: 'post',
  path: '/pix',
  operationId: 'createPixCharge',
  tags: ['v2 API'],
  summary: 'Create a PIX charge (BR Code and QR image)',
  request: {
    headers: idempotentHeaders,
    body: jsonBody(ChargeInputSchema, {
      amount: 25.9,
      description: 'Pedido 1234',
      customer: { name: 'Maria Silva', document: '12345678909', email: 'maria@example.com' },
      expiresIn: 3600,
      externalReference: 'pedido-1234',
      metadata: { orderId: '1234' },
      split: [{ subAccount: 'loja-centro', amount: 5 }],
    }),
  },
  responses: {
    201: { ...json(ChargeSchema, 'Charge created (a replay of an Idempotency-Key carries header Idempotent-Replayed: true)'), headers: createdHeaders({ idempotent: true, location: 'The charge as a transaction: /v2/transactions/{id}' }) },
    ...v2Errors,
    ...idempotencyErrors,
    503: errorResponse('PSP_UNAVAILABLE or PSP_OUT_OF_CAPACITY for a pinned institution'),
  },
});

export function register(app: Router, deps: Deps) {
  app.openapi({ ...route, middleware: [guard(deps, { permissions: ['PIX:WRITE'] })] as const }, async (c) => {
    const caller = c.get('caller');
    const key = c.req.valid('header')['Idempotency-Key'];
    const input = c.req.valid('json');
    const drawn = await chargeWithQr(deps, caller, input);
    const body = await c.req.json();
    let id: string | undefined;
    const result = inRequestUnit(c, () =>
      idempotent(deps, caller, 'POST /v2/pix', key, body, () => {
        const { tx } = createCharge(deps, caller, input, key, { id: drawn.id, pixCopyPaste: drawn.brCode() });
        id = tx.id;
        return { status: 201, body: chargeView(tx, drawn.qr(tx)) };
      }),
    );
    return sendIdempotent(c, result, { id, location: (txId) => `/v2/transactions/${txId}` });
  });
}
