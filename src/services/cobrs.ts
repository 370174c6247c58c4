// Pix Automático's recurring charges (cobr) on the tenant's clock: made by the receiver 10 to 2 days before their due
// date for an APROVADA recurrence, scheduled at the payer's PSP at once (ATIVA, a first attempt AGENDADA for the
// settlement day), and debited at 06:00 (Brasília) of that day. A debit that goes through is a core charge paid by the
// payer (payCharge: the same ledger, wallet, events and webhooks as any payment); one that fails (a magic debtor
// without funds, or the control API) leaves its attempt REJEITADA, and then the recurrence's policy decides: NAO_PERMITE
// ends the cobr REJEITADA; PERMITE_3R_7D lets the receiver ask for up to 3 retries within 7 days after the settlement
// day (POST /cobr/{txid}/retentativa/{data}), and a cobr not paid by the end of those days is EXPIRADA.
import type { Deps } from '../deps';
import { SandboxError, validationError, type FieldError } from '../domain/errors';
import { brtDay, dayOf, dayText, moneyText } from '../domain/api-pix';
import {
  COBR_TRANSITIONS,
  COBR_WINDOW,
  cycleOf,
  debitInstant,
  findRec,
  recMagic,
  moveTo,
  NO_FUNDS,
  ABOVE_PAYER_MAXIMUM,
  isReceiverAccount,
  receiverAccountsOf,
  RETRY_POLICY,
  settlementDay,
  type CobR,
  type Rec,
  type Tentativa,
  type TentativaStatus,
} from '../domain/api-pix-rec';
import { mainWallet } from '../domain/subaccounts';
import type { Account } from '../domain/types';
import type { Cents } from '../domain/money';
import { makeE2eId } from '../pix';
import { recordCobRNotice } from '../webhooks/api-pix-rec';
import { createCharge, payCharge } from './charges';
import { nowOf } from './clocks';

export const COBR_SCHEDULE_JOB = 'cobr.schedule';
export const COBR_DEBIT_JOB = 'cobr.debit';
export const COBR_EXPIRE_JOB = 'cobr.expire';

export interface CobRInput {
  idRec: string;
  dataDeVencimento: string;
  original: Cents;
  ajusteDiaUtil: boolean;
  recebedor: { conta: string; tipoConta: string; agencia?: string | undefined };
  infoAdicional?: string;
  devedor?: Record<string, string>;
}

const field = (name: string, message: string): FieldError => ({ field: name, message });
const OPEN = ['CRIADA', 'ATIVA'] as const;
const isOpen = (cobr: CobR) => (OPEN as readonly string[]).includes(cobr.status);

export function findCobR(account: Account, txid: string): CobR | undefined {
  return Object.hasOwn(account.cobrs ?? {}, txid) ? account.cobrs[txid] : undefined;
}

export function getCobR(account: Account, txid: string): CobR {
  const cobr = findCobR(account, txid);
  if (!cobr) throw new SandboxError('COBR_NOT_FOUND', `No cobr with txid '${txid}' in this account; create it with PUT /api-pix/v2/cobr/${txid}.`, { resource: 'cobr', id: txid });
  return cobr;
}

/** A cobr in any account by its txid, for the control API (a txid held by two tenants is refused, never picked). */
export function locateCobR(deps: Deps, txid: string): { account: Account; cobr: CobR } {
  const holders = Object.values(deps.store.state.accounts).filter((a) => findCobR(a, txid));
  if (holders.length === 0) throw new SandboxError('COBR_NOT_FOUND', `No cobr with txid '${txid}' in any account.`, { resource: 'cobr', id: txid });
  if (holders.length > 1) throw new SandboxError('TXID_AMBIGUOUS', `${holders.length} accounts hold a cobr with txid '${txid}' (a txid is unique per receiver only).`, { resource: 'cobr', id: txid, accounts: holders.length });
  return { account: holders[0]!, cobr: findCobR(holders[0]!, txid)! };
}

