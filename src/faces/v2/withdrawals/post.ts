// POST /v2/withdrawals: create a PIX withdrawal (service document 4.5, sandbox.md 2.1). 201 with the withdrawal of
// 2.7, status pending; the outcome follows as withdrawal_completed / withdrawal_failed. Idempotency-Key replays.
import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { idempotent } from '../../../services/idempotency';
import { createWithdrawal } from '../../../services/withdrawals';
import { guard } from '../guard';
import { createdHeaders, idempotencyErrors, idempotentHeaders, json, jsonBody, sendIdempotent, v2Errors } from '../../../wire/schemas';
import { withdrawalView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { inRequestUnit } from '../../../wire/request-unit';
import { WithdrawalInputSchema, WithdrawalSchema } from '../../../wire/resources/withdrawals';

export const route = createRoute({
  method: 'post',
  path: '/withdrawals',
  operationId: 'createWithdrawal',
  tags: ['v2 API'],
  summary: 'Create a PIX withdrawal (asynchronous: withdrawal_completed or withdrawal_failed follows)',
  request: {
    headers: idempotentHeaders,
    body: jsonBody(WithdrawalInputSchema, {
      pixKey: 'fulano@example.com',
      pixKeyType: 'email',
      holderName: 'Fulano de Tal',
      holderDocument: '12345678909',
      holderDocumentType: 'cpf',
      amount: 100,
      externalReference: 'saque-0001',
    }),
  },
  responses: {
    201: {
      ...json(WithdrawalSchema, 'Withdrawal created, pending (a replay of an Idempotency-Key carries header Idempotent-Replayed: true)'),
      headers: createdHeaders({ idempotent: true, location: 'The withdrawal as a transaction: /v2/transactions/{id}' }),
    },
    ...v2Errors,
    ...idempotencyErrors,
  },
});

export function register(app: Router, deps: Deps) {
  app.openapi({ ...route, middleware: [guard(deps, { permissions: ['WITHDRAWAL:WRITE'] })] as const }, async (c) => {
    const caller = c.get('caller');
    const key = c.req.valid('header')['Idempotency-Key'];
    const body = await c.req.json();
    let id: string | undefined;
    const result = inRequestUnit(c, () =>
      idempotent(deps, caller, 'POST /v2/withdrawals', key, body, () => {
        const tx = createWithdrawal(deps, caller, c.req.valid('json'), key);
        id = tx.id;
        return { status: 201, body: withdrawalView(tx) };
      }),
    );
    return sendIdempotent(c, result, { id, location: (txId) => `/v2/transactions/${txId}` });
  });
}
