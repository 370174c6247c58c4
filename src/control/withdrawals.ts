// POST /_sandbox/accounts/{id}/withdrawals: a withdrawal from any wallet of the account without a token (the
// console's New withdrawal form, a story): the body and the verb of POST /v2/withdrawals, the wallet in the query
// (the v2 body is a checked union that cannot take one more field).
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { PRINCIPAL, walletToActOn } from '../domain/subaccounts';
import { createWithdrawal } from '../services/withdrawals';
import { controlErrors, controlSecurity, errorResponse, json, jsonBody, pathParam } from '../wire/schemas';
import { withdrawalView } from '../wire/views';
import type { Caller, Router } from '../wire/env';
import { extended } from '../lib/objects';
import { WithdrawalInputSchema, WithdrawalSchema } from '../wire/resources/withdrawals';

export function registerWithdrawalControl(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/withdrawals',
      tags: ['Control API'],
      operationId: 'createAccountWithdrawal',
      security: controlSecurity,
      summary: 'Create a PIX withdrawal from any wallet of the account (what POST /v2/withdrawals does, without a token); magic PIX keys apply',
      request: {
        params: z.object({ id: pathParam('id', 'The account id') }),
        query: z.object({ subAccount: z.string().optional().openapi({ description: `The wallet: a sub-account reference; absent or "${PRINCIPAL}" for the main account` }) }),
        body: jsonBody(WithdrawalInputSchema, { pixKey: 'falha@pix-sandbox.test', pixKeyType: 'email', holderName: 'Fulano de Tal', holderDocument: '12345678909', holderDocumentType: 'cpf', amount: 50 }),
      },
      responses: {
        201: json(WithdrawalSchema.extend({ subAccount: z.string().nullable() }).openapi('ControlWithdrawal'), 'The withdrawal of POST /v2/withdrawals plus its wallet'),
        ...controlErrors,
        400: errorResponse('Validation failure, INSUFFICIENT_BALANCE or WITHDRAWAL_LIMIT_EXCEEDED'),
        403: errorResponse('SUB_ACCOUNT_SUSPENDED: the wallet cannot move money'),
      },
    }),
    (c) => {
      const account = deps.store.account(c.req.valid('param').id);
      const caller: Caller = { account, ...walletToActOn(account, c.req.valid('query').subAccount, `GET /_sandbox/accounts/${account.id}`) };
      const tx = createWithdrawal(deps, caller, c.req.valid('json'));
      return c.json(extended(withdrawalView(tx), { subAccount: caller.subAccount?.reference ?? null }), 201);
    },
  );
}
