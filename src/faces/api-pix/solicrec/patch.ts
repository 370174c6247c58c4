// PATCH /solicrec/{idSolicRec}: the receiver cancels a request its payer has not answered (status CANCELADA).
import type { Deps } from '../../../deps';
import { cancelSolicRec } from '../../../services/recs';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body } from '../schemas';
import { SolicRecPatchBody } from '../rec/schemas';
import { solicRecView } from '../rec/views';
import { SOLICREC_WRITE } from './post';

export function register(app: ApiPixRouter, deps: Deps) {
  app.patch('/v2/solicrec/:idSolicRec', scoped(deps, 'solicrec.write'), async (c) => {
    c.set('family', SOLICREC_WRITE);
    await body(c, SolicRecPatchBody, SOLICREC_WRITE);
    const { account } = c.get('caller');
    return c.json(solicRecView(deps, account, inRequestUnit(c, () => cancelSolicRec(deps, account, c.req.param('idSolicRec')))), 201);
  });
}
