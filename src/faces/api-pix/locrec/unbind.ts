// DELETE /locrec/{id}/idRec: the location stops serving its recurrence (whose status stays as it was).
import type { Deps } from '../../../deps';
import { unbindRecLoc } from '../../../services/recs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { locRecView } from '../rec/views';
import { locRecId } from './id';

export function register(app: ApiPixRouter, deps: Deps) {
  app.delete('/v2/locrec/:id/idRec', scoped(deps, 'payloadlocationrec.write'), (c) => {
    c.set('family', { invalid: 'RequisicaoInvalida' });
    return c.json(locRecView(deps, unbindRecLoc(c.get('caller').account, locRecId(c.req.param('id')))), 200);
  });
}
