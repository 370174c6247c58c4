// Pix Automático of the standard API Pix (bacen/pix-api 2.9.0): recurrences (rec), their confirmation requests
// (solicrec) and recurring charges (cobr) as pure rules. Statuses are the document's words; each moves only as its
// table says (transition()), and every move is kept in the record's `atualizacao` history with its instant. Dates are
// Brasília days (domain/api-pix.ts); money is integer cents.
import { transition, type TransitionTable } from './transitions';
import { brtDay, dayOf, dayText } from './api-pix';
import { nextBusinessDay } from './business-days';
import { magicFor } from './magic';
import { magicValuesOn } from './magic-rules';
import type { Account } from './types';
import type { CobR, CobRStatus, Periodicidade, PoliticaRetentativa, Rec, RecStatus, SolicRecStatus, StatusMark } from './api-pix-rec-records';

export * from './api-pix-rec-records';

/** A recurrence waits for its payer's answer (CRIADA); approved, it lives until cancelled or its end passes. */
export const REC_TRANSITIONS = {
  CRIADA: ['APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'],
  APROVADA: ['CANCELADA', 'EXPIRADA'],
  REJEITADA: [],
  EXPIRADA: [],
  CANCELADA: [],
} as const satisfies TransitionTable<RecStatus>;

/** A confirmation request travels to the payer (ENVIADA, RECEBIDA), who accepts or rejects it; it can be cancelled or expire on the way. */
export const SOLICREC_TRANSITIONS = {
  CRIADA: ['ENVIADA', 'CANCELADA', 'EXPIRADA'],
  ENVIADA: ['RECEBIDA', 'CANCELADA', 'EXPIRADA'],
  RECEBIDA: ['ACEITA', 'REJEITADA', 'CANCELADA', 'EXPIRADA'],
  ACEITA: [],
  REJEITADA: [],
  EXPIRADA: [],
  CANCELADA: [],
} as const satisfies TransitionTable<SolicRecStatus>;

/** A recurring charge is scheduled at the payer's PSP (ATIVA), then settled (CONCLUIDA), refused, expired or cancelled. */
export const COBR_TRANSITIONS = {
  CRIADA: ['ATIVA', 'REJEITADA', 'CANCELADA'],
  ATIVA: ['CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'],
  CONCLUIDA: [],
  EXPIRADA: [],
  REJEITADA: [],
  CANCELADA: [],
} as const satisfies TransitionTable<CobRStatus>;

/** Moves a record to `to` by its table (refusing an illegal move, naming both states) and notes it in its history. */
export function moveTo<S extends string>(table: TransitionTable<S>, entity: string, record: { status: S; atualizacao: StatusMark<S>[] }, to: S, at: number, action: string): void {
  record.status = transition(table, entity, record.status, to, action);
  record.atualizacao.push({ status: to, data: at });
}

/** An idRec: R, R or N (retries allowed or not), the receiver's ISPB, the creation day and 11 letters and digits. */
export const recIdOf = (politica: PoliticaRetentativa, ispb: string, createdAt: number, sequence: string) =>
  `R${politica === 'PERMITE_3R_7D' ? 'R' : 'N'}${ispb}${dayText(brtDay(createdAt)).replaceAll('-', '')}${sequence}`;
/** An idSolicRec: SC, the sender's ISPB, the day and 11 letters and digits. */
export const solicRecIdOf = (ispb: string, createdAt: number, sequence: string) => `SC${ispb}${dayText(brtDay(createdAt)).replaceAll('-', '')}${sequence}`;
export const REC_ID = /^[a-zA-Z0-9]{29}$/;

/**
 * The day a cobr is settled: its due date, moved to the next business day (weekends and national holidays,
 * domain/business-days.ts) when ajusteDiaUtil.
 */
export function settlementDay(cobr: Pick<CobR, 'dataDeVencimento' | 'ajusteDiaUtil'>): number {
  const day = dayOf(cobr.dataDeVencimento);
  return cobr.ajusteDiaUtil ? nextBusinessDay(day) : day;
}

/** The hour (Brasília) at which a scheduled debit is tried on its day. */
export const DEBIT_HOUR_BRT = 6;
/** The instant a debit is tried on Brasília day `day`. */
export const debitInstant = (day: number) => day * 86_400_000 + (3 + DEBIT_HOUR_BRT) * 3_600_000;

