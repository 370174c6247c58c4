// POST /_sandbox/api-pix/cob/{txid}/pay: pays a cob or cobv of the standard face by its txid alone (a test that knows
// only the txid), through the same control action as POST /_sandbox/transactions/{id}/pay on its charge.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import { locateCob } from '../services/cobs';
import { runAction } from '../services/actions';
import { controlConflict, controlErrors, controlSecurity, json, optionalJsonBody, pathParam } from '../wire/schemas';
import { transactionView } from '../wire/views';
import type { Router } from '../wire/env';
import { TransactionSchema } from '../wire/resources/transactions';

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

const certificateRoute = createRoute({
  method: 'post',
  path: '/accounts/{id}/client-certificates',
  operationId: 'issueClientCertificate',
  tags: ['Control API'],
  security: controlSecurity,
  summary: 'Issue a client certificate for the API Pix face under --https --mtls: PEM certificate and key signed by the local CA, for this account',
  request: { params: z.object({ id: pathParam('id', 'Account id') }) },
  responses: {
    201: json(
      z
        .object({
          commonName: z.string().openapi({ description: 'The account id: /api-pix/v2 accepts the certificate with tokens of this account only' }),
          certificate: z.string().openapi({ description: 'PEM certificate (client authentication, 365 days)' }),
          key: z.string().openapi({ description: 'Its PEM private key (unencrypted; keep it in a file for curl --key)' }),
          ca: z.string().openapi({ description: 'PEM of the local CA that signed it (and the listener)' }),
        })
        .openapi('ClientCertificate'),
      'The certificate and its key',
    ),
    ...controlErrors,
  },
});

export function registerApiPixControl(app: Router, deps: Deps) {
  app.openapi(certificateRoute, async (c) => {
    const { id } = c.req.valid('param');
    deps.store.account(id);
    // Loaded on first use: the certificate code (pkijs) is start-up time a sandbox without mTLS does not pay.
    const { issueClientCertificate, loadOrCreateCa } = await import('../tls');
    const ca = await loadOrCreateCa(deps.settings.home);
    const pair = await issueClientCertificate(ca, { commonName: id });
    return c.json({ commonName: id, certificate: pair.cert, key: pair.key, ca: ca.cert }, 201);
  });
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
