import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { guard } from '../../middleware/guard';
import { json, subAccountHeader, v2Errors } from '../../schemas';
import { balanceView } from '../../views';
import type { Router } from '../../env';

const Money = z.object({ amount: z.number().int().openapi({ description: 'cents' }), amountFormatted: z.number().openapi({ description: 'BRL' }) });

export const AccountSchema = z
  .object({
    account: z.object({ id: z.string().uuid(), status: z.string().openapi({ example: 'approved' }) }),
    balance: z.object({
      available: Money,
      promotional: Money,
      held: Money,
      total: Money,
      currency: z.literal('BRL'),
      updatedAt: z.string(),
    }),
  })
  .openapi('Account');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/account',
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