/** A recurrence's charges (those of a data file written before cobrIds are found by their idRec). */
const cobrsOf = (account: Account, rec: Rec): CobR[] =>
  rec.cobrIds ? rec.cobrIds.map((id) => account.cobrs[id]!).filter(Boolean) : Object.values(account.cobrs).filter((c) => c.idRec === rec.id);

/** The last instant of the retry days: the end (Brasília) of the 7th day after the settlement day. */
const retryDaysEnd = (cobr: CobR) => (settlementDay(cobr) + RETRY_POLICY.days + 1) * 86_400_000 + 3 * 3_600_000 - 1;

function mark(t: Tentativa, status: TentativaStatus, at: number) {
  t.status = status;
  t.atualizacao.push({ status, data: at });
}

/** The attempt waiting to be debited, if any. */
const scheduledAttempt = (cobr: CobR) => cobr.tentativas.find((t) => t.status === 'SOLICITADA' || t.status === 'AGENDADA');

/** PUT /cobr/{txid}, POST /cobr (txid made here): a recurring charge of an APROVADA recurrence, inside its window. */
export function createCobR(deps: Deps, account: Account, txidOrNone: string | undefined, input: CobRInput): CobR {
  const now = nowOf(deps, account);
  const today = brtDay(now);
  const txid = txidOrNone ?? deps.ids.token(32);
  const problems: FieldError[] = [];
  if (findCobR(account, txid)) problems.push(field('cobr.txid', `'${txid}' is already in use by a cobr of this account; use another txid, or POST /api-pix/v2/cobr to get one made`));
  const rec = findRec(account, input.idRec);
  const due = dayOf(input.dataDeVencimento);
  if (!rec) problems.push(field('cobr.idRec', `names no recurrence of this account ('${input.idRec}'); create one with POST /api-pix/v2/rec`));
  else {
    if (rec.status !== 'APROVADA') problems.push(field('cobr.idRec', `names a recurrence that is ${rec.status}; only an APROVADA recurrence (its payer accepted it) is charged`));
    if (due < dayOf(rec.calendario.dataInicial)) problems.push(field('cobr.calendario.dataDeVencimento', `is before the recurrence's first day (calendario.dataInicial ${rec.calendario.dataInicial})`));
    if (rec.calendario.dataFinal !== undefined && due > dayOf(rec.calendario.dataFinal)) problems.push(field('cobr.calendario.dataDeVencimento', `is after the recurrence's last day (calendario.dataFinal ${rec.calendario.dataFinal})`));
    // A fixed value is every charge's value; valorMinimoRecebedor bounds the payer's maximum, not each charge.
    if (rec.valorRec !== undefined && input.original !== rec.valorRec)
      problems.push(field('cobr.valor.original', `must be the recurrence's fixed value (valorRec ${moneyText(rec.valorRec)}); send ${moneyText(rec.valorRec)}`));
    const cycle = cycleOf(rec.calendario, input.dataDeVencimento);
    const same = cobrsOf(account, rec).find((c) => c.status !== 'REJEITADA' && c.status !== 'CANCELADA' && cycleOf(rec.calendario, c.dataDeVencimento) === cycle);
    if (same) problems.push(field('cobr.calendario.dataDeVencimento', `falls in the same ${rec.calendario.periodicidade.toLowerCase()} cycle as the cobr ${same.id} (${same.status}, due ${same.dataDeVencimento}); one charge a cycle`));
  }
  if (!isReceiverAccount(account, input.recebedor)) {
    const [own] = receiverAccountsOf(account);
    problems.push(field('cobr.recebedor.conta', `names none of the receiver's accounts; send conta ${own!.conta}, agencia ${own!.agencia}, tipoConta ${own!.tipoConta} (GET /_sandbox/accounts/{id} lists them as receiverAccounts)`));
  }
  if (due < today) problems.push(field('cobr.calendario.dataDeVencimento', `is before the day the charge is created (${dayText(today)}, Brasília)`));
  else if (due - today < COBR_WINDOW.latestDaysBefore || due - today > COBR_WINDOW.earliestDaysBefore)
    problems.push(
      field(
        'cobr.calendario.dataDeVencimento',
        `is ${due - today} day(s) away; a cobr is sent ${COBR_WINDOW.earliestDaysBefore} to ${COBR_WINDOW.latestDaysBefore} days before its due date (from ${dayText(today + COBR_WINDOW.latestDaysBefore)} to ${dayText(today + COBR_WINDOW.earliestDaysBefore)} today)`,
      ),
    );
  if (problems.length) throw validationError(problems);

  const cobr: CobR = {
    id: txid,
    accountId: account.id,
    idRec: input.idRec,
    createdAt: now,
    dataDeVencimento: input.dataDeVencimento,
    ajusteDiaUtil: input.ajusteDiaUtil,
    recebedor: input.recebedor.agencia === undefined ? { conta: input.recebedor.conta, tipoConta: input.recebedor.tipoConta } : { conta: input.recebedor.conta, tipoConta: input.recebedor.tipoConta, agencia: input.recebedor.agencia },
    original: input.original,
    status: 'CRIADA',
    atualizacao: [{ status: 'CRIADA', data: now }],
    tentativas: [],
  };
  if (input.infoAdicional !== undefined) cobr.infoAdicional = input.infoAdicional;
  if (input.devedor !== undefined) cobr.devedor = input.devedor;
  account.cobrs[txid] = cobr;
  rec!.cobrIds = [...(rec!.cobrIds ?? []), txid];
  recordCobRNotice(deps, account, cobr);
  deps.scheduler.schedule({ kind: COBR_SCHEDULE_JOB, dueAt: now, accountId: account.id, ref: txid });
  return cobr;
}

