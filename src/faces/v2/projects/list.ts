import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { listProjects } from '../../../services/projects';
import { guard } from '../guard';
import { intQuery, json, subAccountHeader, v2Errors } from '../../../wire/schemas';
import { projectView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { ProjectSchema } from '../../../wire/resources/projects';
import { extended } from '../../../lib/objects';

const Query = z.object({
  page: intQuery('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: intQuery('limit', 1, 100, 20),
  sortBy: z.enum(['createdAt', 'updatedAt', 'name'], { error: "must be one of 'createdAt', 'updatedAt', 'name'" }).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc'], { error: "must be 'asc' or 'desc'" }).default('desc'),
});

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/projects',
      operationId: 'listProjects',
      tags: ['v2 API'],
      summary: 'List projects, paginated and sorted',
      middleware: [guard(deps, { permissions: ['PROJECT:READ', 'PROJECT:WRITE'] })] as const,
      request: { headers: subAccountHeader, query: Query },
      responses: {
        200: json(
          z.object({ items: z.array(ProjectSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int(), totalPages: z.number().int() }).openapi('ProjectList'),
          'A page of projects',
        ),
        ...v2Errors,
      },
    }),
    (c) => {
      const result = listProjects(c.get('caller'), c.req.valid('query'));
      return c.json(extended(result, { items: result.items.map(projectView) }), 200);
    },
  );
}
