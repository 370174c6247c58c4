// The standard API Pix face's record of a Pix received (its `Pix` schema) and the notice its webhook gets: each Pix of
// a charge of that face, posted as {"pix":[...]} to {webhookUrl}/pix of the webhook of the charge's key, when it is
// paid and again when one of its devoluções ends (DEVOLVIDO or NAO_REALIZADO), as the document's callback says. Built
// here, below the faces, like the service's event envelopes: the face's answers and the notices share it.
import type { Deps } from '../deps';
import { brtDay, dueAmounts, moneyText } from '../domain/api-pix';
import type { Account, Transaction } from '../domain/types';
import { recordBody } from './events';
import { devolucaoEntry } from './devolucao';
import { isoTime as iso } from '../lib/iso';
import { valuesOf } from '../lib/objects';
import { refundsOf } from '../domain/claims';
import { API_PIX_EVENT } from '../domain/events';
import { recordCobRNotice } from './api-pix-rec';


/** The refunds of each payment of an account, oldest first, found in one pass (lists call this once). */
export function refundsByPayment(account: Account): Map<string, Transaction[]> {
  const map = new Map<string, Transaction[]>();
  for (const tx of valuesOf(account.transactions)) {
    if (!tx.refund || !tx.relatedTransactionId) continue;
    const list = map.get(tx.relatedTransactionId) ?? [];
    list.push(tx);
    map.set(tx.relatedTransactionId, list);
  }
  return map;
}

/** A paid charge of the standard face as the document's `Pix`; a cobv shows what made up its value. */
export function pixEntry(payment: Transaction, refunds: Transaction[]) {
  const charge = payment.charge!;
  const parts = charge.due ? dueAmounts(charge.due, brtDay(payment.paidAt!)) : undefined;
  const component = (name: string, cents: number | undefined) => (cents ? { [name]: { valor: moneyText(cents) } } : {});
  return {
    endToEndId: payment.e2eId!,
    txid: charge.apiPix!.txid,
    valor: moneyText(payment.amount),
    componentesValor: {
      original: { valor: moneyText(parts?.original ?? payment.amount) },
      ...component('juros', parts?.juros),
      ...component('multa', parts?.multa),
      ...component('abatimento', parts?.abatimento),
      ...component('desconto', parts?.desconto),
    },
    ...(charge.apiPix!.chave === undefined ? {} : { chave: charge.apiPix!.chave }),
    horario: iso(payment.paidAt!),
    ...(charge.apiPix!.infoPagador === undefined ? {} : { infoPagador: charge.apiPix!.infoPagador }),
    ...(refunds.length > 0 ? { devolucoes: refunds.map(devolucaoEntry) } : {}),
  };
}

/**
 * Tells the webhook of the payment's key (if any) about the Pix as it now stands; a recurring charge's debit is told
 * through its cobr's notice instead (webhookcobr, its `pix` with their devoluções), once the cobr is settled by it.
 */
export function recordPixNotice(deps: Deps, account: Account, payment: Transaction): void {
  const { chave, idRec, txid } = payment.charge!.apiPix!;
  if (idRec !== undefined) {
    const cobr = Object.hasOwn(account.cobrs ?? {}, txid) ? account.cobrs[txid] : undefined;
    if (cobr?.transactionId === payment.id) recordCobRNotice(deps, account, cobr, refundsOf(account, payment.id).filter((r) => r.status !== 'pending').length);
    return;
  }
  if (chave === undefined || !account.webhooks.some((w) => w.chave === chave)) return;
  const entry = pixEntry(payment, refundsOf(account, payment.id));
  const eventId = `pix_${payment.e2eId}_${entry.devolucoes?.length ?? 0}_${deps.clocks.nowOf(account)}`;
  recordBody(deps, account, account.wallets[payment.walletId]!, API_PIX_EVENT, eventId, JSON.stringify({ pix: [entry] }), chave);
}
