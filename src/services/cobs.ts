// The standard API Pix face's charges (cob, cobv) and payload locations over the core: a cob is a charge of the core
// (createCharge, reviseCharge, endCharge), so paying, expiring and the console act on it as on any charge; what the
// standard adds (txid, revisao, key, location, a cobv's due-date rules) is kept in account.cobs and account.locs.
// Every check runs before the first write, so a refused request leaves nothing behind. The face acts on the account's
// main wallet (the standard knows no sub-accounts).
import type { Deps } from '../deps';
import { SandboxError, validationError, type FieldError } from '../domain/errors';
import { brtDay, cobStatus, cobvExpiresAt, dayOf, dayText, dueAmounts, lastPayableDay, REMOVED_BY_RECEIVER } from '../domain/api-pix';
import { mainWallet } from '../domain/subaccounts';
import type { Account, Cob, PayloadLoc, Transaction } from '../domain/types';
import type { Cents } from '../domain/money';
import { createCharge, endCharge, reviseCharge } from './charges';
import { opt, extended } from '../lib/objects';
import type { DueRules } from '../domain/types';
import { CLOCK_MAX_MS } from '../lib/clock';
import { nowOf } from './clocks';
import { recordWeight, roomForRecords } from './capacity';

export type CobKind = Cob['kind'];

/** Path of a payload location on the sandbox (GET answers the charge's JWS); its host is --public-host. */
export const apiPixLocationPath = (loc: Pick<PayloadLoc, 'tipoCob' | 'token'>) => `/api-pix/qr/v2/${loc.tipoCob === 'cobv' ? 'cobv/' : ''}${loc.token}`;
export const locationOf = (deps: Deps, loc: PayloadLoc) => `${deps.settings.publicHost}${apiPixLocationPath(loc)}`;
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** 24 characters: the longest --public-host (33) plus /api-pix/qr/v2/cobv/ still fits the 77 of a BR Code location. */
const TOKEN_LENGTH = 24;

/** What a PUT or POST asks for, already checked against the document's schema by the face. */
export interface CobInput {
  chave: string;
  original: Cents;
  modalidadeAlteracao?: number;
  /** cob only (seconds, default 86400). */
  expiracao?: number;
  /** cobv only: its calendar and value rules. */
  due?: Omit<DueRules, 'original'>;
  devedor?: Record<string, string>;
  recebedor?: Record<string, string>;
  solicitacaoPagador?: string;
  infoAdicionais?: Array<{ nome: string; valor: string }>;
  locId?: number;
}

export type CobPatch = Partial<CobInput> & { remove?: boolean };

export interface CobRecord {
  cob: Cob;
  tx: Transaction;
  loc: PayloadLoc | undefined;
}

const field = (kind: CobKind, name: string, message: string): FieldError => ({ field: `${kind}.${name}`, message });

export function findCob(account: Account, kind: CobKind, txid: string): CobRecord | undefined {
  const cob = Object.hasOwn(account.cobs ?? {}, txid) ? account.cobs[txid] : undefined;
  if (!cob || cob.kind !== kind) return undefined;
  return { cob, tx: account.transactions[cob.transactionId]!, loc: cob.locId === undefined ? undefined : account.locs[String(cob.locId)] };
}

export function getCob(account: Account, kind: CobKind, txid: string): CobRecord {
  const found = findCob(account, kind, txid);
  if (!found) throw new SandboxError('COB_NOT_FOUND', `No ${kind} with txid '${txid}' in this account; create it with PUT /api-pix/v2/${kind}/${txid}.`, { resource: kind, id: txid });
  return found;
}

/**
 * The cob or cobv of a txid for the control API. A txid is unique per receiver only (the standard), so two tenants may
 * hold the same one: with `accountId` the lookup stays in that tenant; without it, a txid held by more than one account
 * is a 409 that never picks one of them.
 */
