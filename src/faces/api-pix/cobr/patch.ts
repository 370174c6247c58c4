// PATCH /cobr/{txid}: the receiver cancels a recurring charge (status CANCELADA) before the day of its first attempt.
import type { Deps } from '../../../deps';
import { cancelCobR } from '../../../services/cobrs';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body } from '../schemas';
import { CobRPatchBody } from '../rec/schemas';
import { cobrView } from '../rec/views';
import { COBR_WRITE } from './input';

export function register(app: ApiPixRouter, deps: Deps) {
  app.patch('/v2/cobr/:txid', scoped(deps, 'cobr.write'), async (c) => {
    c.set('family', COBR_WRITE);
    await body(c, CobRPatchBody, COBR_WRITE);
    const { account } = c.get('caller');
    return c.json(cobrView(account, inRequestUnit(c, () => cancelCobR(deps, account, c.req.param('txid')))), 200);
  });
}
