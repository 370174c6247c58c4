// The lists of sandbox.md 4.8 (an account's transactions of every wallet; events and deliveries take the same
// page/limit) and a charge made from the console: POST /_sandbox/accounts/{id}/charges, the verb POST /v2/pix calls.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { PRINCIPAL, walletToActOn } from '../domain/subaccounts';
import { createCharge, locationPath } from '../services/charges';
import { listAccountTransactions, referenceOf } from '../services/lists';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../domain/types';
import { qrPngDataUrl } from '../pix';
import { controlErrors, controlSecurity, errorResponse, intQuery, json, jsonBody, pathParam } from '../wire/schemas';
import { chargeView, transactionView } from '../wire/views';
import type { Caller, Router } from '../wire/env';
import { extended } from '../lib/objects';
import { ChargeInputSchema, ChargeSchema } from '../wire/resources/charges';
import { TransactionSchema } from '../wire/resources/transactions';

const tags = ['Control API'];
const security = controlSecurity;
const accountId = z.object({ id: pathParam('id', 'The account id') });
const TYPES = TRANSACTION_TYPES;
const STATUSES = TRANSACTION_STATUSES;

/** page (from 1) and limit (1 to 100, default 20): the paging every console list takes. */
export const pageQuery = {
  page: intQuery('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: intQuery('limit', 1, 100, 20),
};
/** Events and deliveries are listed in the order they happened unless `order=newest`. */
export const orderQuery = { order: z.enum(['oldest', 'newest'], { error: "must be 'oldest' (default) or 'newest'" }).default('oldest') };
export const pageSchema = (item: z.ZodType, name: string) => z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() }).openapi(name);

export function registerLists(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/transactions',
      tags,
      operationId: 'listAccountTransactions',
      security,
      summary: "An account's transactions of every wallet and type (pending charges included), newest created first",
      request: {
        params: accountId,
        query: z.object({
          type: z.enum(TYPES, { error: `must be one of ${TYPES.join(', ')}` }).optional(),
          status: z.enum(STATUSES, { error: `must be one of ${STATUSES.join(', ')}` }).optional(),
          subAccount: z.string().optional().openapi({ description: `A sub-account reference, or "${PRINCIPAL}" for the main account; an internal_transfer is listed for both of its wallets` }),
          ...pageQuery,
        }),
      },
      responses: { 200: json(pageSchema(TransactionSchema.extend({ subAccount: z.string().nullable().openapi({ description: 'The wallet: a sub-account reference, null for the main account' }) }).openapi('AccountTransaction'), 'SandboxTransactionPage'), '{items, total, page, limit}: each item the transaction of GET /v2/transactions/{id} plus subAccount'), ...controlErrors },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      const { page, limit, ...filter } = c.req.valid('query');
      const account = deps.store.account(id);
      const list = listAccountTransactions(deps, id, filter, { page, limit });
      return c.json(extended(list, { items: list.items.map((tx) => extended(transactionView(tx), { subAccount: referenceOf(account, tx.walletId) })) }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/charges',
      tags,
      operationId: 'createAccountCharge',
      security,
      summary: 'Create a PIX charge for any wallet of the account (what POST /v2/pix does, without a token); answers the charge and its checkout page',
      request: {
        params: accountId,
        body: jsonBody(
          ChargeInputSchema.extend({
            subAccount: z.string().optional().openapi({ description: `The wallet: a sub-account reference; absent or "${PRINCIPAL}" for the main account` }),
          }).openapi('ControlChargeInput'),
          { amount: 25.9, description: 'Pedido 1234', subAccount: 'loja-centro', expiresIn: 3600 },
        ),
      },
      responses: { 201: json(ChargeSchema.extend({ subAccount: z.string().nullable(), checkoutUrl: z.string().openapi({ description: 'The checkout page of the charge (a path on this sandbox)' }) }).openapi('ControlCharge'), 'The charge of POST /v2/pix plus checkoutUrl'), ...controlErrors, 403: errorResponse('SUB_ACCOUNT_SUSPENDED: the wallet cannot take charges') },
    }),
    (c) => {
      const account = deps.store.account(c.req.valid('param').id);
      const { subAccount: reference, ...input } = c.req.valid('json');
      const caller: Caller = { account, ...walletToActOn(account, reference, `GET /_sandbox/accounts/${account.id}`) };
      const { tx } = createCharge(deps, caller, input);
      return c.json(extended(chargeView(tx, qrPngDataUrl(tx.charge!.pixCopyPaste)), { subAccount: caller.subAccount?.reference ?? null, checkoutUrl: locationPath(tx.id) }), 201);
    },
  );
}
