// GET /pix: the Pix received between inicio and fim (by settlement time), by txid, txIdPresente, devolucaoPresente
// and the payer's cpf or cnpj, in pages.
import type { Deps } from '../../../deps';
import { pixReceived } from '../../../services/pix-received';
import { pixEntry, refundsByPayment } from '../../../webhooks/api-pix';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check, ListQuery } from '../schemas';
import { paginate } from '../views';

export function register(app: ApiPixRouter, deps: Deps) {
  const family = { invalid: 'PixConsultaInvalida' } as const;
  app.get('/v2/pix', scoped(deps, 'pix.read'), (c) => {
    c.set('family', family);
    const q = check(ListQuery, c.req.query(), family);
    const { account } = c.get('caller');
    const [from, to] = [Date.parse(q.inicio), Date.parse(q.fim)];
    const refunds = refundsByPayment(account);
    const found = pixReceived(account).filter(
      (tx) =>
        tx.paidAt! >= from &&
        tx.paidAt! <= to &&
        (q.txid === undefined || tx.charge!.apiPix!.txid === q.txid) &&
        (q.txIdPresente === undefined || q.txIdPresente) &&
        (q.devolucaoPresente === undefined || refunds.has(tx.id) === q.devolucaoPresente) &&
        (q.cpf === undefined || tx.counterpartDocument === q.cpf) &&
        (q.cnpj === undefined || tx.counterpartDocument === q.cnpj),
    );
    const { page, paginacao } = paginate(found, q);
    const parametros = {
      inicio: q.inicio,
      fim: q.fim,
      ...(q.txid ? { txid: q.txid } : {}),
      ...(q.txIdPresente === undefined ? {} : { txIdPresente: q.txIdPresente }),
      ...(q.devolucaoPresente === undefined ? {} : { devolucaoPresente: q.devolucaoPresente }),
      ...(q.cpf ? { cpf: q.cpf } : {}),
      ...(q.cnpj ? { cnpj: q.cnpj } : {}),
      paginacao,
    };
    return c.json({ parametros, pix: page.map((tx) => pixEntry(tx, refunds.get(tx.id) ?? [])) }, 200);
  });
}
