// GET /cobr/{txid}: the recurring charge as it stands, with its attempts and, once settled, its pix.
import type { Deps } from '../../../deps';
import { getCobR } from '../../../services/cobrs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { cobrView } from '../rec/views';
import { COBR_READ } from './input';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/cobr/:txid', scoped(deps, 'cobr.read'), (c) => {
    c.set('family', COBR_READ);
    const { account } = c.get('caller');
    return c.json(cobrView(account, getCobR(account, c.req.param('txid'))), 200);
  });
}
