// PUT /cobr/{txid} and POST /cobr (txid made by the sandbox): a recurring charge of an APROVADA recurrence, 10 to 2
// days before its due date; a txid already used is CobROperacaoInvalida, never a second charge.
import type { Deps } from '../../../deps';
import { createCobR } from '../../../services/cobrs';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body } from '../schemas';
import { checkTxid } from '../cob/input';
import { CobRBody } from '../rec/schemas';
import { cobrView } from '../rec/views';
import { COBR_WRITE, cobrInput } from './input';

export function register(app: ApiPixRouter, deps: Deps) {
  app.put('/v2/cobr/:txid', scoped(deps, 'cobr.write'), async (c) => {
    c.set('family', COBR_WRITE);
    const txid = c.req.param('txid');
    checkTxid(txid, COBR_WRITE);
    const input = cobrInput(await body(c, CobRBody, COBR_WRITE));
    const { account } = c.get('caller');
    return c.json(cobrView(account, inRequestUnit(c, () => createCobR(deps, account, txid, input))), 201);
  });
  app.post('/v2/cobr', scoped(deps, 'cobr.write'), async (c) => {
    c.set('family', COBR_WRITE);
    const input = cobrInput(await body(c, CobRBody, COBR_WRITE));
    const { account } = c.get('caller');
    return c.json(cobrView(account, inRequestUnit(c, () => createCobR(deps, account, undefined, input))), 201);
  });
}
