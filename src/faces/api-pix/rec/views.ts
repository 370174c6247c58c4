// Pix Automático's answers, shaped as the document's schemas (RecCompleta, RecGerada, RecPayload, SolicRecCompleta,
// CobRCompleta, CobRGerada, PayloadLocationRecCompleta) from the records; the parts the notices share come from
// webhooks/api-pix-rec.ts.
import type { Deps } from '../../../deps';
import { moneyText } from '../../../domain/api-pix';
import { receiverAccountsOf, type CobR, type Rec, type RecLoc, type SolicRec } from '../../../domain/api-pix-rec';
import type { Account } from '../../../domain/types';
import { isoTime as iso } from '../../../lib/iso';
import { findRec, recLocationOf, recLocOf, solicRecsOf, type QrJourney } from '../../../services/recs';
import { buildRecBrCode, withRecurrence } from '../../../pix';
import { cobrStatusView, historyView, recStatusView } from '../../../webhooks/api-pix-rec';
import { cnpjOf, copyPaste } from '../views';

const opt = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

/** The receiver as the document shows it: the account's CNPJ (its CNPJ key) and name. */
const receiver = (account: Account) => ({ cnpj: cnpjOf(account) ?? '00000000000000', nome: account.name });

export const locRecView = (deps: Deps, loc: RecLoc) => ({ id: loc.numericId, location: recLocationOf(deps, loc), criacao: iso(loc.createdAt), ...opt('idRec', loc.idRec) });

const valorOf = (rec: Rec) =>
  rec.valorRec === undefined && rec.valorMinimoRecebedor === undefined
    ? {}
    : { valor: { ...opt('valorRec', rec.valorRec === undefined ? undefined : moneyText(rec.valorRec)), ...opt('valorMinimoRecebedor', rec.valorMinimoRecebedor === undefined ? undefined : moneyText(rec.valorMinimoRecebedor)) } };

/** RecGerada (POST, PATCH); with `full`, RecCompleta (GET): its payer and confirmation requests too. */
export function recView(deps: Deps, account: Account, rec: Rec, full = false) {
  const loc = recLocOf(account, rec);
  const { idRec, status, atualizacao, ...rest } = recStatusView(rec);
  return {
    idRec,
    vinculo: rec.vinculo,
    calendario: rec.calendario,
    ...valorOf(rec),
    recebedor: { ...receiver(account), ...opt('convenio', rec.convenio) },
    politicaRetentativa: rec.politicaRetentativa,
    status,
    ...(loc ? { loc: locRecView(deps, loc) } : {}),
    atualizacao,
    ...rest,
    ...(full && rec.pagador ? { pagador: rec.pagador } : {}),
    ...(full ? solicitacoes(deps, account, rec) : {}),
  };
}

/**
 * dadosQR of GET /rec/{idRec}: the QR Composto of the journey asked for, given only when the recurrence has a location
 * (and, for Jornadas 3 and 4, the charge too), as the document says.
 */
export function dadosQrView(deps: Deps, account: Account, rec: Rec, journey: QrJourney) {
  const loc = recLocOf(account, rec);
  if (!loc) return {};
  const recLocation = recLocationOf(deps, loc);
  if (journey.jornada === 'JORNADA_2') return { dadosQR: { jornada: journey.jornada, pixCopiaECola: buildRecBrCode({ recLocation, merchantName: account.name, merchantCity: account.city }) } };
  const code = copyPaste(deps, account, journey.charge);
  return code ? { dadosQR: { jornada: journey.jornada, pixCopiaECola: withRecurrence(code, recLocation) } } : {};
}

function solicitacoes(deps: Deps, account: Account, rec: Rec) {
  const list = solicRecsOf(account, rec);
  return list.length ? { solicitacao: list.map((s) => solicRecView(deps, account, s)) } : {};
}

/** What the recurrence's payload location serves, and a confirmation request carries (RecPayload). */
export function recPayloadView(deps: Deps, account: Account, rec: Rec) {
  return {
    idRec: rec.id,
    vinculo: rec.vinculo,
    calendario: rec.calendario,
    ...valorOf(rec),
    recebedor: { ...receiver(account), ispbParticipante: deps.settings.ispb },
    politicaRetentativa: rec.politicaRetentativa,
    atualizacao: historyView(rec.atualizacao),
  };
}

/** SolicRecCompleta. */
export function solicRecView(deps: Deps, account: Account, solic: SolicRec) {
  const rec = findRec(account, solic.idRec);
  return {
    idSolicRec: solic.id,
    idRec: solic.idRec,
    calendario: { dataExpiracaoSolicitacao: solic.dataExpiracaoSolicitacao },
    destinatario: solic.destinatario,
    status: solic.status,
    atualizacao: historyView(solic.atualizacao),
    ...(rec ? { recPayload: recPayloadView(deps, account, rec) } : {}),
  };
}

/** CobRCompleta (and CobRGerada, which it contains). */
export function cobrView(account: Account, cobr: CobR) {
  const rec = findRec(account, cobr.idRec);
  const { idRec, txid, status, ...rest } = cobrStatusView(account, cobr);
  return {
    idRec,
    txid,
    ...opt('infoAdicional', cobr.infoAdicional),
    calendario: { criacao: new Date(cobr.createdAt - 3 * 3_600_000).toISOString().slice(0, 10), dataDeVencimento: cobr.dataDeVencimento },
    valor: { original: moneyText(cobr.original) },
    status,
    politicaRetentativa: rec?.politicaRetentativa ?? 'NAO_PERMITE',
    ajusteDiaUtil: cobr.ajusteDiaUtil,
    ...opt('devedor', cobr.devedor),
    recebedor: { ...receiver(account), ...(cobr.recebedor ?? receiverAccountsOf(account)[0]) },
    ...rest,
  };
}
