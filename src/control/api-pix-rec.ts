// The payer's side of Pix Automático, played through the control API (sandbox.md 15): answer a recurrence's
// confirmation request (accept or reject), cancel an approved recurrence from the payer's bank, and make a recurring
// charge's scheduled debit fail (no funds). Thin routes over the verbs the face and the magic debtors use.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { answerRecFromQr, answerSolicRec, cancelRecByPayer, locateRec, locateSolicRec, recQrJourney } from '../services/recs';
import { runAction } from '../services/actions';
import { failCobRDebit, locateCobR } from '../services/cobrs';
import { cobrStatusView, recStatusView } from '../webhooks/api-pix-rec';
import { controlConflict, controlErrors, controlSecurity, json, optionalJsonBody, pathParam } from '../wire/schemas';
import type { Router } from '../wire/env';
import { textCents } from '../domain/api-pix';

const History = z.array(z.object({ status: z.string(), data: z.string() }));
const RecState = z.object({ idRec: z.string(), status: z.string(), atualizacao: History }).passthrough().openapi('ApiPixRecState');
const SolicRecState = z.object({ idSolicRec: z.string(), status: z.string(), atualizacao: History, rec: RecState }).openapi('ApiPixSolicRecState');
const CobRState = z.object({ idRec: z.string(), txid: z.string(), status: z.string(), atualizacao: History }).passthrough().openapi('ApiPixCobRState');

const AcceptAnswer = z
  .object({
    valorMaximoPagador: z
      .string()
      .regex(/^\d{1,10}\.\d{2}$/, { error: 'must be an amount like 80.00' })
      .optional()
      .openapi({
        description:
          "The payer's maximum for each debit of a variable-value recurrence (the sandbox's name; BACEN's API Pix has no field for it): not below its valorMinimoRecebedor, refused beside a fixed valorRec. A cobr above it fails its debit with AM02.",
      }),
  })
  .openapi('ApiPixSolicRecAccept');

const answerRoute = (answer: 'accept' | 'reject') =>
  createRoute({
    method: 'post',
    path: `/api-pix/solicrec/{id}/${answer}`,
    operationId: answer === 'accept' ? 'acceptApiPixSolicRec' : 'rejectApiPixSolicRec',
    tags: ['Control API'],
    security: controlSecurity,
    summary:
      answer === 'accept'
        ? "The payer accepts a recurrence's confirmation request: ACEITA, and the recurrence APROVADA (webhookrec hears of it)"
        : "The payer rejects a recurrence's confirmation request: REJEITADA, and the recurrence REJEITADA",
    request: {
      params: z.object({ id: pathParam('id', 'The idSolicRec', 'SC12345678202603101a2b3c4d5e6') }),
      ...(answer === 'accept' ? { body: optionalJsonBody(AcceptAnswer, { valorMaximoPagador: '80.00' }) } : {}),
    },
    responses: { 200: json(SolicRecState, 'The request and its recurrence, answered'), ...controlErrors, ...controlConflict('The request was already answered, cancelled or expired') },
  });

const cancelRoute = createRoute({
  method: 'post',
  path: '/api-pix/rec/{idRec}/cancel',
  operationId: 'cancelApiPixRecByPayer',
  tags: ['Control API'],
  security: controlSecurity,
  summary: "The payer cancels a recurrence from their bank: CANCELADA (solicitante USUARIO_PAGADOR), with its charges not yet paid",
  request: { params: z.object({ idRec: pathParam('idRec', 'The idRec', 'RR12345678202603101a2b3c4d5e6') }) },
  responses: { 200: json(RecState, 'The recurrence, cancelled'), ...controlErrors, ...controlConflict('The recurrence already ended (rejected, expired or cancelled)') },
});

