// GET /v1/account (sandbox.md 12): the v2 answer for the main account, and beside it the tenant's company (or null),
// where the 2.x Node SDK's AccountInfo has it.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { ACCOUNT_STATUSES } from '../../../domain/types';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json, uuid } from '../../../wire/schemas';
import { balanceView } from '../../../wire/views';
import { v1Errors, v1Headers, v1Security, v1Tags } from '../schemas';
import { BalanceSchema, CompanySchema } from '../../../wire/resources/accounts';

const AccountV1Schema = z
  .object({
    account: z.object({ id: uuid(), status: z.enum(ACCOUNT_STATUSES) }),
    company: CompanySchema.nullable().openapi({ description: 'The tenant\'s company (POST /_sandbox/accounts company), else null' }),
    balance: BalanceSchema,
  })
  .openapi('AccountV1');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/account',
      operationId: 'getAccountV1',
      tags: v1Tags,
      summary: 'The account and the balance of its main wallet',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['ACCOUNT:READ'] })] as const,
      request: { headers: v1Headers },
      responses: { 200: json(AccountV1Schema, 'Account and balance'), ...v1Errors },
    }),
    (c) => {
      const { account, wallet } = c.get('caller');
      return c.json({ account: { id: account.id, status: account.status }, company: account.company ?? null, balance: balanceView(wallet) }, 200);
    },
  );
}