export function locateCob(deps: Deps, txid: string, accountId?: string): { account: Account; record: CobRecord } {
  const accounts = accountId === undefined ? Object.values(deps.store.state.accounts) : [deps.store.account(accountId)];
  const holders = accounts.filter((a) => Object.hasOwn(a.cobs ?? {}, txid));
  if (holders.length === 0)
    throw new SandboxError('COB_NOT_FOUND', `No cob or cobv with txid '${txid}' in ${accountId === undefined ? 'any account' : `account ${accountId}`}.`, { resource: 'cob', id: txid });
  if (holders.length > 1)
    throw new SandboxError(
      'TXID_AMBIGUOUS',
      `${holders.length} accounts hold a cob or cobv with txid '${txid}' (a txid is unique per receiver only); name the account: POST /_sandbox/accounts/{id}/api-pix/cob/${txid}/pay, or ?account={id}.`,
      { resource: 'cob', id: txid, accounts: holders.length },
    );
  const account = holders[0]!;
  return { account, record: findCob(account, account.cobs[txid]!.kind, txid)! };
}

function newLoc(deps: Deps, account: Account, tipoCob: CobKind): PayloadLoc {
  account.locs ??= {};
  const numericId = Object.keys(account.locs).length + 1;
  const loc: PayloadLoc = { id: String(numericId), numericId, tipoCob, token: deps.ids.token(TOKEN_LENGTH, TOKEN_ALPHABET), createdAt: nowOf(deps, account) };
  account.locs[loc.id] = loc;
  return loc;
}

/** POST /loc: a location not yet bound to a charge. */
export const createLoc = (deps: Deps, account: Account, tipoCob: CobKind) => newLoc(deps, account, tipoCob);

export function getLoc(account: Account, id: number): PayloadLoc {
  const loc = Object.hasOwn(account.locs ?? {}, String(id)) ? account.locs[String(id)] : undefined;
  if (!loc) throw new SandboxError('PAYLOAD_LOCATION_NOT_FOUND', `No payload location ${id} in this account; list them with GET /api-pix/v2/loc.`, { resource: 'loc', id: String(id) });
  return loc;
}

/** DELETE /loc/{id}/txid: the location stops serving its charge (which keeps existing, without a location). */
export function unbindLoc(account: Account, id: number): PayloadLoc {
  const loc = getLoc(account, id);
  if (loc.txid !== undefined) {
    const cob = account.cobs[loc.txid];
    if (cob) delete cob.locId;
    delete loc.txid;
  }
  return loc;
}

/** The location a payer's bank reads, in any account, by its token. */
export function locateLocByToken(deps: Deps, token: string, tipoCob: CobKind): { account: Account; loc: PayloadLoc } | undefined {
  for (const account of Object.values(deps.store.state.accounts)) {
    for (const loc of Object.values(account.locs ?? {})) if (loc.token === token && loc.tipoCob === tipoCob) return { account, loc };
  }
  return undefined;
}

/** The location a cob asks for: one of the account's, of its kind, free (or already its own); problems are field errors. */
function usableLoc(account: Account, kind: CobKind, locId: number, txid: string, problems: FieldError[]): PayloadLoc | undefined {
  const loc = Object.hasOwn(account.locs ?? {}, String(locId)) ? account.locs[String(locId)] : undefined;
  if (!loc) problems.push(field(kind, 'loc.id', `names no payload location of this account (${locId}); create one with POST /api-pix/v2/loc or omit loc`));
  else if (loc.tipoCob !== kind) problems.push(field(kind, 'loc.id', `names a location of tipoCob '${loc.tipoCob}'; a ${kind} needs one of tipoCob '${kind}'`));
  else if (loc.txid !== undefined && loc.txid !== txid) problems.push(field(kind, 'loc.id', `is already used by the charge ${loc.txid}; create another location or omit loc`));
  else return loc;
  return undefined;
}

