import { z } from '@hono/zod-openapi';
import { PAYMENT_LINK_STATUSES, PAYMENT_METHODS } from '../../domain/types';
import { dateTime, uuid } from '../schemas';

export const PaymentLinkSchema = z
  .object({
    id: uuid(),
    projectId: uuid(),
    customerId: uuid().optional(),
    name: z.string(),
    description: z.string().optional(),
    amount: z.number(),
    currency: z.literal('BRL'),
    status: z.enum(PAYMENT_LINK_STATUSES).openapi({ description: 'active; paid (a link with customerId, after its payment); expired (expiresAt passed on the sandbox clock); disabled' }),
    slug: z.string(),
    url: z.string().openapi({ description: 'The link\'s page on this sandbox: /c/{slug}' }),
    paymentMethods: z.array(z.enum(PAYMENT_METHODS)),
    maxInstallments: z.number().int().optional(),
    notifications: z.array(z.string()),
    allowCoupons: z.boolean(),
    expiresAt: dateTime().optional(),
    paymentsCount: z.number().int(),
    totalCollected: z.number(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .openapi('PaymentLink');
