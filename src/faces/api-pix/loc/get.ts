// GET /loc/{id}: a payload location, with the txid of the charge it serves.
import type { Deps } from '../../../deps';
import { getLoc } from '../../../services/cobs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { locId } from './id';
import { locView } from '../views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/loc/:id', scoped(deps, 'payloadlocation.read'), (c) => {
    c.set('family', { invalid: 'PayloadLocationConsultaInvalida' });
    return c.json(locView(deps, getLoc(c.get('caller').account, locId(c.req.param('id')))), 200);
  });
}