/** The semantic rules of the document for a charge's key and a cobv's calendar and value (the schema was checked by the face). */
function checkRules(deps: Deps, account: Account, kind: CobKind, input: Partial<CobInput>, createdAt: number, problems: FieldError[]) {
  if (input.chave !== undefined && !(account.pixKeys ?? []).some((k) => k.key === input.chave))
    problems.push(field(kind, 'chave', `is not a PIX key of this account; use one of ${(account.pixKeys ?? []).map((k) => k.key).join(', ') || '(none: add pixKeys to the account)'}`));
  const due = input.due;
  const original = input.original;
  if (!due || original === undefined) return;
  if (cobvExpiresAt(due) > CLOCK_MAX_MS)
    problems.push(field(kind, 'calendario.validadeAposVencimento', `takes the last day to pay (${dayText(lastPayableDay(due))}) past 9999-12-31; give an earlier dataDeVencimento or fewer days`));
  if (dayOf(due.dataDeVencimento) < brtDay(createdAt)) problems.push(field(kind, 'calendario.dataDeVencimento', `is before the day the charge was created (${new Date(createdAt - 3 * 3_600_000).toISOString().slice(0, 10)}, Brasília)`));
  const percent = (v: { modalidade: number; valorPerc: string }) => v.modalidade === 2;
  const ofOriginal = (v: { modalidade: number; valorPerc: string }) => (percent(v) ? Math.round((original * Number(v.valorPerc)) / 100) : Math.round(Number(v.valorPerc) * 100));
  if (due.abatimento && ofOriginal(due.abatimento) >= original) problems.push(field(kind, 'valor.abatimento', 'must be less than the original value (and less than 100%)'));
  const d = due.desconto;
  if (d) {
    if (d.modalidade <= 2) {
      if (!d.descontoDataFixa?.length) problems.push(field(kind, 'valor.desconto.descontoDataFixa', `is required with modalidade ${d.modalidade} (1 to 3 items of {data, valorPerc})`));
      if (d.valorPerc !== undefined) problems.push(field(kind, 'valor.desconto.valorPerc', `must be absent with modalidade ${d.modalidade}; give the values in descontoDataFixa`));
      for (const [i, e] of (d.descontoDataFixa ?? []).entries()) {
        if (ofOriginal({ modalidade: d.modalidade, valorPerc: e.valorPerc }) >= original) problems.push(field(kind, `valor.desconto.descontoDataFixa[${i}].valorPerc`, 'must be less than the original value (and less than 100%)'));
        if (dayOf(e.data) > dayOf(due.dataDeVencimento)) problems.push(field(kind, `valor.desconto.descontoDataFixa[${i}].data`, `must not be after calendario.dataDeVencimento (${due.dataDeVencimento})`));
      }
    } else {
      if (d.valorPerc === undefined) problems.push(field(kind, 'valor.desconto.valorPerc', `is required with modalidade ${d.modalidade}`));
      if (d.descontoDataFixa !== undefined) problems.push(field(kind, 'valor.desconto.descontoDataFixa', `must be absent with modalidade ${d.modalidade}; give valorPerc`));
      if (d.valorPerc !== undefined && ofOriginal({ modalidade: d.modalidade >= 5 ? 2 : 1, valorPerc: d.valorPerc }) >= original) problems.push(field(kind, 'valor.desconto.valorPerc', 'must be less than the original value (and less than 100%)'));
    }
  }
}

const customerOf = (devedor: Record<string, string> | undefined) => (devedor ? Object.assign({}, opt('name', devedor.nome), opt('document', devedor.cpf ?? devedor.cnpj), opt('email', devedor.email)) : undefined);
const describe = (kind: CobKind, txid: string, input: Pick<CobInput, 'solicitacaoPagador'>) => input.solicitacaoPagador ?? `${kind} ${txid}`;

/** PUT /cob/{txid}, POST /cob (txid made here), PUT /cobv/{txid}: a new charge of the core with its location. */
export function createCob(deps: Deps, account: Account, kind: CobKind, txidOrNone: string | undefined, input: CobInput): CobRecord {
  const now = nowOf(deps, account);
  const txid = txidOrNone ?? deps.ids.token(32);
  const problems: FieldError[] = [];
  if (Object.hasOwn(account.cobs ?? {}, txid))
    problems.push(field(kind, 'txid', `'${txid}' is already in use by a ${account.cobs[txid]!.kind} of this account; a txid names one charge. Use another txid, PATCH /api-pix/v2/${account.cobs[txid]!.kind}/${txid} to revise it, or POST /api-pix/v2/cob to get one made`));
  checkRules(deps, account, kind, input, now, problems);
  const chosen = input.locId === undefined ? undefined : usableLoc(account, kind, input.locId, txid, problems);
  if (problems.length) throw validationError(problems);
  // Its charge and the cob's infoAdicionais, checked before the location (its first write) as createCharge checks the charge.
  roomForRecords(deps, recordWeight({ infoAdicionais: input.infoAdicionais }));

  const due = input.due ? extended(input.due, { original: input.original }) : undefined;
  const loc = chosen ?? newLoc(deps, account, kind);
  const expiresIn = due ? Math.ceil((cobvExpiresAt(due) - now) / 1000) : (input.expiracao ?? 86_400);
  const { tx } = createCharge(deps, { account, wallet: mainWallet(account), subAccount: null }, {
    amount: input.original,
    description: describe(kind, txid, input),
    ...opt('customer', customerOf(input.devedor)),
    expiresIn,
    location: locationOf(deps, loc),
    apiPix: { txid, chave: input.chave },
    ...opt('due', due),
  });
  const cob: Cob = {
    id: txid,
    kind,
    transactionId: tx.id,
    revisao: 0,
    createdAt: now,
    chave: input.chave,
    ...(kind === 'cob' ? { expiracao: input.expiracao ?? 86_400 } : {}),
    ...opt('devedor', input.devedor),
    ...opt('recebedor', input.recebedor),
    ...opt('solicitacaoPagador', input.solicitacaoPagador),
    ...opt('infoAdicionais', input.infoAdicionais),
    ...opt('modalidadeAlteracao', input.modalidadeAlteracao),
    locId: loc.numericId,
  };
  account.cobs ??= {};
  account.cobs[txid] = cob;
  loc.txid = txid;
  return { cob, tx, loc };
}