/** An attempt for Brasília day `day`, scheduled at the payer's PSP, and its debit at 06:00 of that day. */
function scheduleAttempt(deps: Deps, account: Account, cobr: CobR, day: number, tipo: Tentativa['tipo']) {
  const now = nowOf(deps, account);
  const t: Tentativa = {
    dataLiquidacao: dayText(day),
    tipo,
    status: 'SOLICITADA',
    endToEndId: makeE2eId(deps.settings.ispb, new Date(debitInstant(day)), deps.ids.randomInt),
    atualizacao: [{ status: 'SOLICITADA', data: now }],
  };
  mark(t, 'AGENDADA', now);
  cobr.tentativas.push(t);
  deps.scheduler.schedule({ kind: COBR_DEBIT_JOB, dueAt: debitInstant(day), accountId: account.id, ref: cobr.id });
}

/** The payer's PSP took the cobr: ATIVA, with its first attempt for the settlement day. */
function activate(deps: Deps, account: Account, cobr: CobR) {
  moveTo(COBR_TRANSITIONS, 'cobr', cobr, 'ATIVA', nowOf(deps, account), 'schedule');
  scheduleAttempt(deps, account, cobr, settlementDay(cobr), 'AGND');
  recordCobRNotice(deps, account, cobr);
}

/** The attempt fails (no funds, or above the payer's maximum): REJEITADA; the recurrence's policy decides what becomes of the cobr. */
function failAttempt(deps: Deps, account: Account, cobr: CobR, t: Tentativa, rec: Rec | undefined, reason: { codigo: string; descricao: string } = NO_FUNDS) {
  const now = nowOf(deps, account);
  mark(t, 'REJEITADA', now);
  t.rejeicao = { ...reason };
  if (rec?.politicaRetentativa !== 'PERMITE_3R_7D') {
    moveTo(COBR_TRANSITIONS, 'cobr', cobr, 'REJEITADA', now, 'reject');
    cobr.encerramento = { rejeicao: { ...reason } };
  } else if (cobr.tentativas.length === 1) {
    // The end of the retry days: past it, a cobr still unpaid is EXPIRADA.
    deps.scheduler.schedule({ kind: COBR_EXPIRE_JOB, dueAt: retryDaysEnd(cobr), accountId: account.id, ref: cobr.id });
  }
  recordCobRNotice(deps, account, cobr);
}

