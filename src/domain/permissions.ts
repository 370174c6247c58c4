// Credential permissions. A route names the permissions that let a credential in; FULL_ACCESS always does.

export const PERMISSIONS = [
  'PIX:WRITE',
  'PROJECT:READ',
  'PROJECT:WRITE',
  'REFUND:WRITE',
  'TRANSACTION:READ',
  'ACCOUNT:READ',
  'BALANCE_BLOCK:READ',
  'SUBACCOUNT:READ',
  'SUBACCOUNT:WRITE',
  'WITHDRAWAL:WRITE',
  'CUSTOMER:READ',
  'CUSTOMER:WRITE',
  'CHARGE:READ',
  'CHARGE:WRITE',
  'METRICS:READ',
  'FULL_ACCESS',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function allows(granted: readonly string[], anyOf: readonly Permission[]): boolean {
  return granted.includes('FULL_ACCESS') || anyOf.some((p) => granted.includes(p));
}
