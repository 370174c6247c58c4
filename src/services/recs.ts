// Pix Automático's recurrences (rec), their payload locations (locrec) and confirmation requests (solicrec), and the
// payer's side, which the sandbox plays: a request is sent and received at once (a job due at its creation), then the
// payer answers from the control API, from /pay, or by a magic debtor document (5 s after it was received). Every
// check runs before the first write, so a refused request leaves nothing behind; each move is a transition of its
// table with its instant in `atualizacao`, and each move of a recurrence is a notice to the webhookrec.
import type { Deps } from '../deps';
import { SandboxError, validationError, type FieldError } from '../domain/errors';
import { brtDay, dayOf, dayText, moneyText } from '../domain/api-pix';
import type { Cents } from '../domain/money';
import {
  COBR_WEBHOOK,
  findRec,
  recMagic,
  moveTo,
  REC_TRANSITIONS,
  REC_WEBHOOK,
  recIdOf,
  SOLICREC_TRANSITIONS,
  solicRecIdOf,
  type Rec,
  type RecLoc,
  type SolicRec,
} from '../domain/api-pix-rec';
import { MAGIC_DELAY_SECONDS } from '../domain/magic';
import type { Account, WebhookEndpoint } from '../domain/types';
import { extended } from '../lib/objects';
import { recordRecNotice } from '../webhooks/api-pix-rec';
import { buildWebhook } from './accounts';
import { nowOf } from './clocks';
import { cancelOpenCobrs } from './cobrs';
import { findCob, type CobRecord } from './cobs';

export { findRec };

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const SOLICREC_SEND_JOB = 'solicrec.send';
export const SOLICREC_EXPIRE_JOB = 'solicrec.expire';
export const SOLICREC_ANSWER_JOB = 'solicrec.magic-answer';
export const REC_END_JOB = 'rec.end';

/** The instant a recurrence with a dataFinal ends: 00:00 Brasília of the day after it (its last day is whole). */
export const recEndInstant = (dataFinal: string) => (dayOf(dataFinal) + 1) * 86_400_000 + 3 * 3_600_000;

/** Path of a recurrence's payload location (GET answers its JWS); its host is --public-host. */
export const recLocationPath = (loc: Pick<RecLoc, 'token'>) => `/api-pix/qr/v2/rec/${loc.token}`;
export const recLocationOf = (deps: Deps, loc: RecLoc) => `${deps.settings.publicHost}${recLocationPath(loc)}`;

/** What POST /rec asks for: the recurrence's own fields, and the location to bind by its id. */
export type RecInput = Pick<Rec, 'vinculo' | 'calendario' | 'valorRec' | 'valorMinimoRecebedor' | 'politicaRetentativa' | 'convenio' | 'txidJornada'> & { locId?: number };

export interface RecPatch {
  cancel?: boolean;
  locId?: number;
  dataInicial?: string;
  devedorNome?: string;
  txidJornada?: string;
}

const field = (name: string, message: string): FieldError => ({ field: name, message });
const ENDED = ['REJEITADA', 'EXPIRADA', 'CANCELADA'] as const;
const OPEN_SOLICREC = ['CRIADA', 'ENVIADA', 'RECEBIDA'] as const;

export function getRec(account: Account, idRec: string): Rec {
  const rec = findRec(account, idRec);
  if (!rec) throw new SandboxError('REC_NOT_FOUND', `No recurrence '${idRec}' in this account; create one with POST /api-pix/v2/rec (GET /api-pix/v2/rec lists them).`, { resource: 'rec', id: idRec });
  return rec;
}

/** A recurrence in any account, by its idRec (unique: it carries a random sequence), for the control API. */
export function locateRec(deps: Deps, idRec: string): { account: Account; rec: Rec } {
  for (const account of Object.values(deps.store.state.accounts)) {
    const rec = findRec(account, idRec);
    if (rec) return { account, rec };
  }
  throw new SandboxError('REC_NOT_FOUND', `No recurrence '${idRec}' in any account.`, { resource: 'rec', id: idRec });
}

export const recLocOf = (account: Account, rec: Rec): RecLoc | undefined => (rec.locId === undefined ? undefined : account.locrecs[String(rec.locId)]);

