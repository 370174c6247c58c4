// What lotecobv answers: a batch as the document's LoteCobVConsultado, each charge's request with its status, the
// charge's creation once the batch made it, and a refused request's Problema in the words PUT/PATCH /cobv/{txid}
// would have answered it (the document's rule for `problema`).
import type { Deps } from '../../../deps';
import { SandboxError, type ErrorCode } from '../../../domain/errors';
import type { LoteCobV } from '../../../domain/types';
import { isoTime as iso } from '../../../lib/iso';
import { problemBody, toProblem, type Family } from '../problems';

export const LOTE_WRITE: Family = { invalid: 'LoteCobVOperacaoInvalida', prefix: 'loteCobV' };
export const LOTE_READ: Family = { invalid: 'LoteCobVConsultaInvalida' };
/** The family of a refused charge's problema: that of PUT/PATCH /cobv/{txid}. */
const COBV_WRITE: Family = { invalid: 'CobVOperacaoInvalida', prefix: 'cobv' };

export function loteView(deps: Deps, lote: LoteCobV) {
  return {
    id: lote.numericId,
    descricao: lote.descricao,
    criacao: iso(lote.createdAt),
    cobsv: lote.cobsv.map((e) => ({
      txid: e.txid,
      status: e.status,
      ...(e.criacao === undefined ? {} : { criacao: iso(e.criacao) }),
      ...(e.status === 'NEGADA' && e.refusal ? { problema: problemBody(toProblem(new SandboxError(e.refusal.code as ErrorCode, e.refusal.message, e.refusal.details), COBV_WRITE, deps.log)) } : {}),
    })),
  };
}
