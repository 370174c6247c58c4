// GET /lotecobv/{id}: the batch, each charge's request with its status (and its problema when NEGADA). Each charge
// the batch created is also an ordinary cobv: GET /cobv/{txid}.
import type { Deps } from '../../../deps';
import { getLote } from '../../../services/lotes-cobv';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { LOTE_READ, loteView } from './view';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/lotecobv/:id', scoped(deps, 'lotecobv.read'), (c) => {
    c.set('family', LOTE_READ);
    return c.json(loteView(deps, getLote(c.get('caller').account, c.req.param('id'))), 200);
  });
}
