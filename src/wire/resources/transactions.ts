// The transaction and refund shapes that the v2 and v1 faces and the control API answer with.
import { z } from '@hono/zod-openapi';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../../domain/types';
import { dateTime, uuid } from '../schemas';

export const TransactionSchema = z
  .object({
    id: uuid(),
    status: z.enum(TRANSACTION_STATUSES),
    type: z.enum(TRANSACTION_TYPES),
    paymentMethod: z.enum(['pix', 'credit_card', 'boleto']),
    amount: z.number(),
    currency: z.literal('BRL'),
    createdAt: dateTime(),
    description: z.string().optional(),
    externalReference: z.string().optional(),
    customerId: uuid().optional(),
    projectId: uuid().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    pixCopyPaste: z.string().optional(),
    expiresAt: dateTime().optional(),
    paidAt: dateTime().optional(),
    e2eId: z.string().optional(),
    counterpartName: z.string().optional(),
    counterpartDocument: z.string().optional(),
    updatedAt: dateTime().optional(),
  })
  .openapi('Transaction');

export const RefundResultSchema = z
  .object({
    originalTransactionId: uuid(),
    pspProvider: z.string().openapi({ description: "The pinned institution's name, else 'pix-sandbox'" }),
    pspRefundTransactionId: z.string().openapi({ description: 'PIX return id (D + ISPB + yyyyMMddHHmm + 11 characters)' }),
    status: z.enum(['PENDING', 'CONFIRMED', 'ERROR']),
  })
  .openapi('RefundResult');
