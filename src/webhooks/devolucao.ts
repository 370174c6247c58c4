// The API Pix devolução of a refund, as GET /pix/{e2eid}/devolucao/{id}, the Pix record and the notices carry it. Its
// own module so both webhook builders (webhooks/api-pix.ts, webhooks/api-pix-rec.ts) take it without importing each other.
import { DEVOLUCAO_STATUS, moneyText } from '../domain/api-pix';
import type { Transaction } from '../domain/types';
import { isoTime as iso } from '../lib/iso';

/** A refund of the core as a devolução: its id is the one it was asked under, or its transaction id without dashes. */
export function devolucaoEntry(refund: Transaction) {
  const r = refund.refund!;
  const status = DEVOLUCAO_STATUS[refund.status as keyof typeof DEVOLUCAO_STATUS];
  return {
    id: r.devolucaoId ?? refund.id.replaceAll('-', ''),
    rtrId: r.pspRefundTransactionId,
    valor: moneyText(refund.amount),
    natureza: 'ORIGINAL',
    ...(r.reason === undefined ? {} : { descricao: r.reason.slice(0, 140) }),
    horario: { solicitacao: iso(refund.createdAt), ...(r.refundedAt === undefined ? {} : { liquidacao: iso(r.refundedAt) }) },
    status,
    ...(status === 'NAO_REALIZADO' ? { motivo: (r.failureReason ?? 'NAO_REALIZADO').slice(0, 140) } : {}),
  };
}
