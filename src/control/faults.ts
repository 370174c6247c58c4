// /_sandbox/faults: inject latency or errors on matching v1/v2 routes.
import { createRoute, z } from '@hono/zod-openapi';
import { controlErrors, controlSecurity, json, jsonBody } from '../wire/schemas';
import type { Router } from '../wire/env';
import type { Faults } from '../wire/middleware/faults';

const Rule = z.object({
  // Spelled out case by case, not with the i flag: the pattern is also /openapi.json's, where a flag cannot go.
  method: z
    .string()
    .regex(/^(\*|[Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|[Pp][Uu][Tt]|[Pp][Aa][Tt][Cc][Hh]|[Dd][Ee][Ll][Ee][Tt][Ee])$/, { error: "must be '*' or an HTTP method like POST" })
    .default('*')
    .openapi({ description: "'*' (the default) or GET, POST, PUT, PATCH, DELETE (any letter case)", example: 'POST' }),
  path: z
    .string()
    .regex(/^\/v[12]\//, { error: 'must start with /v1/ or /v2/ (use * as a wildcard, e.g. /v2/transactions/*)' })
    .openapi({ description: 'Exact, or with * for any run of characters', example: '/v2/pix' }),
  status: z.number().int().min(400, { error: 'must be an HTTP error status from 400 to 599' }).max(599, { error: 'must be an HTTP error status from 400 to 599' }).optional(),
  latencyMs: z.number().int().min(0).max(60_000, { error: 'must be at most 60000' }).optional(),
  rate: z.number().min(0).max(1, { error: 'must be a probability from 0 to 1' }).default(1).openapi({ description: 'Probability that a matching request is hit; default 1' }),
  times: z.number().int().min(1).optional().openapi({ description: 'Apply to this many matching requests, then stop' }),
});
const Rules = z.object({ rules: z.array(Rule.openapi('FaultRule')).max(50) }).openapi('FaultRules');

export function registerFaults(app: Router, faults: Faults) {
  const tags = ['Control API'];
  const security = controlSecurity;
  app.openapi(
    createRoute({ method: 'get', path: '/faults', operationId: 'getFaults', tags, security, summary: 'The fault rules in force', responses: { 200: json(Rules, 'Rules') } }),
    (c) => c.json({ rules: faults.rules }, 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/faults',
      operationId: 'setFaults',
      tags,
      security,
      summary: 'Replace the fault rules: latency and/or an error status on matching v1/v2 requests (first matching rule wins)',
      request: { body: jsonBody(Rules, { rules: [{ method: 'POST', path: '/v2/pix', status: 503, rate: 1, times: 1 }] }) },
      responses: { 200: json(Rules, 'Rules in force'), 400: controlErrors[400] },
    }),
    (c) => {
      faults.rules = c.req.valid('json').rules;
      return c.json({ rules: faults.rules }, 200);
    },
  );
  app.openapi(
    createRoute({ method: 'delete', path: '/faults', operationId: 'clearFaults', tags, security, summary: 'Clear every fault rule', responses: { 200: json(Rules, 'No rules') } }),
    (c) => {
      faults.rules = [];
      return c.json({ rules: [] }, 200);
    },
  );
}
