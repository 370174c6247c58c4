// An account's balance, its sub-accounts and its company, as the v2 and v1 faces and the control API show them.
import { z } from '@hono/zod-openapi';
import { ACCOUNT_STATUSES } from '../../domain/types';
import { isValidCnpj } from '../../pix';
import { dateTime, uuid } from '../schemas';

const Money = z
  .object({ amount: z.number().int().openapi({ description: 'cents', example: 100000 }), amountFormatted: z.number().openapi({ description: 'BRL', example: 1000 }) })
  .openapi('Money');

export const BalanceSchema = z
  .object({
    available: Money,
    promotional: Money,
    held: Money.openapi({ description: 'Blocked by balance blocks' }),
    total: Money.openapi({ description: 'available + promotional + held' }),
    currency: z.literal('BRL'),
    updatedAt: dateTime(),
  })
  .openapi('Balance');

export const SubAccountSchema = z
  .object({
    id: uuid(),
    reference: z.string().openapi({ pattern: '^[a-z0-9][a-z0-9_-]{1,31}$', example: 'loja-centro', description: 'The value sent in X-Sub-Account' }),
    name: z.string(),
    status: z.enum(ACCOUNT_STATUSES).openapi({ example: 'approved' }),
    createdAt: dateTime(),
  })
  .openapi('SubAccount');

/** The tenant's company as GET /v1/account shows it (the Node SDK's CompanyDetail). */
export const CompanySchema = z
  .object({
    razaoSocial: z.string().min(1).max(255),
    nomeFantasia: z.string().min(1).max(255).optional(),
    cnpj: z.string().refine(isValidCnpj, { error: 'must be a CNPJ (14 characters) with valid check digits, like 11222333000181' }),
    email: z.email({ error: 'must be an email address' }),
    phone: z.string().min(1).max(20),
    status: z.enum(['pending', 'active', 'suspended', 'blocked'], { error: "must be 'pending', 'active', 'suspended' or 'blocked'" }),
  })
  .openapi('Company');