/** POST /locrec: a location not yet bound to a recurrence. */
export function createRecLoc(deps: Deps, account: Account): RecLoc {
  account.locrecs ??= {};
  const numericId = Object.keys(account.locrecs).length + 1;
  const loc: RecLoc = { id: String(numericId), numericId, token: deps.ids.token(24, TOKEN_ALPHABET), createdAt: nowOf(deps, account) };
  account.locrecs[loc.id] = loc;
  return loc;
}

export function getRecLoc(account: Account, id: number): RecLoc {
  const loc = Object.hasOwn(account.locrecs ?? {}, String(id)) ? account.locrecs[String(id)] : undefined;
  if (!loc) throw new SandboxError('PAYLOAD_LOCATION_REC_NOT_FOUND', `No recurrence payload location ${id} in this account; list them with GET /api-pix/v2/locrec.`, { resource: 'locrec', id: String(id) });
  return loc;
}

/** DELETE /locrec/{id}/idRec: the location stops serving its recurrence (which keeps its status, without a location). */
export function unbindRecLoc(account: Account, id: number): RecLoc {
  const loc = getRecLoc(account, id);
  if (loc.idRec !== undefined) {
    const rec = findRec(account, loc.idRec);
    if (rec) delete rec.locId;
    delete loc.idRec;
  }
  return loc;
}

/** The recurrence a payer's bank finds at a location URL (…/api-pix/qr/v2/rec/{token}, whatever the host), if any. */
export function recAtLocation(deps: Deps, location: string): { account: Account; rec: Rec } | undefined {
  const token = /\/api-pix\/qr\/v2\/rec\/([a-z0-9]+)$/.exec(location)?.[1];
  const found = token === undefined ? undefined : locateRecLocByToken(deps, token);
  const rec = found?.loc.idRec === undefined ? undefined : findRec(found.account, found.loc.idRec);
  return rec ? { account: found!.account, rec } : undefined;
}

/** The recurrence location a payer's bank reads, in any account, by its token. */
export function locateRecLocByToken(deps: Deps, token: string): { account: Account; loc: RecLoc } | undefined {
  for (const account of Object.values(deps.store.state.accounts)) for (const loc of Object.values(account.locrecs ?? {})) if (loc.token === token) return { account, loc };
  return undefined;
}

function usableLoc(account: Account, locId: number, idRec: string | undefined, problems: FieldError[]): RecLoc | undefined {
  const loc = Object.hasOwn(account.locrecs ?? {}, String(locId)) ? account.locrecs[String(locId)] : undefined;
  if (!loc) problems.push(field('rec.loc', `names no recurrence payload location of this account (${locId}); create one with POST /api-pix/v2/locrec or omit loc`));
  else if (loc.idRec !== undefined && loc.idRec !== idRec) problems.push(field('rec.loc', `is already used by the recurrence ${loc.idRec}; create another location with POST /api-pix/v2/locrec`));
  else return loc;
  return undefined;
}

function checkJornada(account: Account, txid: string, problems: FieldError[]) {
  const cob = Object.hasOwn(account.cobs ?? {}, txid) ? account.cobs[txid] : undefined;
  if (!cob || cob.kind !== 'cob') problems.push(field('rec.ativacao.dadosJornada.txid', `names no cob of this account ('${txid}'); create the immediate charge of the Jornada 3 first (PUT /api-pix/v2/cob/${txid})`));
}

/** POST /rec: a recurrence CRIADA, waiting for its payer's confirmation. */
export function createRec(deps: Deps, account: Account, input: RecInput): Rec {
  const now = nowOf(deps, account);
  const today = brtDay(now);
  const problems: FieldError[] = [];
  const { dataInicial, dataFinal } = input.calendario;
  if (dayOf(dataInicial) < today) problems.push(field('rec.calendario.dataInicial', `is before the day the recurrence is created (${dayText(today)}, Brasília)`));
  if (dataFinal !== undefined && dayOf(dataFinal) < dayOf(dataInicial)) problems.push(field('rec.calendario.dataFinal', `is before rec.calendario.dataInicial (${dataInicial})`));
  if (input.valorRec !== undefined && input.valorMinimoRecebedor !== undefined)
    problems.push(field('rec.valor', 'has both valorRec and valorMinimoRecebedor; send valorRec for a fixed value, or valorMinimoRecebedor for a variable one'));
  const loc = input.locId === undefined ? undefined : usableLoc(account, input.locId, undefined, problems);
  if (input.txidJornada !== undefined) checkJornada(account, input.txidJornada, problems);
  if (problems.length) throw validationError(problems);

  const id = recIdOf(input.politicaRetentativa, deps.settings.ispb, now, deps.ids.token(11, ALNUM));
  const rec: Rec = {
    id,
    accountId: account.id,
    createdAt: now,
    vinculo: input.vinculo,
    calendario: input.calendario,
    politicaRetentativa: input.politicaRetentativa,
    status: 'CRIADA',
    atualizacao: [{ status: 'CRIADA', data: now }],
    solicRecIds: [],
  };
  if (input.valorRec !== undefined) rec.valorRec = input.valorRec;
  if (input.valorMinimoRecebedor !== undefined) rec.valorMinimoRecebedor = input.valorMinimoRecebedor;
  if (input.convenio !== undefined) rec.convenio = input.convenio;
  if (input.txidJornada !== undefined) {
    rec.txidJornada = input.txidJornada;
    rec.tipoJornada = 'JORNADA_3';
  }
  if (loc) {
    rec.locId = loc.numericId;
    loc.idRec = id;
  }
  account.recs[id] = rec;
  if (input.calendario.dataFinal !== undefined) deps.scheduler.schedule({ kind: REC_END_JOB, dueAt: recEndInstant(input.calendario.dataFinal), accountId: account.id, ref: id });
  recordRecNotice(deps, account, rec);
  return rec;
}

