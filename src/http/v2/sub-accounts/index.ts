// GET and POST /v2/sub-accounts: always the main account; X-Sub-Account is refused here.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { addSubAccount } from '../../../services/accounts';
import { guard } from '../../middleware/guard';
import { json, jsonBody, v2Errors, controlErrors } from '../../schemas';
import { subAccountView } from '../../views';
import type { Router } from '../../env';

const SubAccountSchema = z
  .object({ id: z.string(), reference: z.string(), name: z.string(), status: z.string().openapi({ example: 'approved' }), createdAt: z.string() })
  .openapi('SubAccount');

export function registerSubAccounts(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/sub-accounts',
      tags: ['v2 API'],
      summary: 'List the sub-accounts of the main account',
      middleware: [guard(deps, { permissions: ['SUBACCOUNT:READ'], subAccountHeader: 'refused' })] as const,
      responses: { 200: json(z.object({ data: z.array(SubAccountSchema) }).openapi('SubAccountList'), 'Sub-accounts'), ...v2Errors },
    }),
    (c) => c.json({ data: c.get('caller').account.subAccounts.map(subAccountView) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/sub-accounts',
      tags: ['v2 API'],
      summary: 'Create a sub-account (reference and name)',
      middleware: [guard(deps, { permissions: ['SUBACCOUNT:WRITE'], subAccountHeader: 'refused' })] as const,
      request: {
        body: jsonBody(
          z
            .object({
              reference: z.string({ error: 'must be a string like loja-sul' }).openapi({ example: 'loja-sul', pattern: '^[a-z0-9][a-z0-9_-]{1,31}$' }),
              name: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(255, { error: 'must be at most 255 characters' }),
            })
            .openapi('SubAccountInput'),
        ),
      },
      responses: { 201: json(SubAccountSchema, 'Sub-account created'), ...v2Errors, 409: controlErrors[409] },
    }),
    (c) => c.json(subAccountView(addSubAccount(deps, c.get('caller').account.id, c.req.valid('json'))), 201),
  );
}