/** PATCH /cob/{txid}, /cobv/{txid}: revises an ATIVA charge (revisao + 1), or removes it alone. */
export function reviseCob(deps: Deps, account: Account, kind: CobKind, txid: string, patch: CobPatch): CobRecord {
  const { cob, tx } = getCob(account, kind, txid);
  const status = cobStatus(tx);
  if (status !== 'ATIVA')
    throw new SandboxError('COB_NOT_ACTIVE', `The ${kind} ${txid} is ${status}; only an ATIVA charge can be revised or removed.`, { resource: kind, id: txid, status });
  const { remove, ...changes } = patch;
  if (remove) {
    if (Object.keys(changes).length > 0)
      throw validationError([field(kind, 'status', `REMOVIDA_PELO_USUARIO_RECEBEDOR must come alone: removing a charge while changing ${Object.keys(changes).join(', ')} makes no sense; send the changes or the removal`)]);
    endCharge(deps, account, tx.id, 'cancelled', 'remove');
    tx.charge!.endReason = REMOVED_BY_RECEIVER;
    cob.revisao += 1;
    return findCob(account, kind, txid)!;
  }
  const problems: FieldError[] = [];
  const due = kind === 'cobv' ? { ...tx.charge!.due!, ...changes.due, original: changes.original ?? tx.charge!.due!.original } : undefined;
  checkRules(deps, account, kind, { ...changes, ...(due ? { due, original: due.original } : {}) }, cob.createdAt, problems);
  const chosen = changes.locId === undefined ? undefined : usableLoc(account, kind, changes.locId, txid, problems);
  if (problems.length) throw validationError(problems);

  if (chosen && chosen.numericId !== cob.locId) {
    if (cob.locId !== undefined) delete account.locs[String(cob.locId)]!.txid;
    chosen.txid = txid;
    cob.locId = chosen.numericId;
  }
  if (changes.chave !== undefined) cob.chave = tx.charge!.apiPix!.chave = changes.chave;
  if (changes.expiracao !== undefined) cob.expiracao = changes.expiracao;
  for (const key of ['devedor', 'solicitacaoPagador', 'infoAdicionais', 'modalidadeAlteracao'] as const) if (changes[key] !== undefined) (cob as unknown as Record<string, unknown>)[key] = changes[key];
  if (due) tx.charge!.due = due;
  const loc = cob.locId === undefined ? undefined : account.locs[String(cob.locId)];
  reviseCharge(deps, account, tx.id, {
    ...opt('amount', changes.original),
    ...(changes.solicitacaoPagador !== undefined ? { description: describe(kind, txid, changes) } : {}),
    expiresAt: due ? cobvExpiresAt(due) : cob.createdAt + cob.expiracao! * 1000,
    ...(loc ? { location: locationOf(deps, loc) } : {}),
  });
  cob.revisao += 1;
  return findCob(account, kind, txid)!;
}

/** What a cobv costs on a Brasília day (its original for a cob). */
export const amountDue = (tx: Transaction, day: number): Cents => (tx.charge?.due ? dueAmounts(tx.charge.due, day).final : tx.amount);
