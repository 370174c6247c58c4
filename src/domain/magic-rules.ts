// How the magic-value table (domain/magic.ts, shared with the payer page) is applied: whether an account has magic
// values on, which outcome a charge or withdrawal gets, when, and the reasons its transactions carry. A value applies
// only where its row says; a withdrawal's cpf row needs pixKeyType cpf, which key validation already ensures (an
// email key cannot be 11 digits, a cpf key cannot hold an @).
import type { PixKeyType } from '../pix';
import { magicFor, type MagicOutcome } from './magic';
import type { Automation } from './types';

export const MAGIC_WITHDRAWAL_FAILURE = 'Chave PIX não encontrada';
export const MAGIC_REVERSAL_REASON = 'Conta destino encerrada';
export const MAGIC_REFUND_FAILURE = 'Devolução recusada pela instituição do pagador';

/** Magic values are on unless the account says `automation.magicValues: false` (data files from before it: on). */
export const magicValuesOn = (automation: Automation) => automation.magicValues !== false;

/**
 * Seconds from a magic withdrawal's (or refund's) creation to its outcome: when it would otherwise complete (the
 * account's completeAfterSeconds), or 2 s, the default, when that automation is off: a magic value needs no control call.
 */
export const magicCompleteAfterSeconds = (automation: Automation) => (automation.completeAfterSeconds > 0 ? automation.completeAfterSeconds : 2);

/** The magic outcome of a charge whose customer.document is `document`, if any. */
export function chargeMagic(automation: Automation, document: string | undefined): MagicOutcome | undefined {
  return magicValuesOn(automation) ? magicFor('charge.customer.document', document)?.outcome : undefined;
}

/** The magic outcome of a withdrawal to `pixKey`, if any; an email key compares without case. */
export function withdrawalMagic(automation: Automation, pixKeyType: PixKeyType, pixKey: string): MagicOutcome | undefined {
  if (!magicValuesOn(automation) || (pixKeyType !== 'email' && pixKeyType !== 'cpf')) return undefined;
  return magicFor('withdrawal.pixKey', pixKeyType === 'email' ? pixKey.toLowerCase() : pixKey)?.outcome;
}
