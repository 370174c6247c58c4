// GET /rec/{idRec}: the recurrence as it stands, with its payer once approved and its confirmation requests, and the
// QR Composto of the journey its txid asks for (dadosQR).
import type { Deps } from '../../../deps';
import { getRec, recQrJourney } from '../../../services/recs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { REC_READ } from './input';
import { dadosQrView, recView } from './views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/rec/:idRec', scoped(deps, 'rec.read'), (c) => {
    c.set('family', REC_READ);
    const { account } = c.get('caller');
    const rec = getRec(account, c.req.param('idRec'));
    const journey = recQrJourney(account, rec, c.req.query('txid'));
    return c.json({ ...recView(deps, account, rec, true), ...dadosQrView(deps, account, rec, journey) }, 200);
  });
}
