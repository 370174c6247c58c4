// GET /locrec: the account's recurrence locations created between inicio and fim, by idRecPresente, in pages.
import type { Deps } from '../../../deps';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check } from '../schemas';
import { paginate } from '../views';
import { locRecView } from '../rec/views';
import { LocRecListQuery } from '../rec/schemas';

export function register(app: ApiPixRouter, deps: Deps) {
  const family = { invalid: 'PayloadLocationRecConsultaInvalida' } as const;
  app.get('/v2/locrec', scoped(deps, 'payloadlocationrec.read'), (c) => {
    c.set('family', family);
    const q = check(LocRecListQuery, c.req.query(), family);
    const [from, to] = [Date.parse(q.inicio), Date.parse(q.fim)];
    const locs = Object.values(c.get('caller').account.locrecs).filter((l) => l.createdAt >= from && l.createdAt <= to && (q.idRecPresente === undefined || (l.idRec !== undefined) === q.idRecPresente));
    const { page, paginacao } = paginate(locs, q);
    const parametros = { inicio: q.inicio, fim: q.fim, ...(q.idRecPresente === undefined ? {} : { idRecPresente: q.idRecPresente }), ...(q.convenio === undefined ? {} : { recebedor: { convenio: q.convenio } }), paginacao };
    return c.json({ parametros, loc: page.map((l) => locRecView(deps, l)) }, 200);
  });
}
