// POST /_sandbox/charges/{id}/{pay|expire|disable} (sandbox.md 12): a payment link moved from a test. pay makes a
// completed payment of the core (the link's counters rise; a single-use link becomes paid) and answers the link with
// that payment's id; expire and disable end the link. Links are addressed by id alone, in any account.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { PAYMENT_METHODS } from '../domain/types';
import { controlConflict, controlErrors, controlSecurity, json, optionalJsonBody, pathParam } from '../wire/schemas';
import { PaymentLinkSchema } from '../wire/resources/payment-links';
import type { Router } from '../wire/env';
import { paymentLinkView } from '../wire/views';
import { disablePaymentLink, expirePaymentLink, locateLink, payPaymentLink } from '../services/payment-links';
import { extended } from '../lib/objects';
import { nowOf } from '../services/clocks';

const tags = ['Control API'];
const params = z.object({ id: pathParam('id', 'The payment link id') });

const PayLinkBody = z
  .object({
    paymentMethod: z.enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` }).optional().openapi({ description: "Default: the link's first method" }),
    payerName: z.string().min(1).max(255).optional(),
    payerDocument: z.string().min(11).max(14).optional().openapi({ description: 'Payer CPF or CNPJ, digits only' }),
  })
  .openapi('PayLinkAction');

const PaidLinkSchema = PaymentLinkSchema.extend({ paymentId: z.string().openapi({ description: 'The completed payment transaction this call made' }) }).openapi('PaidPaymentLink');

export function registerPaymentLinkControl(app: Router, deps: Deps) {
  const origin = (url: string) => new URL(url).origin;
  app.openapi(
    createRoute({
      method: 'post',
      path: '/charges/{id}/pay',
      operationId: 'payPaymentLink',
      tags,
      security: controlSecurity,
      summary: 'Pay a payment link once: a completed payment of its project (payment_completed), counters up; single-use links become paid',
      request: { params, body: optionalJsonBody(PayLinkBody, { paymentMethod: 'pix', payerName: 'Maria Silva' }) },
      responses: { 200: json(PaidLinkSchema, 'The link after the payment, with the payment id'), ...controlErrors, ...controlConflict('PAYMENT_LINK_NOT_PAYABLE: the link is paid, expired or disabled') },
    }),
    (c) => {
      const { account, link } = locateLink(deps, c.req.valid('param').id);
      const tx = payPaymentLink(deps, account, link.id, c.req.valid('json') ?? {});
      return c.json(extended(paymentLinkView(link, nowOf(deps, account), origin(c.req.url)), { paymentId: tx.id }), 200);
    },
  );
  for (const [action, verb, summary] of [
    ['expire', expirePaymentLink, 'Expire an active payment link now'],
    ['disable', disablePaymentLink, 'Disable an active payment link'],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/charges/{id}/${action}`,
        operationId: `${action}PaymentLink`,
        tags,
        security: controlSecurity,
        summary,
        request: { params },
        responses: { 200: json(PaymentLinkSchema, 'The link after the move'), ...controlErrors, ...controlConflict('INVALID_STATE_TRANSITION: the link is not active') },
      }),
      (c) => {
        const { account, link } = locateLink(deps, c.req.valid('param').id);
        return c.json(paymentLinkView(verb(deps, account, link.id), nowOf(deps, account), origin(c.req.url)), 200);
      },
    );
  }
}
