// GET /locrec/{id}: a recurrence's payload location, with the idRec it serves.
import type { Deps } from '../../../deps';
import { getRecLoc } from '../../../services/recs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { locRecView } from '../rec/views';
import { locRecId } from './id';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/locrec/:id', scoped(deps, 'payloadlocationrec.read'), (c) => {
    c.set('family', { invalid: 'PayloadLocationRecConsultaInvalida' });
    return c.json(locRecView(deps, getRecLoc(c.get('caller').account, locRecId(c.req.param('id')))), 200);
  });
}
