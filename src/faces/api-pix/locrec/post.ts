// POST /locrec: a recurrence's payload location, bound later by a recurrence that names it in `loc`.
import type { Deps } from '../../../deps';
import { createRecLoc } from '../../../services/recs';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { locRecView } from '../rec/views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.post('/v2/locrec', scoped(deps, 'payloadlocationrec.write'), (c) => {
    c.set('family', { invalid: 'RequisicaoInvalida' });
    const view = locRecView(deps, inRequestUnit(c, () => createRecLoc(deps, c.get('caller').account)));
    c.header('Location', view.location);
    return c.json(view, 201);
  });
}
