import { z } from '@hono/zod-openapi';

export const ProjectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    color: z.string().openapi({ example: '#1A73E8' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    description: z.string().optional(),
    logoUrl: z.string().optional(),
  })
  .openapi('Project');
