// POST /v1/projects (sandbox.md 12): the same projects as v2 (color defaults to #3B82F6, as the SDKs' service does).
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { createProject } from '../../../services/projects';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { dateTime, errorResponse, json, jsonBody, uuid } from '../../../wire/schemas';
import { text, v1Errors, v1Headers, v1Security, v1Tags } from '../schemas';
import { projectV1View } from '../views';

export const DEFAULT_V1_COLOR = '#3B82F6';

const ProjectV1Input = z
  .object({
    name: text(255).trim().min(1, { error: 'must not be empty' }),
    color: z.string({ error: 'must be a string' }).regex(/^#[0-9A-Fa-f]{6}$/, { error: 'must be a hex color like #3B82F6' }).nullish().transform((v) => v ?? DEFAULT_V1_COLOR),
    description: text(2000).nullish().transform((v) => v ?? undefined),
    logoUrl: z.url({ error: 'must be an absolute http(s) URL, like https://example.com/logo.png', protocol: /^https?$/ }).nullish().transform((v) => v ?? undefined),
  })
  .openapi('ProjectInputV1');

export const ProjectV1Schema = z
  .object({ id: uuid(), name: z.string(), description: z.string().optional(), color: z.string(), logoUrl: z.string().optional(), createdAt: dateTime() })
  .openapi('ProjectV1');

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/projects',
      operationId: 'createProjectV1',
      tags: v1Tags,
      summary: 'Create a project of the account (the projects v2 lists)',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['PROJECT:WRITE'] })] as const,
      request: { headers: v1Headers, body: jsonBody(ProjectV1Input, { name: 'Minha Loja', color: '#3B82F6', description: 'Loja virtual de eletrônicos', logoUrl: 'https://example.com/logo.png' }) },
      responses: { 201: json(ProjectV1Schema, 'Project created'), ...v1Errors, 409: errorResponse('PROJECT_NAME_TAKEN: details hold resource, field and value') },
    }),
    (c) => c.json(projectV1View(createProject(deps, c.get('caller'), c.req.valid('json'))), 201),
  );
}
