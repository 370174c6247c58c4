// GET /rec: the account's recurrences created between inicio and fim, by the debtor's cpf or cnpj, status, location
// and convenio, in pages (parametros.paginacao).
import type { Deps } from '../../../deps';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check } from '../schemas';
import { paginate } from '../views';
import { REC_READ } from './input';
import { RecListQuery } from './schemas';
import { recView } from './views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/rec', scoped(deps, 'rec.read'), (c) => {
    c.set('family', REC_READ);
    const q = check(RecListQuery, c.req.query(), REC_READ);
    const { account } = c.get('caller');
    const [from, to] = [Date.parse(q.inicio), Date.parse(q.fim)];
    const recs = Object.values(account.recs).filter(
      (r) =>
        r.createdAt >= from &&
        r.createdAt <= to &&
        (q.cpf === undefined || r.vinculo.devedor.cpf === q.cpf) &&
        (q.cnpj === undefined || r.vinculo.devedor.cnpj === q.cnpj) &&
        (q.status === undefined || r.status === q.status) &&
        (q.convenio === undefined || r.convenio === q.convenio) &&
        (q.locationPresente === undefined || (r.locId !== undefined) === q.locationPresente),
    );
    const { page, paginacao } = paginate(recs, q);
    const { 'paginacao.paginaAtual': _a, 'paginacao.itensPorPagina': _b, convenio, ...filters } = q;
    return c.json({ parametros: { ...filters, ...(convenio === undefined ? {} : { recebedor: { convenio } }), paginacao }, recs: page.map((r) => recView(deps, account, r, true)) }, 200);
  });
}
