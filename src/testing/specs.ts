// The bodies the control client sends (POST/PATCH /_sandbox/accounts and friends) as plain TypeScript, so the
// published .d.ts names no zod. The check at the end keeps each equal to the zod schema that validates it: when a
// schema changes, tsc fails here until the interface says the same.
import type { z } from '@hono/zod-openapi';
import type { AccountPatchSchema, AccountSpecSchema, CredentialSpecSchema, SubAccountSpecSchema, WebhookPatchSchema, WebhookSpecSchema } from '../control/schemas';
import type { Permission } from '../domain/permissions';
import type { AccountStatus, Company } from '../domain/types';
import type { AccountSpec as ServiceAccountSpec, BankAccountSpec } from '../services/accounts';
import type { WithdrawalInputSchema } from '../wire/resources/withdrawals';
import type { EventKind } from '../domain/events';

export interface CredentialSpec {
  id?: string;
  clientId?: string;
  clientSecret?: string;
  permissions?: Permission[];
  subAccountAccess?: boolean;
}

export interface SubAccountSpec {
  id?: string;
  reference: string;
  name?: string;
  status?: AccountStatus;
  /** BRL, at most 2 decimals. */
  balance?: number;
}

export interface WebhookSpec {
  url: string | null;
  subAccount?: string | null;
  secret?: string;
  events?: EventKind[];
}

export interface WebhookPatch {
  url?: string | null;
  events?: EventKind[];
}

export interface FeesSpec {
  pix?: { percent?: number; fixed?: number; min?: number };
  withdrawal?: { fixed?: number };
  refund?: { fixed?: number };
}

export interface LimitsSpec {
  withdrawalMax?: number | null;
  dailyWithdrawalMax?: number | null;
}

export interface AutomationSpec {
  completeAfterSeconds?: number;
  autoPayAfterSeconds?: number | null;
  magicValues?: boolean;
}

export interface AccountSpec {
  id?: string;
  name?: string;
  environment?: 'sandbox' | 'production';
  status?: AccountStatus;
  city?: string;
  /** BRL, at most 2 decimals. */
  balance?: number;
  fees?: FeesSpec;
  limits?: LimitsSpec;
  automation?: AutomationSpec;
  webhookRetrySchedule?: number[];
  institutionChoice?: boolean;
  /** Unknown request fields are a 400 for this tenant (sandbox.md 14). */
  strict?: boolean;
  institutions?: ServiceAccountSpec['institutions'];
  subAccounts?: SubAccountSpec[];
  projects?: ServiceAccountSpec['projects'];
  credentials?: CredentialSpec[];
  apiKeys?: { id?: string; key?: string; permissions?: Permission[] }[];
  webhooks?: (WebhookSpec & { id?: string })[];
  bankAccounts?: BankAccountSpec[];
  webhookHeaderWord?: string;
  company?: Company;
  pixKeys?: { key: string; type: 'cpf' | 'cnpj' | 'email' | 'phone' | 'random' }[];
  /** A clock of the tenant's own: at `now` (absent: where the sandbox clock stands; null: real time), frozen or not (absent: as the sandbox clock). */
  clock?: { now?: string | number | null; frozen?: boolean };
  /** Its own retention: deleted once untouched this long on its clock ('1d', '12h'...); absent: the sandbox's --retain. */
  retain?: string;
}

/** A bank account a v1 withdrawal names by bankAccountId; the tenant's company as GET /v1/account shows it. */
export type { BankAccountSpec, Company as CompanySpec };

/** POST /_sandbox/accounts/{id}/withdrawals (and POST /v2/withdrawals): exactly one of amount and netAmount. */
export interface WithdrawalInput {
  pixKey: string;
  pixKeyType: 'cpf' | 'cnpj' | 'email' | 'phone' | 'random';
  holderName: string;
  holderDocument: string;
  holderDocumentType: 'cpf' | 'cnpj';
  projectId?: string;
  amount?: number;
  netAmount?: number;
  externalReference?: string;
}

export interface AccountPatch {
  name?: string;
  status?: AccountStatus;
  fees?: FeesSpec;
  limits?: LimitsSpec;
  automation?: AutomationSpec;
  institutionChoice?: boolean;
  strict?: boolean;
  webhookRetrySchedule?: number[];
  bankAccounts?: BankAccountSpec[];
  webhookHeaderWord?: string | null;
  company?: Company | null;
  /** null: back to the sandbox's --retain. */
  retain?: string | null;
}

/** True only when A and B are the same type (not merely assignable either way: a missing optional field counts). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Deep<T> = T extends (infer U)[] ? Deep<U>[] : T extends object ? { [K in keyof T]: Deep<T[K]> } : T;
type Check<A, B> = Same<Deep<A>, Deep<B>>;

export const SPECS_MATCH_SCHEMAS: [
  Check<CredentialSpec, z.input<typeof CredentialSpecSchema>>,
  Check<SubAccountSpec, z.input<typeof SubAccountSpecSchema>>,
  Check<WebhookSpec, Omit<z.input<typeof WebhookSpecSchema>, 'id'>>,
  Check<WebhookPatch, z.input<typeof WebhookPatchSchema>>,
  Check<AccountSpec, z.input<typeof AccountSpecSchema>>,
  Check<AccountPatch, z.input<typeof AccountPatchSchema>>,
  Check<WithdrawalInput, z.input<typeof WithdrawalInputSchema>>,
] = [true, true, true, true, true, true, true];
