// GET /solicrec/{idSolicRec}: the confirmation request as it stands, with the recurrence it carries.
import type { Deps } from '../../../deps';
import { getSolicRec } from '../../../services/recs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { solicRecView } from '../rec/views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/solicrec/:idSolicRec', scoped(deps, 'solicrec.read'), (c) => {
    c.set('family', { invalid: 'RequisicaoInvalida' });
    const { account } = c.get('caller');
    return c.json(solicRecView(deps, account, getSolicRec(account, c.req.param('idSolicRec'))), 200);
  });
}
