import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { getProject } from '../../../services/projects';
import { guard } from '../guard';
import { json, pathParam, subAccountHeader, v2Errors } from '../../../wire/schemas';
import { projectView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { ProjectSchema } from '../../../wire/resources/projects';

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/projects/{id}',
      operationId: 'getProject',
      tags: ['v2 API'],
      summary: 'Read one project',
      middleware: [guard(deps, { permissions: ['PROJECT:READ', 'PROJECT:WRITE'] })] as const,
      request: { headers: subAccountHeader, params: z.object({ id: pathParam('id', 'The project id') }) },
      responses: { 200: json(ProjectSchema, 'The project'), ...v2Errors },
    }),
    (c) => c.json(projectView(getProject(c.get('caller'), c.req.valid('param').id)), 200),
  );
}
