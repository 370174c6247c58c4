// Sub-account references and wallet addressing (service document 2.3, 5.5).
import { SandboxError } from './errors';
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


/**
 * The wallet to act on for a sub-account reference (absent or 'principal': the main account), as X-Sub-Account and
 * the control API address it: an unknown reference is 404 SUB_ACCOUNT_NOT_FOUND, a suspended sub-account 403
 * SUB_ACCOUNT_SUSPENDED (sandbox.md 2.8). `listedAt` says where the caller finds the references.
 */
export function walletToActOn(account: Account, reference: string | undefined, listedAt: string): { wallet: Wallet; subAccount: SubAccount | null } {
  if (reference === undefined || reference === PRINCIPAL) return { wallet: mainWallet(account), subAccount: null };
  const subAccount = findSubAccount(account, reference);
  if (!subAccount) throw new SandboxError('SUB_ACCOUNT_NOT_FOUND', `No sub-account with reference '${reference}'. List them with ${listedAt}.`, { resource: 'sub-account', id: reference });
  if (subAccount.status === 'suspended') throw new SandboxError('SUB_ACCOUNT_SUSPENDED', `Sub-account '${reference}' is suspended; use another sub-account or the main account.`, { reference });
  return { wallet: account.wallets[subAccount.id]!, subAccount };
}
