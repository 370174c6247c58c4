// GET /loc: the account's locations created between inicio and fim, by txIdPresente and tipoCob, in pages.
import type { Deps } from '../../../deps';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check, ListQuery } from '../schemas';
import { locView, paginate } from '../views';

export function register(app: ApiPixRouter, deps: Deps) {
  const family = { invalid: 'PayloadLocationConsultaInvalida' } as const;
  app.get('/v2/loc', scoped(deps, 'payloadlocation.read'), (c) => {
    c.set('family', family);
    const q = check(ListQuery, c.req.query(), family);
    const [from, to] = [Date.parse(q.inicio), Date.parse(q.fim)];
    const locs = Object.values(c.get('caller').account.locs ?? {}).filter(
      (l) => l.createdAt >= from && l.createdAt <= to && (q.tipoCob === undefined || l.tipoCob === q.tipoCob) && (q.txIdPresente === undefined || (l.txid !== undefined) === q.txIdPresente),
    );
    const { page, paginacao } = paginate(locs, q);
    const parametros = { inicio: q.inicio, fim: q.fim, ...(q.tipoCob ? { tipoCob: q.tipoCob } : {}), ...(q.txIdPresente === undefined ? {} : { txIdPresente: q.txIdPresente }), paginacao };
    return c.json({ parametros, loc: page.map((l) => locView(deps, l)) }, 200);
  });
}
