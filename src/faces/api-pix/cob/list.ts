// GET /cob, GET /cobv: the account's charges created between inicio and fim, filtered by the debtor's cpf or cnpj,
// status and (cob) locationPresente, in pages (parametros.paginacao).
import type { Deps } from '../../../deps';
import { cobStatus } from '../../../domain/api-pix';
import { findCob, type CobKind } from '../../../services/cobs';
import { refundsByPayment } from '../../../webhooks/api-pix';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check, ListQuery } from '../schemas';
import { cobView, paginate } from '../views';
import { readFamily } from './input';

export function register(app: ApiPixRouter, deps: Deps, kind: CobKind) {
  const family = readFamily(kind);
  app.get(`/v2/${kind}`, scoped(deps, `${kind}.read`), (c) => {
    c.set('family', family);
    const q = check(ListQuery, c.req.query(), family);
    const { account } = c.get('caller');
    const [from, to] = [Date.parse(q.inicio), Date.parse(q.fim)];
    const records = Object.values(account.cobs ?? {})
      .filter((cob) => cob.kind === kind && cob.createdAt >= from && cob.createdAt <= to)
      .map((cob) => findCob(account, kind, cob.id)!)
      .filter(({ cob, tx }) => (q.cpf === undefined || cob.devedor?.cpf === q.cpf) && (q.cnpj === undefined || cob.devedor?.cnpj === q.cnpj) && (q.status === undefined || cobStatus(tx) === q.status))
      .filter(({ loc }) => q.locationPresente === undefined || (loc !== undefined) === q.locationPresente);
    const { page, paginacao } = paginate(records, q);
    const refunds = refundsByPayment(account);
    const parametros = { inicio: q.inicio, fim: q.fim, ...(q.cpf ? { cpf: q.cpf } : {}), ...(q.cnpj ? { cnpj: q.cnpj } : {}), ...(q.status ? { status: q.status } : {}), ...(q.locationPresente === undefined ? {} : { locationPresente: q.locationPresente }), paginacao };
    return c.json({ parametros, cobs: page.map((r) => cobView(deps, account, r, refunds.get(r.tx.id) ?? [])) }, 200);
  });
}
