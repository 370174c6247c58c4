// POST /_sandbox/api-pix/cob/{txid}/pay: pays a cob or cobv of the standard face by its txid alone (a test that knows
// only the txid), through the same control action as POST /_sandbox/transactions/{id}/pay on its charge.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import { locateCob } from '../services/cobs';
import { runAction } from '../services/actions';
import { controlConflict, controlErrors, controlSecurity, json, optionalJsonBody, pathParam } from '../http/schemas';
import { transactionView } from '../http/views';
import type { Router } from '../http/env';
import { TransactionSchema } from '../http/v2/transactions/get';

const route = createRoute({
  method: 'post',
  path: '/api-pix/cob/{txid}/pay',
  operationId: 'payApiPixCob',
  tags: ['Control API'],
  security: controlSecurity,
  summary: 'Pay a cob or cobv of the standard API Pix face by its txid: CONCLUIDA with its pix entry; the webhook of its key hears of it',
  request: {
    params: z.object({ txid: pathParam('txid', 'The txid of a cob or cobv (any account)') }),
    body: optionalJsonBody(
      z
        .object({
          payerName: z.string().min(1).max(255).optional(),
          payerDocument: z.string().min(11).max(14).optional().openapi({ description: 'Payer CPF or CNPJ, digits only' }),
          infoPagador: z.string().max(140, { error: 'must be at most 140 characters' }).optional().openapi({ description: "The payer's message (the pix entry's infoPagador)" }),
        })
        .openapi('PayApiPixCob'),
      { payerName: 'Maria Silva', infoPagador: 'Pedido 1234' },
    ),
  },
  responses: { 200: json(TransactionSchema, 'The charge of the cob, paid'), ...controlErrors, ...controlConflict('The charge is not pending (already paid, expired or removed)') },
});

export function registerApiPixControl(app: Router, deps: Deps) {
  app.openapi(route, (c) => {
    const { txid } = c.req.valid('param');
    const { infoPagador, ...payer } = c.req.valid('json') ?? {};
    const found = locateCob(deps, txid);
    if (!found) throw new SandboxError('COB_NOT_FOUND', `No cob or cobv with txid '${txid}' in any account.`, { resource: 'cob', id: txid });
    const { tx } = found.record;
    // Before paying, so the webhook notice made by the payment carries it; a refused payment undoes it with the request.
    if (infoPagador !== undefined) tx.charge!.apiPix!.infoPagador = infoPagador;
    runAction(deps, tx.id, 'pay', payer);
    return c.json(transactionView(tx) as never, 200);
  });
}
