// The PIX destination fields of a withdrawal, as both faces take them (v2 POST /withdrawals, v1 POST /withdrawals):
// the key and document types, and the checks of a key and a holder document against their types.
import type { z } from '@hono/zod-openapi';
import { validateHolderDocument, validatePixKey, type HolderDocumentType, type PixKeyType } from '../pix';
import { warnCheckDigits } from './documents';

export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'random'] as const satisfies readonly PixKeyType[];
export const DOCUMENT_TYPES = ['cpf', 'cnpj'] as const satisfies readonly HolderDocumentType[];

/** pixKey against pixKeyType, holderDocument against holderDocumentType, when both of a pair are well-typed. */
export function checkKeyAndDocument(v: Record<string, unknown>, ctx: z.RefinementCtx) {
  if (typeof v.pixKey === 'string' && PIX_KEY_TYPES.includes(v.pixKeyType as PixKeyType)) {
    const problem = validatePixKey(v.pixKeyType as PixKeyType, v.pixKey);
    if (problem) ctx.addIssue({ code: 'custom', path: ['pixKey'], message: `${problem.replace(/^pixKey /, '')} (pixKeyType is ${String(v.pixKeyType)})` });
  }
  if (typeof v.holderDocument === 'string' && DOCUMENT_TYPES.includes(v.holderDocumentType as HolderDocumentType)) {
    const problem = validateHolderDocument(v.holderDocumentType as HolderDocumentType, v.holderDocument);
    if (problem) ctx.addIssue({ code: 'custom', path: ['holderDocument'], message: `${problem.replace(/^document /, '')} (holderDocumentType is ${String(v.holderDocumentType)})` });
    else warnCheckDigits('holderDocument', v.holderDocument);
  }
}
