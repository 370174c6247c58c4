// The request log (sandbox.md 14): an account's requests, the sandbox-wide ring (control API requests, and requests
// no account could be named for) and one entry by id. Newest first, cursor paging.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import type { RequestFilter } from '../services/request-log';
import { controlErrors, controlSecurity, json, pathParam } from '../wire/schemas';
import type { Router } from '../wire/env';
import { requestView } from '../wire/request-view';
import { RequestEntrySchema, RequestPageSchema, RequestQuerySchema } from './schemas';

const tags = ['Control API'];
const security = controlSecurity;

type Query = z.output<typeof RequestQuerySchema>;
function page(deps: Deps, accountId: string | null, q: Query) {
  const { limit, cursor, since, ...rest } = q;
  const filter: RequestFilter = { ...rest, ...(since === undefined ? {} : { sinceMs: since }) };
  const { items, nextCursor } = deps.requestLog.list(accountId, filter, { limit, ...(cursor === undefined ? {} : { cursor }) });
  return { items: items.map(requestView), nextCursor, limit };
}

const FILTERS =
  "Filters: `status` (201, 4xx or failed), `method`, `path` (a prefix), `face` (v2, v1, api-pix, control), `since` (an instant of the account's clock); `limit` (1 to 1000, default 50) and `cursor` (the previous page's nextCursor). The log is in memory: reset clears it, --request-log N sets its size per account (0: off).";

export function registerRequestLog(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/requests',
      tags,
      operationId: 'listAccountRequests',
      security,
      summary: "An account's request log, newest first: each request to the v2, v1 and API Pix faces made with its credentials, and the control API requests that named it",
      description: FILTERS,
      request: { params: z.object({ id: pathParam('id', 'The account id', '11111111-1111-4111-8111-111111111111') }), query: RequestQuerySchema },
      responses: { 200: json(RequestPageSchema, '{items, nextCursor, limit}'), ...controlErrors },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      deps.store.account(id); // an unknown account is a 404
      return c.json(page(deps, id, c.req.valid('query')), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/requests',
      tags,
      operationId: 'listSandboxRequests',
      security,
      summary: 'The sandbox-wide request log, newest first: every control API request, and requests to the faces no account could be named for (no or an unknown credential)',
      description: FILTERS,
      request: { query: RequestQuerySchema },
      responses: { 200: json(RequestPageSchema, '{items, nextCursor, limit}'), ...controlErrors },
    }),
    (c) => c.json(page(deps, null, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/requests/{id}',
      tags,
      operationId: 'getRequest',
      security,
      summary: 'One entry of the request log: the request and its answer (bodies capped, secrets masked), the ids it made, its warnings',
      request: { params: z.object({ id: pathParam('id', "The entry id, or its answer's trace id (X-Trace-Id, an error's traceId)", 'req_42') }) },
      responses: { 200: json(RequestEntrySchema, 'The entry'), ...controlErrors },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      const entry = deps.requestLog.get(id);
      if (!entry) throw new SandboxError('NOT_FOUND', `No request '${id}' in the request log: it holds the last ${deps.requestLog.capacity} requests per account, in memory (a reset clears it). List them with GET /_sandbox/accounts/{id}/requests.`, { resource: 'request', id });
      return c.json(requestView(entry), 200);
    },
  );
}
