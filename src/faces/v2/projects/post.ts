import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { createProject } from '../../../services/projects';
import { guard } from '../guard';
import { createdHeaders, errorResponse, json, jsonBody, subAccountHeader, v2Errors } from '../../../wire/schemas';
import { projectView } from '../../../wire/views';
import type { Router } from '../../../wire/env';
import { ProjectSchema } from '../../../wire/resources/projects';

export const ProjectInput = z
  .object({
    name: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(255, { error: 'must be at most 255 characters' }),
    color: z.string({ error: 'must be a string' }).regex(/^#[0-9A-Fa-f]{6}$/, { error: 'must be a hex color like #1A73E8' }),
    description: z.string({ error: 'must be a string' }).max(2000, { error: 'must be at most 2000 characters' }).optional(),
    logoUrl: z.url({ error: 'must be an absolute http(s) URL, like https://example.com/logo.png', protocol: /^https?$/ }).optional(),
  })
  .openapi('ProjectInput');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/projects',
      operationId: 'createProject',
      tags: ['v2 API'],
      summary: 'Create a project (name and color required)',
      middleware: [guard(deps, { permissions: ['PROJECT:WRITE'] })] as const,
      request: { headers: subAccountHeader, body: jsonBody(ProjectInput, { name: 'Loja online', color: '#1A73E8', description: 'Sales of the web shop' }) },
      responses: {
        201: { ...json(ProjectSchema, 'Project created'), headers: createdHeaders({ idempotent: false, location: 'The project: /v2/projects/{id}' }) },
        ...v2Errors,
        409: errorResponse('PROJECT_NAME_TAKEN: details hold resource, field and value'),
      },
    }),
    (c) => {
      const project = createProject(deps, c.get('caller'), c.req.valid('json'));
      c.header('Location', `/v2/projects/${project.id}`);
      return c.json(projectView(project), 201);
    },
  );
}
