// Sub-account references and wallet addressing (service document 2.3, 5.5).
import type { Account, SubAccount, Wallet } from './types';

export const REFERENCE_PATTERN = /^[a-z0-9][a-z0-9_-]{1,31}$/;
export const PRINCIPAL = 'principal';

export const mainWallet = (account: Account): Wallet => account.wallets[account.id]!;

export const findSubAccount = (account: Account, reference: string): SubAccount | undefined =>
  account.subAccounts.find((s) => s.reference === reference);

/** Why a string cannot be a new sub-account reference, or null when it can. */
export function referenceProblem(reference: string): string | null {
  if (!REFERENCE_PATTERN.test(reference))
    return `reference '${reference}' must match ^[a-z0-9][a-z0-9_-]{1,31}$: 2 to 32 lowercase letters, digits, '_' or '-', starting with a letter or digit`;
  if (reference === PRINCIPAL) return `reference 'principal' is reserved for the main account; choose another`;
  return null;
}