/** The debit of the scheduled attempt goes through: a core charge paid by the payer, the cobr CONCLUIDA with its pix. */
function settle(deps: Deps, account: Account, cobr: CobR, t: Tentativa, rec: Rec | undefined) {
  const devedor = rec?.vinculo.devedor;
  // A Pix like any other (GET /pix, devoluções): its charge carries the cobr's txid and the recurrence's idRec.
  const { tx } = createCharge(
    deps,
    { account, wallet: mainWallet(account), subAccount: null },
    { amount: cobr.original, description: cobr.infoAdicional ?? `cobr ${cobr.id}`, expiresIn: 86_400, apiPix: { txid: cobr.id, idRec: cobr.idRec } },
    undefined,
    { paying: true },
  );
  payCharge(deps, account, tx.id, { ...(devedor ? { payerName: devedor.nome } : {}), ...((rec?.pagador?.cpf ?? rec?.pagador?.cnpj ?? devedor?.cpf ?? devedor?.cnpj) ? { payerDocument: rec?.pagador?.cpf ?? rec?.pagador?.cnpj ?? devedor?.cpf ?? devedor?.cnpj } : {}) });
  const now = nowOf(deps, account);
  t.endToEndId = tx.e2eId!;
  mark(t, 'PAGA', now);
  cobr.transactionId = tx.id;
  moveTo(COBR_TRANSITIONS, 'cobr', cobr, 'CONCLUIDA', now, 'settle');
  recordCobRNotice(deps, account, cobr);
}

/** Runs the debit of a cobr's scheduled attempt now: it fails if `fail` (or the debtor is the magic one without funds). */
function debit(deps: Deps, account: Account, cobr: CobR, fail: boolean) {
  const t = scheduledAttempt(cobr)!;
  const rec = findRec(account, cobr.idRec);
  if (fail || (rec && recMagic(account, rec) === 'rec_no_funds')) failAttempt(deps, account, cobr, t, rec);
  else if (rec?.valorMaximoPagador !== undefined && cobr.original > rec.valorMaximoPagador) failAttempt(deps, account, cobr, t, rec, ABOVE_PAYER_MAXIMUM);
  else settle(deps, account, cobr, t, rec);
}

/** POST /_sandbox/api-pix/cobr/{txid}/fail: the scheduled attempt fails now, as a debtor without funds makes it. */
export function failCobRDebit(deps: Deps, account: Account, cobr: CobR): CobR {
  if (cobr.status !== 'ATIVA' || !scheduledAttempt(cobr))
    throw new SandboxError('INVALID_STATE_TRANSITION', `The cobr ${cobr.id} is ${cobr.status} and has no attempt scheduled; only a debit scheduled (an ATIVA cobr's AGENDADA attempt) can fail.`, { from: cobr.status, action: 'fail' });
  debit(deps, account, cobr, true);
  return cobr;
}

/** POST /cobr/{txid}/retentativa/{data}: another attempt on `data`, as the recurrence's policy allows. */
export function retryCobR(deps: Deps, account: Account, txid: string, data: string): CobR {
  const cobr = getCobR(account, txid);
  const rec = findRec(account, cobr.idRec);
  const today = brtDay(nowOf(deps, account));
  const day = dayOf(data);
  const first = settlementDay(cobr);
  const problems: FieldError[] = [];
  if (rec?.politicaRetentativa !== 'PERMITE_3R_7D') problems.push(field('cobr.politicaRetentativa', "the recurrence's policy (NAO_PERMITE) does not allow retries"));
  else if (cobr.status !== 'ATIVA') problems.push(field('cobr.status', `the cobr is ${cobr.status}; only an ATIVA cobr whose debit failed is retried`));
  else if (scheduledAttempt(cobr)) problems.push(field('cobr.tentativas', `an attempt is already scheduled (${scheduledAttempt(cobr)!.dataLiquidacao}, ${scheduledAttempt(cobr)!.status}); wait for its outcome`));
  else if (cobr.tentativas.length - 1 >= RETRY_POLICY.retries) problems.push(field('cobr.tentativas', `the ${RETRY_POLICY.retries} retries the policy allows were used`));
  else if (day <= today) problems.push(field('data', `must be a future day (after ${dayText(today)}, Brasília)`));
  else if (day > first + RETRY_POLICY.days) problems.push(field('data', `is past the ${RETRY_POLICY.days} days after the settlement day ${dayText(first)}: retry by ${dayText(first + RETRY_POLICY.days)}`));
  if (problems.length) throw validationError(problems);
  scheduleAttempt(deps, account, cobr, day, 'NTAG');
  recordCobRNotice(deps, account, cobr);
  return cobr;
}

