// POST /v1/customers (sandbox.md 12): a customer record of 2.12, the same records charges name; a known document is 409.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { createCustomer } from '../../../services/customers';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { errorResponse, json, jsonBody } from '../../../wire/schemas';
import { documentSchema, text, v1Errors, v1Headers, v1Security, v1Tags } from '../schemas';
import { customerView } from '../views';
import { CustomerRecordSchema } from './list';

export const CustomerInputSchema = z
  .object({
    name: text(255).trim().min(1, { error: 'must not be empty' }),
    document: documentSchema,
    email: z.email({ error: 'must be an email address, like ana@example.com' }).max(255, { error: 'must be at most 255 characters' }).optional(),
    phone: text(20).optional(),
  })
  .openapi('CustomerInput');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/customers',
      operationId: 'createCustomer',
      tags: v1Tags,
      summary: 'Create a customer record (409 when the document is known)',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['CUSTOMER:WRITE'] })] as const,
      request: { headers: v1Headers, body: jsonBody(CustomerInputSchema, { name: 'João da Silva', document: '12345678909', email: 'joao@example.com', phone: '+5511999998888' }) },
      responses: { 201: json(CustomerRecordSchema, 'The customer, document masked'), ...v1Errors, 409: errorResponse('CUSTOMER_DOCUMENT_TAKEN: details hold resource, field and the masked value') },
    }),
    (c) => c.json(customerView(createCustomer(deps, c.get('caller').account, c.req.valid('json'))), 201),
  );
}
