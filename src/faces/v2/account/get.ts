import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { guard } from '../guard';
import { dateTime, json, subAccountHeader, uuid, v2Errors } from '../../../wire/schemas';
import { balanceView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { ACCOUNT_STATUSES } from '../../../domain/types';

const Money = z
  .object({ amount: z.number().int().openapi({ description: 'cents', example: 100000 }), amountFormatted: z.number().openapi({ description: 'BRL', example: 1000 }) })
  .openapi('Money');

export const BalanceSchema = z
  .object({
    available: Money,
    promotional: Money,
    held: Money.openapi({ description: 'Blocked by balance blocks' }),
    total: Money.openapi({ description: 'available + promotional + held' }),
    currency: z.literal('BRL'),
    updatedAt: dateTime(),
  })
  .openapi('Balance');

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
