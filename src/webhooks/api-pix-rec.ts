// Pix Automático's records as the document shows them (RecNotification, CobRNotification and the parts the face's
// answers share with them) and the notices: each status change of a recurrence is posted as {"recs":[...]} to the
// account's webhookrec, of a recurring charge as {"cobsr":[...]} to its webhookcobr, through the delivery log and its
// retries like every notice. Built here, below the faces, as webhooks/api-pix.ts builds the Pix notice.
import type { Deps } from '../deps';
import { moneyText } from '../domain/api-pix';
import { COBR_WEBHOOK, REC_WEBHOOK, type CobR, type Rec, type StatusMark } from '../domain/api-pix-rec';
import type { Account } from '../domain/types';
import { COBR_EVENT, REC_EVENT } from '../domain/events';
import { mainWallet } from '../domain/subaccounts';
import { isoTime as iso } from '../lib/iso';
import { recordBody } from './events';
import { devolucaoEntry } from './devolucao';
import { refundsOf } from '../domain/claims';

export const historyView = <S extends string>(marks: StatusMark<S>[]) => marks.map((m) => ({ status: m.status, data: iso(m.data) }));

/** What a recurrence's notice carries (RecNotification); the face's answers add the rest to it. */
export function recStatusView(rec: Rec) {
  return {
    idRec: rec.id,
    status: rec.status,
    atualizacao: historyView(rec.atualizacao),
    ...(rec.encerramento ? { encerramento: rec.encerramento } : {}),
    // Always there: AGUARDANDO_DEFINICAO is the document's value from creation until the payer's journey is known
    // (RecAtivacao); a recurrence created with a Jornada 3 cob shows JORNADA_3 from the start, as its recResponse1 does.
    ativacao: { tipoJornada: rec.tipoJornada ?? 'AGUARDANDO_DEFINICAO', ...(rec.txidJornada ? { dadosJornada: { txid: rec.txidJornada } } : {}) },
  };
}

/** The Pix of a settled cobr (PixAutomatico), with its devoluções (DevolucaoPixAutomatico). */
function cobrPix(account: Account, cobr: CobR) {
  const tx = cobr.transactionId === undefined ? undefined : account.transactions[cobr.transactionId];
  if (!tx || tx.status !== 'completed') return undefined;
  const refunds = refundsOf(account, tx.id);
  return [{ endToEndId: tx.e2eId!, txid: cobr.id, valor: moneyText(tx.amount), horario: iso(tx.paidAt!), ...(refunds.length ? { devolucoes: refunds.map(devolucaoEntry) } : {}) }];
}

/** What a recurring charge's notice carries (CobRNotification); the face's answers add the rest to it. */
export function cobrStatusView(account: Account, cobr: CobR) {
  const pix = cobrPix(account, cobr);
  return {
    idRec: cobr.idRec,
    txid: cobr.id,
    status: cobr.status,
    atualizacao: historyView(cobr.atualizacao),
    ...(cobr.encerramento ? { encerramento: cobr.encerramento } : {}),
    ...(cobr.tentativas.length
      ? {
          tentativas: cobr.tentativas.map((t) => ({
            dataLiquidacao: t.dataLiquidacao,
            tipo: t.tipo,
            status: t.status,
            endToEndId: t.endToEndId,
            atualizacao: historyView(t.atualizacao),
            ...(t.rejeicao ? { rejeicao: t.rejeicao } : {}),
          })),
        }
      : {}),
    ...(pix ? { pix } : {}),
  };
}

const hasWebhook = (account: Account, chave: string) => account.webhooks.some((w) => w.chave === chave && w.url !== null);

/** Tells the account's webhookrec (if any) that the recurrence moved. */
export function recordRecNotice(deps: Deps, account: Account, rec: Rec): void {
  if (!hasWebhook(account, REC_WEBHOOK)) return;
  const eventId = `rec_${rec.id}_${rec.atualizacao.length}`;
  recordBody(deps, account, mainWallet(account), REC_EVENT, eventId, JSON.stringify({ recs: [recStatusView(rec)] }), REC_WEBHOOK);
}

/** Tells the account's webhookcobr (if any) that the recurring charge or one of its attempts moved. */
export function recordCobRNotice(deps: Deps, account: Account, cobr: CobR, devolucoesEnded = 0): void {
  if (!hasWebhook(account, COBR_WEBHOOK)) return;
  const moves = cobr.atualizacao.length + cobr.tentativas.reduce((n, t) => n + t.atualizacao.length, 0);
  // A devolução that ends tells the cobr again (its pix.devolucoes changed, not its moves).
  const eventId = `cobr_${cobr.id}_${moves}${devolucoesEnded ? `_d${devolucoesEnded}` : ''}`;
  recordBody(deps, account, mainWallet(account), COBR_EVENT, eventId, JSON.stringify({ cobsr: [cobrStatusView(account, cobr)] }), COBR_WEBHOOK);
}
