// The Central Bank's standard API Pix (bacen/pix-api 2.9.0, docs/standards/) as pure rules over the core's records:
// a cob or cobv is a charge of the core plus what the standard adds (txid, revisao, location, due-date rules). Money
// stays integer cents; the standard's 2-decimal strings are made only at the edge. Dates of a cobv are days in
// Brasília time (UTC-3, no daylight saving since 2019), business days are Monday to Friday (no holiday calendar).
import type { Cents } from './money';
import type { DueRules, Transaction } from './types';

/** Pix Automático's scopes (sandbox.md 15): recurrences, their requests and locations, recurring charges, their webhooks. */
const AUTOMATICO_SCOPES = ['rec.write', 'rec.read', 'solicrec.write', 'solicrec.read', 'cobr.write', 'cobr.read', 'payloadlocationrec.write', 'payloadlocationrec.read', 'webhookrec.write', 'webhookrec.read', 'webhookcobr.write', 'webhookcobr.read'] as const;
/** The scopes of the standard's OAuth2 scheme that this sandbox serves. */
export const API_PIX_SCOPES = ['cob.write', 'cob.read', 'cobv.write', 'cobv.read', 'lotecobv.write', 'lotecobv.read', 'pix.write', 'pix.read', 'webhook.write', 'webhook.read', 'payloadlocation.write', 'payloadlocation.read', ...AUTOMATICO_SCOPES] as const;
export type ApiPixScope = (typeof API_PIX_SCOPES)[number];

/**
 * Which scopes a credential may be given: FULL_ACCESS every one; otherwise those its v2 permissions amount to
 * (PIX:WRITE makes and reads charges and their locations, TRANSACTION:READ reads Pix received, REFUND:WRITE asks for
 * devoluções). Webhook configuration needs FULL_ACCESS.
 */
const SCOPES_OF_PERMISSION: Record<string, readonly ApiPixScope[]> = {
  'PIX:WRITE': ['cob.write', 'cob.read', 'cobv.write', 'cobv.read', 'payloadlocation.write', 'payloadlocation.read'],
  'TRANSACTION:READ': ['pix.read', 'cob.read', 'cobv.read'],
  'REFUND:WRITE': ['pix.write', 'pix.read'],
};

/**
 * Scopes a permission also gives that its token need not carry to be read back as that permission (permissionsOfScope):
 * batches of cobv and Pix Automático came after tokens asked for PIX:WRITE's scopes by name, which must keep meaning
 * PIX:WRITE. PIX:WRITE makes batches, recurrences and their charges; TRANSACTION:READ reads them. Pix Automático's
 * webhooks need FULL_ACCESS, like the others.
 */
const ALSO_GIVEN: Record<string, readonly ApiPixScope[]> = {
  'PIX:WRITE': ['lotecobv.write', 'lotecobv.read', 'rec.write', 'rec.read', 'solicrec.write', 'solicrec.read', 'cobr.write', 'cobr.read', 'payloadlocationrec.write', 'payloadlocationrec.read'],
  'TRANSACTION:READ': ['lotecobv.read', 'rec.read', 'solicrec.read', 'cobr.read'],
};

export function scopesOf(permissions: readonly string[]): ApiPixScope[] {
  if (permissions.includes('FULL_ACCESS')) return [...API_PIX_SCOPES];
  const granted = new Set(permissions.flatMap((p) => [...(SCOPES_OF_PERMISSION[p] ?? []), ...(ALSO_GIVEN[p] ?? [])]));
  return API_PIX_SCOPES.filter((s) => granted.has(s));
}

/**
 * What a token grants on the standard face, read at each request: the scopes its credential's permissions give now,
 * narrowed to the token's own scope when it has one (a token of POST /v2/auth has none, and gets what the credential
 * gives). So lowering a credential's permissions reaches the tokens issued before.
 */
export function grantedScopes(permissions: readonly string[], tokenScope: string | undefined): ApiPixScope[] {
  const given = scopesOf(permissions);
  if (tokenScope === undefined) return given;
  const asked = new Set(tokenScope.split(' '));
  return given.filter((s) => asked.has(s));
}

/**
 * The v2 permissions an API Pix token may use, the other way round from scopesOf: a permission whose every scope the
 * token carries (a token of the default scope of a PIX:WRITE credential creates charges on /v2/pix; a cob.read token
 * writes nothing). Permissions with no scope of the standard (withdrawals, projects, the account) are never granted by
 * such a token: those take a token of POST /v2/auth.
 */
export function permissionsOfScope(tokenScope: string): string[] {
  const carried = new Set(tokenScope.split(' '));
  return Object.entries(SCOPES_OF_PERMISSION)
    .filter(([, scopes]) => scopes.every((s) => carried.has(s)))
    .map(([permission]) => permission);
}

export const COB_STATUSES = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const;
export type CobStatus = (typeof COB_STATUSES)[number];

/** What the standard calls the core charge's state: a removal by the receiver is a cancellation it asked for. */
export function cobStatus(tx: Transaction): CobStatus {
  if (tx.status === 'pending') return 'ATIVA';
  if (tx.status === 'completed') return 'CONCLUIDA';
  return tx.charge?.endReason === REMOVED_BY_RECEIVER ? 'REMOVIDA_PELO_USUARIO_RECEBEDOR' : 'REMOVIDA_PELO_PSP';
}
/** The charge's endReason when PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR ended it. */
export const REMOVED_BY_RECEIVER = 'removed_by_receiver';

export const DEVOLUCAO_STATUS = { pending: 'EM_PROCESSAMENTO', completed: 'DEVOLVIDO', failed: 'NAO_REALIZADO', cancelled: 'NAO_REALIZADO' } as const;