/** PATCH /cobr/{txid} with status CANCELADA: the receiver cancels it before the day of its first attempt. */
export function cancelCobR(deps: Deps, account: Account, txid: string): CobR {
  const cobr = getCobR(account, txid);
  const today = brtDay(nowOf(deps, account));
  if (!isOpen(cobr)) throw validationError([field('cobr.status', `the cobr is ${cobr.status}; only a CRIADA or ATIVA cobr can be cancelled`)]);
  if (today >= settlementDay(cobr))
    throw validationError([field('cobr.status', `cannot be cancelled on or after the day of its first attempt (${dayText(settlementDay(cobr))}); today is ${dayText(today)}, Brasília`)]);
  endCobR(deps, account, cobr, 'USUARIO_RECEBEDOR', 'SLCR', 'Cancelamento solicitado pelo usuário recebedor.');
  return cobr;
}

function endCobR(deps: Deps, account: Account, cobr: CobR, solicitante: string, codigo: string, descricao: string) {
  const now = nowOf(deps, account);
  moveTo(COBR_TRANSITIONS, 'cobr', cobr, 'CANCELADA', now, 'cancel');
  const t = scheduledAttempt(cobr);
  if (t) mark(t, 'CANCELADA', now);
  cobr.encerramento = { cancelamento: { solicitante, codigo, descricao } };
  recordCobRNotice(deps, account, cobr);
}

/** A recurrence ended: its charges not yet paid are cancelled with it. */
export function cancelOpenCobrs(deps: Deps, account: Account, rec: Rec, solicitante: 'USUARIO_PAGADOR' | 'USUARIO_RECEBEDOR') {
  for (const cobr of cobrsOf(account, rec)) {
    if (!isOpen(cobr)) continue;
    endCobR(deps, account, cobr, solicitante, solicitante === 'USUARIO_PAGADOR' ? 'SLBD' : 'SLCR', 'Recorrência cancelada: a cobrança foi cancelada com ela.');
  }
}

export function registerCobRJobs(deps: Deps) {
  const found = (accountId: string, txid: string) => {
    const account = deps.store.state.accounts[accountId];
    const cobr = account ? findCobR(account, txid) : undefined;
    return account && cobr ? { account, cobr } : undefined;
  };
  deps.scheduler.on(COBR_SCHEDULE_JOB, (job) => {
    const f = found(job.accountId, job.ref);
    if (f && f.cobr.status === 'CRIADA') activate(deps, f.account, f.cobr);
  });
  deps.scheduler.on(COBR_DEBIT_JOB, (job) => {
    const f = found(job.accountId, job.ref);
    if (!f || f.cobr.status !== 'ATIVA') return;
    const t = scheduledAttempt(f.cobr);
    // Moot when its attempt already ended (failed by the control API) or another one is due another day.
    if (!t || debitInstant(dayOf(t.dataLiquidacao)) !== job.dueAt) return;
    debit(deps, f.account, f.cobr, false);
  });
  deps.scheduler.on(COBR_EXPIRE_JOB, (job) => {
    const f = found(job.accountId, job.ref);
    if (!f || f.cobr.status !== 'ATIVA') return;
    const now = nowOf(deps, f.account);
    const t = scheduledAttempt(f.cobr);
    if (t) mark(t, 'EXPIRADA', now);
    moveTo(COBR_TRANSITIONS, 'cobr', f.cobr, 'EXPIRADA', now, 'expire');
    recordCobRNotice(deps, f.account, f.cobr);
  });
}
