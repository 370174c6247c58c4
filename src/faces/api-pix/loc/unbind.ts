// DELETE /loc/{id}/txid: the location stops serving its charge (the charge stays, without a location or BR Code).
import type { Deps } from '../../../deps';
import { unbindLoc } from '../../../services/cobs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { locId } from './id';
import { locView } from '../views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.delete('/v2/loc/:id/txid', scoped(deps, 'payloadlocation.write'), (c) => {
    c.set('family', { invalid: 'PayloadLocationOperacaoInvalida' });
    return c.json(locView(deps, unbindLoc(c.get('caller').account, locId(c.req.param('id')))), 200);
  });
}