/** txid of PUT /cob/{txid} and /cobv/{txid}: 26 to 35 letters and digits (the document's TxId). */
export const TXID = /^[a-zA-Z0-9]{26,35}$/;
/** A devolução's id: 1 to 35 letters and digits. */
export const DEVOLUCAO_ID = /^[a-zA-Z0-9]{1,35}$/;
/** The standard's money: up to 10 integer digits and exactly 2 decimals, as a string. */
export const MONEY_TEXT = /^\d{1,10}\.\d{2}$/;

export const moneyText = (cents: Cents): string => (cents / 100).toFixed(2);
/** "12.34" -> 1234; call on a string that matched MONEY_TEXT. */
export const textCents = (text: string): Cents => Number(text.replace('.', ''));

const DAY = 86_400_000;
const BRT_OFFSET = 3 * 3_600_000;
/** Day number (days since 1970-01-01) of a YYYY-MM-DD date. */
export const dayOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY);
/** The Brasília calendar day of an instant. */
export const brtDay = (ms: number) => Math.floor((ms - BRT_OFFSET) / DAY);
export const dayText = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
const weekend = (day: number) => {
  const dow = new Date(day * DAY).getUTCDay();
  return dow === 0 || dow === 6;
};
/** A due date on a weekend moves to the next Monday (the document's prorrogação; holidays are not known here). */
export const effectiveDueDay = (rules: Pick<DueRules, 'dataDeVencimento'>) => {
  let day = dayOf(rules.dataDeVencimento);
  while (weekend(day)) day++;
  return day;
};
/**
 * The last day a cobv can be paid: the (moved) due date plus validadeAposVencimento calendar days, and when that day
 * is not a business day, the next one that is. So the document's examples A to G read (A: due Tuesday 2020-10-20,
 * 4 days: Saturday the 24th moves to Monday the 26th, accepted; Tuesday refused), test/api-pix/business-days.test.ts.
 */
export const lastPayableDay = (rules: Pick<DueRules, 'dataDeVencimento' | 'validadeAposVencimento'>) => {
  let day = effectiveDueDay(rules) + rules.validadeAposVencimento;
  while (weekend(day)) day++;
  return day;
};
/** When a cobv stops being payable: the end of its last payable day in Brasília. */
export const cobvExpiresAt = (rules: Pick<DueRules, 'dataDeVencimento' | 'validadeAposVencimento'>) => (lastPayableDay(rules) + 1) * DAY + BRT_OFFSET;

/** Weekdays from the Monday of day 4 (1970-01-05) up to, not including, `day`; counted, not walked. */
const weekdaysBefore = (day: number) => {
  const since = day - 4;
  const weeks = Math.floor(since / 7);
  return weeks * 5 + Math.min(since - weeks * 7, 5);
};
/** Business days after `from` up to and including `to` (0 when `to` is not later). */
export const businessDaysBetween = (from: number, to: number) => Math.max(0, weekdaysBefore(to + 1) - weekdaysBefore(from + 1));
/** A percentage string ("2.50") applied to cents, rounded half up; or the amount itself for a fixed modality. */
const amountOf = (base: Cents, valorPerc: string, percent: boolean): Cents => (percent ? Math.round((base * textCents(valorPerc)) / 10_000) : textCents(valorPerc));

export interface DueAmounts {
  original: Cents;
  multa: Cents;
  juros: Cents;
  abatimento: Cents;
  desconto: Cents;
  final: Cents;
}

/**
 * What a cobv costs when paid on Brasília day `payDay` (the document's valor.final): original + multa + juros -
 * abatimento - desconto. Late (after the moved due date): the fine once and simple interest per late day (calendar or
 * business days by modality; a monthly rate is 1/30 a day, a yearly one 1/365). On time: the discount of the first fixed
 * date not passed, or per day paid early. The abatement always applies. Never below one cent.
 */
export function dueAmounts(rules: DueRules, payDay: number): DueAmounts {
  const { original } = rules;
  const due = effectiveDueDay(rules);
  const abatimento = rules.abatimento ? amountOf(original, rules.abatimento.valorPerc, rules.abatimento.modalidade === 2) : 0;
  let multa = 0;
  let juros = 0;
  let desconto = 0;
  if (payDay > due) {
    if (rules.multa) multa = amountOf(original, rules.multa.valorPerc, rules.multa.modalidade === 2);
    if (rules.juros) {
      const m = rules.juros.modalidade;
      const days = m <= 4 ? payDay - due : businessDaysBetween(due, payDay);
      const perDay = [1, 5].includes(m) ? textCents(rules.juros.valorPerc) : (original * textCents(rules.juros.valorPerc)) / 10_000 / ([3, 7].includes(m) ? 30 : [4, 8].includes(m) ? 365 : 1);
      juros = Math.round(perDay * days);
    }
  } else if (rules.desconto) {
    const d = rules.desconto;
    if (d.modalidade <= 2) {
      const entry = [...(d.descontoDataFixa ?? [])].sort((a, b) => a.data.localeCompare(b.data)).find((e) => dayOf(e.data) >= payDay);
      if (entry) desconto = amountOf(original, entry.valorPerc, d.modalidade === 2);
    } else if (d.valorPerc) {
      const days = d.modalidade === 3 || d.modalidade === 5 ? due - payDay : businessDaysBetween(payDay, due);
      desconto = Math.round(amountOf(original, d.valorPerc, d.modalidade >= 5) * days);
    }
  }
  // A discount never takes the amount below one cent (abatement and each discount are under the original when made).
  const over = 1 - (original + multa + juros - abatimento - desconto);
  if (over > 0) desconto = Math.max(0, desconto - over);
  return { original, multa, juros, abatimento, desconto, final: original + multa + juros - abatimento - desconto };
}
