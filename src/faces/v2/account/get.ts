import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { guard } from '../guard';
import { json, subAccountHeader, uuid, v2Errors } from '../../../wire/schemas';
import { balanceView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { ACCOUNT_STATUSES } from '../../../domain/types';
import { BalanceSchema } from '../../../wire/resources/accounts';

export const AccountSchema = z
  .object({
    account: z.object({ id: uuid(), status: z.enum(ACCOUNT_STATUSES).openapi({ example: 'approved' }) }),
    balance: BalanceSchema,
  })
  .openapi('Account');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/account',
      operationId: 'getAccount',
      tags: ['v2 API'],
      summary: 'The account (or the sub-account named by X-Sub-Account) and its balance',
      middleware: [guard(deps, { permissions: ['ACCOUNT:READ'] })] as const,
      request: { headers: subAccountHeader },
      responses: { 200: json(AccountSchema, 'Account and balance'), ...v2Errors },
    }),
    (c) => {
      const { account, subAccount, wallet } = c.get('caller');
      return c.json({ account: { id: wallet.id, status: subAccount?.status ?? account.status }, balance: balanceView(wallet) }, 200);
    },
  );
}