/** How many months a period spans (a week is counted apart). */
const MONTHS: Record<Periodicidade, number> = { SEMANAL: 0, MENSAL: 1, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

/** The index of the cycle a date falls in, counted from the recurrence's dataInicial (0 = the first period). */
export function cycleOf(calendario: Rec['calendario'], date: string): number {
  const start = dayOf(calendario.dataInicial);
  const day = dayOf(date);
  if (calendario.periodicidade === 'SEMANAL') return Math.floor((day - start) / 7);
  const [y0, m0, d0] = calendario.dataInicial.split('-').map(Number) as [number, number, number];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const months = (y - y0) * 12 + (m - m0) - (d < d0 ? 1 : 0);
  return Math.floor(months / MONTHS[calendario.periodicidade]);
}

/** A cobr is sent to the payer's PSP from 10 to 2 days before its due date (the regulation of Pix Automático). */
export const COBR_WINDOW = { earliestDaysBefore: 10, latestDaysBefore: 2 } as const;
/** PERMITE_3R_7D: at most 3 retries, each within 7 days after the settlement day. */
export const RETRY_POLICY = { retries: 3, days: 7 } as const;

/**
 * The reason a debit fails in this sandbox: the payer's balance (a magic debtor, or the control API). The document's
 * list of codes has no insufficient-funds code of its own (ISO's AM04 is not in it); AM02 (amount not allowed) is the
 * nearest of those that leave the cobr open for a retry.
 */
export const NO_FUNDS = { codigo: 'AM02', descricao: 'Saldo insuficiente na conta do usuário pagador.' } as const;
/**
 * A cobr above the payer's maximum (valorMaximoPagador) fails its debit: ISO 20022's AM02 is NotAllowedAmount, "amount
 * greater than the allowed maximum", in the document's list; it leaves the cobr open as the policy says.
 */
export const ABOVE_PAYER_MAXIMUM = { codigo: 'AM02', descricao: 'Valor da cobrança acima do valor máximo definido pelo usuário pagador.' } as const;

/**
 * The webhooks of Pix Automático are kept as the standard face's webhooks are (account.webhooks, with a `chave`), under
 * these two names, which no PIX key can be: their notices reach them alone, at {webhookUrl}/rec and {webhookUrl}/cobr.
 */
export const REC_WEBHOOK = 'webhookrec';
export const COBR_WEBHOOK = 'webhookcobr';
export const isAutomaticoWebhook = (chave: string | undefined) => chave === REC_WEBHOOK || chave === COBR_WEBHOOK;
/** The path a standard face's notice is posted to under its webhookUrl (the document's callbacks). */
export const noticePath = (chave: string) => (chave === REC_WEBHOOK ? 'rec' : chave === COBR_WEBHOOK ? 'cobr' : 'pix');

/** An account of the receiver at its PSP, as a cobr's `recebedor` names it. */
export interface ReceiverAccount {
  agencia: string;
  conta: string;
  tipoConta: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
}

/**
 * The receiver's accounts a cobr may be credited to: one payment account, branch 0001, numbered by the account's id
 * (its digits, at most 20), so each tenant's is its own and the same in every run.
 */
export const receiverAccountsOf = (account: Pick<Account, 'id'>): ReceiverAccount[] => [{ agencia: '0001', conta: account.id.replace(/\D/g, '').slice(0, 20) || '0', tipoConta: 'PAGAMENTO' }];

/** Whether a cobr's `recebedor` names one of the receiver's accounts (its branch, when given, included). */
export const isReceiverAccount = (account: Pick<Account, 'id'>, r: { conta: string; tipoConta: string; agencia?: string | undefined }) =>
  receiverAccountsOf(account).some((a) => a.conta === r.conta && a.tipoConta === r.tipoConta && (r.agencia === undefined || a.agencia === r.agencia));

export function findRec(account: Account, idRec: string): Rec | undefined {
  return Object.hasOwn(account.recs ?? {}, idRec) ? account.recs[idRec] : undefined;
}

/** The magic outcome of a recurrence's debtor document (sandbox.md 4.11), if the account has magic values on. */
export function recMagic(account: Account, rec: Rec) {
  if (!magicValuesOn(account.automation)) return undefined;
  return magicFor('rec.vinculo.devedor', rec.vinculo.devedor.cpf ?? rec.vinculo.devedor.cnpj)?.outcome;
}
