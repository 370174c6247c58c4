import { z } from '@hono/zod-openapi';
import { dateTime, uuid } from '../schemas';

export const ProjectSchema = z
  .object({
    id: uuid(),
    name: z.string(),
    color: z.string().openapi({ example: '#1A73E8' }),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    description: z.string().optional(),
    logoUrl: z.string().optional().openapi({ format: 'uri' }),
  })
  .openapi('Project');
