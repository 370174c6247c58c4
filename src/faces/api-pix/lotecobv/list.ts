// GET /lotecobv: the account's batches created between inicio and fim, in pages (parametros.paginacao).
import type { Deps } from '../../../deps';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check, LoteListQuery } from '../schemas';
import { paginate } from '../views';
import { LOTE_READ, loteView } from './view';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/lotecobv', scoped(deps, 'lotecobv.read'), (c) => {
    c.set('family', LOTE_READ);
    const q = check(LoteListQuery, c.req.query(), LOTE_READ);
    const [from, to] = [Date.parse(q.inicio), Date.parse(q.fim)];
    const lotes = Object.values(c.get('caller').account.lotesCobV ?? {})
      .filter((l) => l.createdAt >= from && l.createdAt <= to)
      .sort((a, b) => a.createdAt - b.createdAt || a.numericId - b.numericId);
    const { page, paginacao } = paginate(lotes, q);
    return c.json({ parametros: { inicio: q.inicio, fim: q.fim, paginacao }, lotes: page.map((l) => loteView(deps, l)) }, 200);
  });
}
