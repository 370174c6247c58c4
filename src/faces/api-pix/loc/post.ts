// POST /loc: a payload location of tipoCob cob or cobv, bound later by a charge that names it in loc.id.
import type { Deps } from '../../../deps';
import { createLoc } from '../../../services/cobs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, LocBody } from '../schemas';
import { locView } from '../views';
import { inRequestUnit } from '../../../wire/request-unit';

export function register(app: ApiPixRouter, deps: Deps) {
  const family = { invalid: 'PayloadLocationOperacaoInvalida' } as const;
  app.post('/v2/loc', scoped(deps, 'payloadlocation.write'), async (c) => {
    c.set('family', family);
    const { tipoCob } = await body(c, LocBody, family);
    return c.json(locView(deps, inRequestUnit(c, () => createLoc(deps, c.get('caller').account, tipoCob))), 201);
  });
}
