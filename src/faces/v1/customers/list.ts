// GET /v1/customers (service document 4.11): the payers the account's charges named, documents masked, newest first.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { listCustomers } from '../../../services/customers';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { dateTime, intQuery, json, uuid } from '../../../wire/schemas';
import { iso } from '../../../wire/views';
import { v1Errors, v1Headers, v1Security } from '../schemas';
import { customerView } from '../views';
import { extended } from '../../../lib/objects';

const Query = z.object({
  page: intQuery('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: intQuery('limit', 1, 100, 20),
  search: z
    .string()
    .max(255, { error: 'must be at most 255 characters' })
    .optional()
    .openapi({ param: { name: 'search', in: 'query' }, description: 'Free text over name, email and document digits; case- and accent-insensitive' }),
});

export const CustomerRecordSchema = z
  .object({
    id: uuid(),
    name: z.string().optional(),
    email: z.string().optional(),
    documentType: z.enum(['cpf', 'cnpj']).optional().openapi({ description: 'By the document\'s length (11 CPF, 14 CNPJ); present with document' }),
    document: z.string().optional().openapi({ description: 'First 3 and last 2 characters kept, an asterisk for each one between', example: '529******25' }),
    createdAt: dateTime(),
    phone: z.string().optional(),
  })
  .openapi('CustomerRecord');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/customers',
      operationId: 'listCustomers',
      tags: ['v1 API'],
      summary: 'List the customers (payers named by charges) of the whole account, newest first',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['CUSTOMER:READ'] })] as const,
      request: { headers: v1Headers, query: Query },
      responses: {
        200: json(
          z.object({ items: z.array(CustomerRecordSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int(), totalPages: z.number().int() }).openapi('CustomerList'),
          'A page of customers',
        ),
        ...v1Errors,
      },
    }),
    (c) => {
      const result = listCustomers(c.get('caller').account, c.req.valid('query'));
      return c.json(extended(result, { items: result.items.map(customerView) }), 200);
    },
  );
}
