// GET /rec/{idRec}: the recurrence as it stands, with its payer once approved and its confirmation requests.
import type { Deps } from '../../../deps';
import { getRec } from '../../../services/recs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { REC_READ } from './input';
import { recView } from './views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/rec/:idRec', scoped(deps, 'rec.read'), (c) => {
    c.set('family', REC_READ);
    const { account } = c.get('caller');
    return c.json(recView(deps, account, getRec(account, c.req.param('idRec')), true), 200);
  });
}
