// GET /pix/{e2eid}: a Pix received through a charge of this face, with its devoluções.
import type { Deps } from '../../../deps';
import { getPix } from '../../../services/pix-received';
import { pixEntry, refundsByPayment } from '../../../webhooks/api-pix';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/pix/:e2eid', scoped(deps, 'pix.read'), (c) => {
    c.set('family', { invalid: 'PixConsultaInvalida' });
    const { account } = c.get('caller');
    const tx = getPix(account, c.req.param('e2eid'));
    return c.json(pixEntry(tx, refundsByPayment(account).get(tx.id) ?? []), 200);
  });
}