/**
 * A recurrence reaches EXPIRADA (the document names the status, not when): when its confirmation request expires
 * unanswered while it was never approved (CRIADA), or when its dataFinal has passed (CRIADA or APROVADA). Its open
 * requests expire with it; the charges it already has keep their course (each is due within its validity).
 */
function expireRec(deps: Deps, account: Account, rec: Rec) {
  const now = nowOf(deps, account);
  moveTo(REC_TRANSITIONS, 'recurrence', rec, 'EXPIRADA', now, 'expire');
  const open = openSolicRecOf(account, rec);
  if (open) moveTo(SOLICREC_TRANSITIONS, 'solicrec', open, 'EXPIRADA', now, 'expire');
  recordRecNotice(deps, account, rec);
}

/** Ends a recurrence (cancelled by either side, or rejected): its open requests are cancelled and its open charges too. */
function endRec(deps: Deps, account: Account, rec: Rec, to: 'CANCELADA' | 'REJEITADA', encerramento: NonNullable<Rec['encerramento']>, action: string) {
  const now = nowOf(deps, account);
  moveTo(REC_TRANSITIONS, 'recurrence', rec, to, now, action);
  rec.encerramento = encerramento;
  const open = openSolicRecOf(account, rec);
  if (open) moveTo(SOLICREC_TRANSITIONS, 'solicrec', open, 'CANCELADA', now, action);
  cancelOpenCobrs(deps, account, rec, encerramento.cancelamento?.solicitante === 'USUARIO_PAGADOR' ? 'USUARIO_PAGADOR' : 'USUARIO_RECEBEDOR');
  recordRecNotice(deps, account, rec);
}

