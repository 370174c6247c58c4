// GET /cobr: the account's recurring charges created between inicio and fim, by idRec, the debtor's cpf or cnpj (of
// their recurrence), status and convenio, in pages.
import type { Deps } from '../../../deps';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check } from '../schemas';
import { paginate } from '../views';
import { CobRListQuery } from '../rec/schemas';
import { cobrView } from '../rec/views';
import { COBR_READ } from './input';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/cobr', scoped(deps, 'cobr.read'), (c) => {
    c.set('family', COBR_READ);
    const q = check(CobRListQuery, c.req.query(), COBR_READ);
    const { account } = c.get('caller');
    const [from, to] = [Date.parse(q.inicio), Date.parse(q.fim)];
    const cobrs = Object.values(account.cobrs).filter((cobr) => {
      const rec = account.recs[cobr.idRec];
      return (
        cobr.createdAt >= from &&
        cobr.createdAt <= to &&
        (q.idRec === undefined || cobr.idRec === q.idRec) &&
        (q.status === undefined || cobr.status === q.status) &&
        (q.cpf === undefined || rec?.vinculo.devedor.cpf === q.cpf) &&
        (q.cnpj === undefined || rec?.vinculo.devedor.cnpj === q.cnpj) &&
        (q.convenio === undefined || rec?.convenio === q.convenio)
      );
    });
    const { page, paginacao } = paginate(cobrs, q);
    const { 'paginacao.paginaAtual': _a, 'paginacao.itensPorPagina': _b, convenio, ...filters } = q;
    return c.json({ parametros: { ...filters, ...(convenio === undefined ? {} : { recebedor: { convenio } }), paginacao }, cobsr: page.map((cobr) => cobrView(account, cobr)) }, 200);
  });
}
