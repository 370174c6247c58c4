// /_sandbox/transactions/{id}/<action> and /_sandbox/accounts/{id}/events.
// One path per action (pay, expire, ...), all served by the one handler below: generated clients get payTransaction,
// expireTransaction... each with its own body and answer, where a single {action} path would give one operation
// whose body and answer are the union of all eight.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Deps } from '../deps';
import { unknownAction } from './unknown-action';
import { toCents } from '../domain/money';
import { ACTION_NAMES, runAction, type ActionBody, type ActionName, type ActionResult } from '../services/actions';
import { controlConflict, controlErrors, controlSecurity, json, optionalJsonBody, pathParam } from '../wire/schemas';
import { balanceBlockControlView, eventView, refundResultView, transactionView, withdrawalView } from '../wire/views';
import type { Env, Router } from '../wire/env';
import { BalanceBlockControlSchema, EventListSchema, RefundTransactionSchema } from './answers';
import { listAccountEvents } from '../services/lists';
import { orderQuery, pageQuery } from './lists';
import { extended } from '../lib/objects';
import { TransactionSchema } from '../wire/resources/transactions';
import { WithdrawalSchema } from '../wire/resources/withdrawals';
import { DELIVERY_EVENT_KINDS } from '../domain/events';

const tags = ['Control API'];
const security = controlSecurity;

const ReasonBody = z.object({ reason: z.string().max(255).optional() }).openapi('ActionReason');

interface ActionDoc {
  summary: string;
  /** Default `${action}Transaction`; given where that name is the public API's (refund). */
  operationId?: string;
  body?: z.ZodObject;
  example?: Record<string, unknown>;
  result: z.ZodType;
}

/** What each action takes and answers (sandbox.md 4.3). A new action in ACTION_NAMES must say it here. */
const ACTIONS: Record<ActionName, ActionDoc> = {
  pay: {
    summary: 'Pay a pending charge: completed, e2eId, fee and split; sends payment_completed',
    body: z
      .object({
        payerName: z.string().min(1).max(255).optional(),
        payerDocument: z.string().min(11).max(14).optional().openapi({ description: 'Payer CPF or CNPJ, digits only' }),
      })
      .openapi('PayAction'),
    example: { payerName: 'Maria Silva', payerDocument: '12345678909' },
    result: TransactionSchema,
  },
  expire: { summary: 'Expire a pending charge: cancelled; sends payment_expired', result: TransactionSchema },
  fail: {
    summary: 'Fail a pending charge (no event), a pending refund (ERROR, credited back) or a pending or processing withdrawal (credited back; withdrawal_failed)',
    body: ReasonBody,
    example: { reason: 'Rejected by the recipient institution' },
    result: z.union([TransactionSchema, RefundTransactionSchema, WithdrawalSchema]),
  },
  cancel: { summary: 'Cancel a pending charge: cancelled, no event', result: TransactionSchema },
  process: { summary: 'Move a pending withdrawal to processing', result: WithdrawalSchema },
  complete: { summary: 'Complete a pending refund (refund_completed) or a pending or processing withdrawal (withdrawal_completed)', result: z.union([RefundTransactionSchema, WithdrawalSchema]) },
  reverse: { summary: 'Reverse a completed withdrawal: credited back; sends withdrawal_reversed', body: ReasonBody, example: { reason: 'Conta destino encerrada' }, result: WithdrawalSchema },
  refund: {
    operationId: 'refundPaymentAsMerchant',
    summary: "Refund a completed payment as its merchant would: the verb of POST /v2/transactions/{id}/refund (a pending refund; refund_completed follows)",
    body: ReasonBody,
    example: { reason: 'Customer asked for a refund' },
    result: RefundTransactionSchema,
  },
  block: {
    summary: 'Open a balance block on a completed payment: the amount moves to held; sends balance_block_created',
    body: z
      .object({
        amount: z
          .number()
          .positive()
          .refine((v) => toCents(v) !== null, { error: 'must have at most 2 decimal places' })
          .transform((v) => toCents(v)!)
          .optional()
          .openapi({ type: 'number', exclusiveMinimum: 0, description: 'BRL; default: the whole payment' }),
        blockType: z.enum(['med', 'judicial', 'administrative'], { error: "must be 'med', 'judicial' or 'administrative'" }).optional(),
        reason: z.string().max(255).optional(),
      })
      .openapi('BlockAction'),
    example: { amount: 10, blockType: 'med', reason: 'Fraud suspected by the payer institution' },
    result: BalanceBlockControlSchema,
  },
};

/** The answer of a control action: the resource after the move, shaped here (the verbs return records). */
function actionView(result: ActionResult) {
  switch (result.kind) {
    case 'charge':
      return transactionView(result.tx);
    case 'refund':
      // The transaction (2.5) with the refund result (2.6) beside it, so the PSP status shows.
      return extended(transactionView(result.tx), { refund: refundResultView(result.tx) });
    case 'withdrawal':
      return withdrawalView(result.tx);
    case 'block':
      return balanceBlockControlView(result.account, result.block);
  }
}

export function registerTransactionControl(app: Router, deps: Deps) {
  const act = (action: ActionName) => (c: Context<Env>) => {
    const valid = c.req.valid.bind(c.req) as unknown as (target: 'param' | 'json') => Record<string, unknown> | undefined;
    const { id } = valid('param') as { id: string };
    return c.json(actionView(runAction(deps, id, action, (valid('json') ?? {}) as ActionBody)) as Record<string, unknown>, 200);
  };
  for (const action of ACTION_NAMES) {
    const doc = ACTIONS[action];
    const route = createRoute({
      method: 'post',
      path: `/transactions/{id}/${action}`,
      operationId: doc.operationId ?? `${action}Transaction`,
      tags,
      security,
      summary: doc.summary,
      request: {
        params: z.object({ id: pathParam('id', 'A transaction or withdrawal id') }),
        ...(doc.body ? { body: optionalJsonBody(doc.body, doc.example) } : {}),
      },
      responses: { 200: json(doc.result, 'The resource after the move'), ...controlErrors, ...controlConflict('INVALID_STATE_TRANSITION: the action does not apply to this kind of transaction or its state') },
    });
    app.openapi(route, act(action) as never);
  }
  // Not in /openapi.json: an action that is none of the above is a 400 naming the ones there are, not a bare 404.
  app.post('/transactions/:id/*', unknownAction('/transactions/', ACTION_NAMES));

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/events',
      operationId: 'listEvents',
      tags,
      security,
      summary: 'Events of an account, oldest first unless order=newest (the exact envelope each delivery sends), a page at a time',
      request: {
        params: z.object({ id: pathParam('id', 'The account id') }),
        query: z.object({
          event: z.enum(DELIVERY_EVENT_KINDS, { error: `must be one of ${DELIVERY_EVENT_KINDS.join(', ')}` }).optional(),
          subAccount: z.string().optional().openapi({ description: 'Only events of this sub-account reference ("principal" for the main account)' }),
          ...pageQuery,
          ...orderQuery,
        }),
      },
      responses: { 200: json(EventListSchema, '{items, total, page, limit}'), ...controlErrors },
    }),
    (c) => {
      const { page, limit, order, ...filter } = c.req.valid('query');
      const list = listAccountEvents(deps, c.req.valid('param').id, filter, order, { page, limit });
      return c.json(extended(list, { items: list.items.map(eventView) }), 200);
    },
  );
}