const failRoute = createRoute({
  method: 'post',
  path: '/api-pix/cobr/{txid}/fail',
  operationId: 'failApiPixCobR',
  tags: ['Control API'],
  security: controlSecurity,
  summary: "A recurring charge's scheduled debit fails now (no funds): its attempt REJEITADA, then the recurrence's retry policy applies",
  request: { params: z.object({ txid: pathParam('txid', 'The txid of a cobr', 'assinatura202603abcdefghij01') }) },
  responses: { 200: json(CobRState, 'The cobr after the failed debit'), ...controlErrors, ...controlConflict('The cobr has no debit scheduled') },
});

const QrAnswer = z
  .object({
    txid: z.string().min(1).max(35).optional().openapi({ description: "The cob (Jornada 3) or cobv (Jornada 4) of the QR Composto, paid together when authorising; absent for a recurrence's own code (Jornada 2)" }),
  })
  .openapi('ApiPixRecQrAnswer');
const qrRoute = (answer: 'authorise' | 'decline') =>
  createRoute({
    method: 'post',
    path: `/api-pix/rec/{idRec}/${answer}`,
    operationId: answer === 'authorise' ? 'authoriseApiPixRecFromQr' : 'declineApiPixRecFromQr',
    tags: ['Control API'],
    security: controlSecurity,
    summary:
      answer === 'authorise'
        ? "The payer authorises a recurrence read from its QR (as /pay does): its charge paid first when a txid is given, then the recurrence APROVADA (a waiting confirmation request ACEITA, as .../solicrec/{id}/accept)"
        : 'The payer declines a recurrence read from its QR: REJEITADA (a waiting confirmation request REJEITADA)',
    request: { params: z.object({ idRec: pathParam('idRec', 'The idRec', 'RR12345678202603101a2b3c4d5e6') }), body: optionalJsonBody(QrAnswer, { txid: 'jornada3cob0000000000000000001' }) },
    responses: { 200: json(RecState, 'The recurrence, answered'), ...controlErrors, ...controlConflict('The recurrence is not CRIADA, or the charge is not pending') },
  });

export function registerApiPixRecControl(app: Router, deps: Deps) {
  for (const answer of ['authorise', 'decline'] as const) {
    app.openapi(qrRoute(answer), (c) => {
      const { account, rec } = locateRec(deps, c.req.valid('param').idRec);
      // The charge of a QR Composto, checked as GET /rec/{idRec}?txid checks it (its kind, the recurrence's own cob).
      const journey = recQrJourney(account, rec, answer === 'authorise' ? c.req.valid('json')?.txid : undefined);
      const charge = 'charge' in journey ? journey.charge : undefined;
      // One step: a refused authorisation undoes the payment with the request.
      if (charge && rec.status === 'CRIADA') runAction(deps, charge.tx.id, 'pay', { payerName: rec.vinculo.devedor.nome });
      return c.json(recStatusView(answerRecFromQr(deps, account, rec, answer === 'authorise', journey.jornada)), 200);
    });
  }
  for (const answer of ['accept', 'reject'] as const) {
    app.openapi(answerRoute(answer), (c) => {
      const { account, solic } = locateSolicRec(deps, c.req.valid('param').id);
      const max = answer === 'accept' ? (c.req.valid('json' as never) as z.infer<typeof AcceptAnswer> | undefined)?.valorMaximoPagador : undefined;
      answerSolicRec(deps, account, solic, answer === 'accept', max === undefined ? undefined : textCents(max));
      const rec = account.recs[solic.idRec]!;
      return c.json({ idSolicRec: solic.id, status: solic.status, atualizacao: solic.atualizacao.map((m) => ({ status: m.status, data: new Date(m.data).toISOString() })), rec: recStatusView(rec) }, 200);
    });
  }
  app.openapi(cancelRoute, (c) => {
    const { account, rec } = locateRec(deps, c.req.valid('param').idRec);
    return c.json(recStatusView(cancelRecByPayer(deps, account, rec)), 200);
  });
  app.openapi(failRoute, (c) => {
    const { account, cobr } = locateCobR(deps, c.req.valid('param').txid);
    return c.json(cobrStatusView(account, failCobRDebit(deps, account, cobr)), 200);
  });
}