/** PATCH /rec/{idRec}: cancels it (status CANCELADA), or changes its location, first day, debtor's name or Jornada 3 charge. */
export function reviseRec(deps: Deps, account: Account, idRec: string, patch: RecPatch): Rec {
  const rec = getRec(account, idRec);
  const problems: FieldError[] = [];
  if ((ENDED as readonly string[]).includes(rec.status)) throw validationError([field('rec.status', `the recurrence is ${rec.status}: an expired, cancelled or rejected recurrence cannot be revised`)]);
  const created = rec.status === 'CRIADA';
  if (patch.locId !== undefined && !created) problems.push(field('rec.loc', `can only change while the recurrence is CRIADA (it is ${rec.status})`));
  if (patch.dataInicial !== undefined && !created) problems.push(field('rec.calendario.dataInicial', `can only change while the recurrence is CRIADA (it is ${rec.status})`));
  if (patch.dataInicial !== undefined && dayOf(patch.dataInicial) < brtDay(rec.createdAt)) problems.push(field('rec.calendario.dataInicial', `is before the day the recurrence was created (${dayText(brtDay(rec.createdAt))}, Brasília)`));
  if (patch.dataInicial !== undefined && rec.calendario.dataFinal !== undefined && dayOf(patch.dataInicial) > dayOf(rec.calendario.dataFinal))
    problems.push(field('rec.calendario.dataInicial', `is after rec.calendario.dataFinal (${rec.calendario.dataFinal})`));
  const loc = patch.locId === undefined || !created ? undefined : usableLoc(account, patch.locId, rec.id, problems);
  if (patch.txidJornada !== undefined) checkJornada(account, patch.txidJornada, problems);
  if (patch.cancel && Object.keys(patch).length > 1) problems.push(field('rec.status', 'CANCELADA must come alone: send the cancellation or the changes'));
  if (problems.length) throw validationError(problems);

  if (patch.cancel) {
    endRec(deps, account, rec, 'CANCELADA', { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento solicitado pelo usuário recebedor.' } }, 'cancel');
    return rec;
  }
  if (loc && loc.numericId !== rec.locId) {
    const before = recLocOf(account, rec);
    if (before) delete before.idRec;
    loc.idRec = rec.id;
    rec.locId = loc.numericId;
  }
  if (patch.dataInicial !== undefined) rec.calendario = extended(rec.calendario, { dataInicial: patch.dataInicial });
  if (patch.devedorNome !== undefined) rec.vinculo = extended(rec.vinculo, { devedor: extended(rec.vinculo.devedor, { nome: patch.devedorNome }) });
  if (patch.txidJornada !== undefined) {
    rec.txidJornada = patch.txidJornada;
    rec.tipoJornada = 'JORNADA_3';
  }
  return rec;
}

/** The journey a QR Composto serves: the recurrence alone (2), with an immediate cob (3) or a cobv (4). */
export type QrJourney = { jornada: 'JORNADA_2' } | { jornada: 'JORNADA_3' | 'JORNADA_4'; charge: CobRecord };

/** The kind of charge a recurrence's activation journey asks for; the others take any (or none). */
const JOURNEY_CHARGE = { JORNADA_3: 'cob', JORNADA_4: 'cobv' } as const;

/**
 * GET /rec/{idRec}?txid: the QR Composto the receiver asks for (the document's dadosQR table): without txid the
 * recurrence's own (Jornada 2), with a cob's txid the cob's and the recurrence's (3), with a cobv's (4). A txid of no
 * charge, of a charge of the other kind than the recurrence's tipoJornada, or of a cob other than its
 * dadosJornada.txid is refused (RecConsultaInvalida), as the document lists.
 */
export function recQrJourney(account: Account, rec: Rec, txid: string | undefined): QrJourney {
  if (txid === undefined) return { jornada: 'JORNADA_2' };
  const charge = findCob(account, 'cob', txid) ?? findCob(account, 'cobv', txid);
  if (!charge) throw validationError([field('txid', `names no cob or cobv of this account ('${txid}'); give the txid of the charge to show with the recurrence, or none for the recurrence's own QR`)]);
  const kind = charge.cob.kind;
  const wanted = rec.tipoJornada === 'JORNADA_3' || rec.tipoJornada === 'JORNADA_4' ? JOURNEY_CHARGE[rec.tipoJornada] : undefined;
  if (wanted && wanted !== kind) throw validationError([field('txid', `is a ${kind}, but the recurrence's ativacao.tipoJornada is ${rec.tipoJornada}, which pairs with a ${wanted}`)]);
  if (kind === 'cob' && rec.txidJornada !== undefined && rec.txidJornada !== txid)
    throw validationError([field('txid', `is not the recurrence's immediate charge (ativacao.dadosJornada.txid ${rec.txidJornada}); give that txid, or a cobv's`)]);
  return { jornada: kind === 'cob' ? 'JORNADA_3' : 'JORNADA_4', charge };
}

/** POST /_sandbox/api-pix/rec/{idRec}/cancel: the payer cancels an approved recurrence from their bank. */
export function cancelRecByPayer(deps: Deps, account: Account, rec: Rec): Rec {
  endRec(deps, account, rec, 'CANCELADA', { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLDB', descricao: 'Cancelamento solicitado pelo usuário pagador.' } }, 'cancel');
  return rec;
}

// ---- solicrec ----

export interface SolicRecInput {
  idRec: string;
  dataExpiracaoSolicitacao: string;
  destinatario: SolicRec['destinatario'];
}

export function findSolicRec(account: Account, id: string): SolicRec | undefined {
  return Object.hasOwn(account.solicrecs ?? {}, id) ? account.solicrecs[id] : undefined;
}

export function getSolicRec(account: Account, id: string): SolicRec {
  const solic = findSolicRec(account, id);
  if (!solic) throw new SandboxError('SOLICREC_NOT_FOUND', `No confirmation request '${id}' in this account; send one with POST /api-pix/v2/solicrec.`, { resource: 'solicrec', id });
  return solic;
}

export function locateSolicRec(deps: Deps, id: string): { account: Account; solic: SolicRec } {
  for (const account of Object.values(deps.store.state.accounts)) {
    const solic = findSolicRec(account, id);
    if (solic) return { account, solic };
  }
  throw new SandboxError('SOLICREC_NOT_FOUND', `No confirmation request '${id}' in any account.`, { resource: 'solicrec', id });
}

/** POST /solicrec: a confirmation request of a CRIADA recurrence, sent to its payer at once. */
export function createSolicRec(deps: Deps, account: Account, input: SolicRecInput): SolicRec {
  const now = nowOf(deps, account);
  const rec = findRec(account, input.idRec);
  const problems: FieldError[] = [];
  if (!rec) problems.push(field('solicrec.idRec', `names no recurrence of this account ('${input.idRec}'); create one with POST /api-pix/v2/rec`));
  else if (rec.status !== 'CRIADA') problems.push(field('solicrec.idRec', `names a recurrence that is ${rec.status}; only a CRIADA recurrence is sent to its payer`));
  else {
    const open = openSolicRecOf(account, rec);
    if (open) problems.push(field('solicrec.idRec', `already has an active confirmation request (${open.id}, ${open.status}); cancel it with PATCH /api-pix/v2/solicrec/${open.id} or wait for its answer`));
  }
  const expiresAt = Date.parse(input.dataExpiracaoSolicitacao);
  if (expiresAt <= now) problems.push(field('solicrec.calendario.dataExpiracaoSolicitacao', `is not after the request's creation (${new Date(now).toISOString()}); give a later instant`));
  if (problems.length) throw validationError(problems);

  const solic: SolicRec = {
    id: solicRecIdOf(deps.settings.ispb, now, deps.ids.token(11, ALNUM)),
    accountId: account.id,
    idRec: input.idRec,
    createdAt: now,
    dataExpiracaoSolicitacao: new Date(expiresAt).toISOString(),
    destinatario: input.destinatario,
    status: 'CRIADA',
    atualizacao: [{ status: 'CRIADA', data: now }],
  };
  rec!.solicRecIds = [...(rec!.solicRecIds ?? solicRecsOf(account, rec!).map((s) => s.id)), solic.id];
  account.solicrecs[solic.id] = solic;
  deps.scheduler.schedule({ kind: SOLICREC_SEND_JOB, dueAt: now, accountId: account.id, ref: solic.id });
  deps.scheduler.schedule({ kind: SOLICREC_EXPIRE_JOB, dueAt: expiresAt, accountId: account.id, ref: solic.id });
  return solic;
}

/** The payer's PSP has it and shows it to the payer: ENVIADA, then RECEBIDA (a request already past it stays). */
function deliver(deps: Deps, account: Account, solic: SolicRec): void {
  const now = nowOf(deps, account);
  if (solic.status === 'CRIADA') moveTo(SOLICREC_TRANSITIONS, 'solicrec', solic, 'ENVIADA', now, 'send');
  if (solic.status === 'ENVIADA') moveTo(SOLICREC_TRANSITIONS, 'solicrec', solic, 'RECEBIDA', now, 'receive');
}

/**
 * The payer answers (the control API, /pay, or a magic debtor): a request not yet received is received first. Accepted,
 * the recurrence is APROVADA with its payer; rejected, REJEITADA.
 */
export function answerSolicRec(deps: Deps, account: Account, solic: SolicRec, accept: boolean, valorMaximoPagador?: Cents): SolicRec {
  const rec = getRec(account, solic.idRec);
  if (!(OPEN_SOLICREC as readonly string[]).includes(solic.status))
    throw new SandboxError('INVALID_STATE_TRANSITION', `The confirmation request ${solic.id} is ${solic.status}; only a CRIADA, ENVIADA or RECEBIDA request can be answered.`, { from: solic.status, action: accept ? 'accept' : 'reject' });
  if (valorMaximoPagador !== undefined) checkPayerMaximum(rec, valorMaximoPagador);
  const now = nowOf(deps, account);
  deliver(deps, account, solic);
  moveTo(SOLICREC_TRANSITIONS, 'solicrec', solic, accept ? 'ACEITA' : 'REJEITADA', now, accept ? 'accept' : 'reject');
  const d = solic.destinatario;
  decideRec(deps, account, rec, accept, { ...(d.cpf !== undefined ? { cpf: d.cpf } : { cnpj: d.cnpj! }), ispbParticipante: d.ispbParticipante });
  if (accept && valorMaximoPagador !== undefined) rec.valorMaximoPagador = valorMaximoPagador;
  return solic;
}

/**
 * The payer's maximum for each debit, given when approving: only for a variable value (a fixed valorRec is the value
 * of every charge) and never below the receiver's floor, valorMinimoRecebedor (the document's RecSolicitada.valor).
 */
function checkPayerMaximum(rec: Rec, max: Cents) {
  if (rec.valorRec !== undefined)
    throw validationError([field('valorMaximoPagador', `the recurrence has a fixed value (valorRec ${moneyText(rec.valorRec)}), which every charge takes; a payer's maximum is for a variable value: omit it`)]);
  if (rec.valorMinimoRecebedor !== undefined && max < rec.valorMinimoRecebedor)
    throw validationError([field('valorMaximoPagador', `is below the receiver's floor (valorMinimoRecebedor ${moneyText(rec.valorMinimoRecebedor)}); send at least ${moneyText(rec.valorMinimoRecebedor)}`)]);
}

/** The payer's answer on the recurrence: APROVADA with its payer (Jornada 1 unless a QR said otherwise), or REJEITADA. */
function decideRec(deps: Deps, account: Account, rec: Rec, accept: boolean, pagador: NonNullable<Rec['pagador']>) {
  if (!accept) return endRec(deps, account, rec, 'REJEITADA', { rejeicao: { codigo: 'AP13', descricao: 'Recorrência rejeitada pelo usuário pagador.' } }, 'reject');
  moveTo(REC_TRANSITIONS, 'recurrence', rec, 'APROVADA', nowOf(deps, account), 'approve');
  rec.pagador = pagador;
  rec.tipoJornada ??= 'JORNADA_1';
  recordRecNotice(deps, account, rec);
}

/**
 * The payer answers a recurrence read from its QR on /pay (Jornada 2: its own code; 3 or 4: with a cob or cobv,
 * which the caller has paid first). A confirmation request waiting for the payer is answered as
 * POST /_sandbox/api-pix/solicrec/{id}/accept|reject answers it; without one the recurrence is approved or rejected
 * alike, its payer the debtor of its vinculo at the sandbox's PSP.
 */
export function answerRecFromQr(deps: Deps, account: Account, rec: Rec, accept: boolean, jornada: 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4'): Rec {
  if (rec.status !== 'CRIADA')
    throw new SandboxError('INVALID_STATE_TRANSITION', `The recurrence ${rec.id} is ${rec.status}; only a CRIADA recurrence waits for its payer's answer.`, { from: rec.status, action: accept ? 'authorise' : 'decline' });
  if (accept) rec.tipoJornada = jornada;
  const solic = openSolicRecOf(account, rec);
  if (solic) answerSolicRec(deps, account, solic, accept);
  else {
    const { cpf, cnpj } = rec.vinculo.devedor;
    decideRec(deps, account, rec, accept, { ...(cpf !== undefined ? { cpf } : { cnpj: cnpj! }), ispbParticipante: deps.settings.ispb });
  }
  return rec;
}

/** The confirmation requests of `rec`, oldest first (by its index; a recurrence stored before it had one, by a scan). */
export const solicRecsOf = (account: Account, rec: Rec): SolicRec[] =>
  rec.solicRecIds ? rec.solicRecIds.map((id) => account.solicrecs[id]!).filter(Boolean) : Object.values(account.solicrecs ?? {}).filter((s) => s.idRec === rec.id);

/** The confirmation request of `rec` still waiting for an answer, if any (at most one: POST /solicrec refuses a second). */
export const openSolicRecOf = (account: Account, rec: Rec): SolicRec | undefined => solicRecsOf(account, rec).find((s) => (OPEN_SOLICREC as readonly string[]).includes(s.status));

/** A confirmation request waiting for its payer, as the payer page shows it (its recurrence and receiver). */
export interface PendingAuthorisation {
  id: string;
  receiver: string;
  rec: Rec;
}

/** Every confirmation request not yet answered, in every account, oldest first (the payer page lists them). */
export function pendingAuthorisations(deps: Deps): PendingAuthorisation[] {
  const out: PendingAuthorisation[] = [];
  for (const account of Object.values(deps.store.state.accounts))
    for (const solic of Object.values(account.solicrecs ?? {})) {
      const rec = findRec(account, solic.idRec);
      if (rec && (OPEN_SOLICREC as readonly string[]).includes(solic.status)) out.push({ id: solic.id, receiver: account.name, rec });
    }
  return out;
}

/** PATCH /solicrec/{id} with status CANCELADA: the receiver withdraws a request not yet answered. */
export function cancelSolicRec(deps: Deps, account: Account, id: string): SolicRec {
  const solic = getSolicRec(account, id);
  if (!(OPEN_SOLICREC as readonly string[]).includes(solic.status))
    throw validationError([field('solicrec.status', `the request is ${solic.status}: only a CRIADA, ENVIADA or RECEBIDA request can be cancelled`)]);
  moveTo(SOLICREC_TRANSITIONS, 'solicrec', solic, 'CANCELADA', nowOf(deps, account), 'cancel');
  return solic;
}

export function registerRecJobs(deps: Deps) {
  const open = (accountId: string, id: string) => {
    const account = deps.store.state.accounts[accountId];
    const solic = account ? findSolicRec(account, id) : undefined;
    return account && solic && (OPEN_SOLICREC as readonly string[]).includes(solic.status) ? { account, solic } : undefined;
  };
  deps.scheduler.on(SOLICREC_SEND_JOB, (job) => {
    const found = open(job.accountId, job.ref);
    if (!found) return;
    deliver(deps, found.account, found.solic);
    const rec = findRec(found.account, found.solic.idRec);
    const magic = rec && recMagic(found.account, rec);
    if (magic) deps.scheduler.schedule({ kind: SOLICREC_ANSWER_JOB, dueAt: nowOf(deps, found.account) + MAGIC_DELAY_SECONDS * 1000, accountId: job.accountId, ref: job.ref });
  });
  deps.scheduler.on(SOLICREC_ANSWER_JOB, (job) => {
    const found = open(job.accountId, job.ref);
    const rec = found && findRec(found.account, found.solic.idRec);
    if (!found || !rec || rec.status !== 'CRIADA') return;
    answerSolicRec(deps, found.account, found.solic, recMagic(found.account, rec) !== 'rec_rejected');
  });
  deps.scheduler.on(SOLICREC_EXPIRE_JOB, (job) => {
    const found = open(job.accountId, job.ref);
    if (!found) return;
    const rec = findRec(found.account, found.solic.idRec);
    if (rec?.status === 'CRIADA') expireRec(deps, found.account, rec);
    else moveTo(SOLICREC_TRANSITIONS, 'solicrec', found.solic, 'EXPIRADA', nowOf(deps, found.account), 'expire');
  });
  deps.scheduler.on(REC_END_JOB, (job) => {
    const account = deps.store.state.accounts[job.accountId];
    const rec = account && findRec(account, job.ref);
    if (rec && (rec.status === 'CRIADA' || rec.status === 'APROVADA')) expireRec(deps, account, rec);
  });
}

// ---- webhookrec, webhookcobr ----

export type AutomaticoWebhook = typeof REC_WEBHOOK | typeof COBR_WEBHOOK;

export const automaticoWebhookOf = (account: Account, which: AutomaticoWebhook) => account.webhooks.find((w) => w.chave === which);

/** PUT /webhookrec, /webhookcobr: where the recurrences' (or recurring charges') changes are notified. */
export function putAutomaticoWebhook(deps: Deps, account: Account, which: AutomaticoWebhook, webhookUrl: string): WebhookEndpoint {
  const known = automaticoWebhookOf(account, which);
  if (known) {
    known.url = webhookUrl;
    return known;
  }
  const endpoint = extended(buildWebhook(deps, account, { url: webhookUrl }), { chave: which });
  account.webhooks.push(endpoint);
  return endpoint;
}

export function getAutomaticoWebhook(account: Account, which: AutomaticoWebhook): WebhookEndpoint {
  const endpoint = automaticoWebhookOf(account, which);
  if (!endpoint) throw new SandboxError('WEBHOOK_NOT_FOUND', `No ${which} is configured; configure one with PUT /api-pix/v2/${which}.`, { resource: 'webhook', id: which });
  return endpoint;
}

export function deleteAutomaticoWebhook(account: Account, which: AutomaticoWebhook): void {
  const endpoint = getAutomaticoWebhook(account, which);
  account.webhooks = account.webhooks.filter((w) => w !== endpoint);
}
