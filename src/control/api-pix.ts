// POST /_sandbox/api-pix/cob/{txid}/pay (and /_sandbox/accounts/{id}/api-pix/cob/{txid}/pay): pays a cob or cobv of the
// standard face by its txid (a test that knows only the txid), through the same control action as
// POST /_sandbox/transactions/{id}/pay on its charge. A txid is a tenant's own key: the lookup never picks between two.
import { randomBytes } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { locateCob } from '../services/cobs';
import { runAction } from '../services/actions';
import { controlConflict, controlErrors, controlSecurity, json, optionalJsonBody, pathParam } from '../wire/schemas';
import { transactionView } from '../wire/views';
import type { Router } from '../wire/env';
import { TransactionSchema } from '../wire/resources/transactions';

const PayInput = z
  .object({
    payerName: z.string().min(1).max(255).optional(),
    payerDocument: z.string().min(11).max(14).optional().openapi({ description: 'Payer CPF or CNPJ, digits only' }),
    infoPagador: z.string().max(140, { error: 'must be at most 140 characters' }).optional().openapi({ description: "The payer's message (the pix entry's infoPagador)" }),
  })
  .openapi('PayApiPixCob');
const payBody = optionalJsonBody(PayInput, { payerName: 'Maria Silva', infoPagador: 'Pedido 1234' });
const payResponses = {
  200: json(TransactionSchema, 'The charge of the cob, paid'),
  ...controlErrors,
  ...controlConflict('The charge is not pending (already paid, expired or removed), or (TXID_AMBIGUOUS) more than one account holds the txid and none was named'),
} as const;
const paySummary = 'Pay a cob or cobv of the standard API Pix face by its txid: CONCLUIDA with its pix entry; the webhook of its key hears of it';
const txidParam = pathParam('txid', 'The txid of a cob or cobv');

const route = createRoute({
  method: 'post',
  path: '/api-pix/cob/{txid}/pay',
  operationId: 'payApiPixCob',
  tags: ['Control API'],
  security: controlSecurity,
  summary: paySummary,
  request: {
    params: z.object({ txid: txidParam }),
    query: z.object({
      account: z.string().optional().openapi({ description: 'The account that holds the txid; needed when more than one account holds it (409 TXID_AMBIGUOUS otherwise)' }),
    }),
    body: payBody,
  },
  responses: payResponses,
});

const accountRoute = createRoute({
  method: 'post',
  path: '/accounts/{id}/api-pix/cob/{txid}/pay',
  operationId: 'payAccountApiPixCob',
  tags: ['Control API'],
  security: controlSecurity,
  summary: `${paySummary} (the txid of this account)`,
  request: { params: z.object({ id: pathParam('id', 'Account id'), txid: txidParam }), body: payBody },
  responses: payResponses,
});

const CertificateInput = z
  .object({
    passphrase: z
      .string()
      .max(128)
      .optional()
      .openapi({ description: "The .p12's passphrase; one is made when absent. An empty one makes a .p12 without a passphrase, as some PSPs hand out (Efí's SDK opens its .p12 with '')" }),
  })
  .openapi('IssueClientCertificate');

const certificateRoute = createRoute({
  method: 'post',
  path: '/accounts/{id}/client-certificates',
  operationId: 'issueClientCertificate',
  tags: ['Control API'],
  security: controlSecurity,
  summary: 'Issue a client certificate for the API Pix face under --https --mtls: PEM certificate and key signed by the local CA, for this account, and the same as a .p12 (PKCS#12) with its passphrase',
  request: { params: z.object({ id: pathParam('id', 'Account id') }), body: optionalJsonBody(CertificateInput, { passphrase: 'segredo-do-p12' }) },
  responses: {
    201: json(
      z
        .object({
          commonName: z.string().openapi({ description: 'The account id: /api-pix/v2 accepts the certificate with tokens of this account only' }),
          certificate: z.string().openapi({ description: 'PEM certificate (client authentication, 365 days)' }),
          key: z.string().openapi({ description: 'Its PEM private key (unencrypted; keep it in a file for curl --key)' }),
          ca: z.string().openapi({ description: 'PEM of the local CA that signed it (and the listener)' }),
          p12: z.string().openapi({ description: 'The certificate and its key as one PKCS#12 file (.p12 / .pfx), base64: decode it into a file for SDKs and key stores that take one (base64 -d > client.p12)' }),
          passphrase: z.string().openapi({ description: 'The passphrase of the .p12: the one sent, or one made for it' }),
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
    const passphrase = c.req.valid('json')?.passphrase ?? randomBytes(12).toString('base64url');
    // Loaded on first use: the certificate code (pkijs) is start-up time a sandbox without mTLS does not pay.
    const { issueClientCertificate, loadOrCreateCa, toPkcs12 } = await import('../tls');
    const ca = await loadOrCreateCa(deps.settings.home);
    const pair = await issueClientCertificate(ca, { commonName: id });
    const p12 = await toPkcs12(pair, passphrase, id);
    return c.json({ commonName: id, certificate: pair.cert, key: pair.key, ca: ca.cert, p12: p12.toString('base64'), passphrase }, 201);
  });
  /** Pays the cob through the same control action as POST /_sandbox/transactions/{id}/pay on its charge. */
  const pay = (txid: string, accountId: string | undefined, body: z.infer<typeof PayInput> | undefined) => {
    const { infoPagador, ...payer } = body ?? {};
    const { tx } = locateCob(deps, txid, accountId).record;
    // Before paying, so the webhook notice made by the payment carries it; a refused payment undoes it with the request.
    if (infoPagador !== undefined) tx.charge!.apiPix!.infoPagador = infoPagador;
    runAction(deps, tx.id, 'pay', payer);
    return transactionView(tx) as never;
  };
  app.openapi(route, (c) => c.json(pay(c.req.valid('param').txid, c.req.valid('query').account, c.req.valid('json')), 200));
  app.openapi(accountRoute, (c) => c.json(pay(c.req.valid('param').txid, c.req.valid('param').id, c.req.valid('json')), 200));
}
