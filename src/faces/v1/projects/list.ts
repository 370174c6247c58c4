// GET /v1/projects (sandbox.md 12): the account's projects, the v2 list's order and pages; `search` over the name.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { listProjects } from '../../../services/projects';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { intQuery, json } from '../../../wire/schemas';
import { v1Errors, v1Headers, v1Security, v1Tags } from '../schemas';
import { projectV1View } from '../views';
import { ProjectV1Schema } from './post';
import { extended } from '../../../lib/objects';

const Query = z.object({
  page: intQuery('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: intQuery('limit', 1, 100, 20),
  sortBy: z.enum(['createdAt', 'updatedAt', 'name'], { error: "must be one of 'createdAt', 'updatedAt', 'name'" }).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc'], { error: "must be 'asc' or 'desc'" }).default('desc'),
  search: z.string().max(255, { error: 'must be at most 255 characters' }).optional().openapi({ param: { name: 'search', in: 'query' }, description: 'Part of the name, any case' }),
});

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/projects',
      operationId: 'listProjectsV1',
      tags: v1Tags,
      summary: 'List the account\'s projects, paginated and sorted',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['PROJECT:READ', 'PROJECT:WRITE'] })] as const,
      request: { headers: v1Headers, query: Query },
      responses: {
        200: json(z.object({ items: z.array(ProjectV1Schema), total: z.number().int(), page: z.number().int(), limit: z.number().int(), totalPages: z.number().int() }).openapi('ProjectListV1'), 'A page of projects'),
        ...v1Errors,
      },
    }),
    (c) => {
      const result = listProjects(c.get('caller'), c.req.valid('query'));
      return c.json(extended(result, { items: result.items.map(projectV1View) }), 200);
    },
  );
}
