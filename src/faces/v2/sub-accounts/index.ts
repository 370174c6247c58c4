// GET and POST /v2/sub-accounts: always the main account; X-Sub-Account is refused here.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { addSubAccount } from '../../../services/accounts';
import { guard } from '../guard';
import { errorResponse, json, jsonBody, v2Errors } from '../../../wire/schemas';
import { subAccountView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { SubAccountSchema } from '../../../wire/resources/accounts';

// The main account only: X-Sub-Account is refused (400), so no SUB_ACCOUNT_NOT_FOUND and nothing else to find.
const { 404: _notFound, ...mainAccountErrors } = v2Errors;

export function registerSubAccounts(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/sub-accounts',
      operationId: 'listSubAccounts',
      tags: ['v2 API'],
      summary: 'List the sub-accounts of the main account',
      middleware: [guard(deps, { permissions: ['SUBACCOUNT:READ'], subAccountHeader: 'refused' })] as const,
      responses: { 200: json(z.object({ data: z.array(SubAccountSchema) }).openapi('SubAccountList'), 'Sub-accounts'), ...mainAccountErrors },
    }),
    (c) => c.json({ data: c.get('caller').account.subAccounts.map(subAccountView) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/sub-accounts',
      operationId: 'createSubAccount',
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
          { reference: 'loja-sul', name: 'Loja Sul' },
        ),
      },
      responses: {
        201: json(SubAccountSchema, 'Sub-account created'),
        ...mainAccountErrors,
        409: errorResponse('SUB_ACCOUNT_REFERENCE_TAKEN: details hold resource, field and value'),
      },
    }),
    (c) => c.json(subAccountView(addSubAccount(deps, c.get('caller').account.id, c.req.valid('json'))), 201),
  );
}
