// POST /cobr/{txid}/retentativa/{data}: another debit attempt on `data` after a failed one, as PERMITE_3R_7D allows
// (up to 3, within 7 days after the settlement day, one at a time, on a future day).
import type { Deps } from '../../../deps';
import { retryCobR } from '../../../services/cobrs';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check, date } from '../schemas';
import { cobrView } from '../rec/views';
import { COBR_WRITE } from './input';

export function register(app: ApiPixRouter, deps: Deps) {
  app.post('/v2/cobr/:txid/retentativa/:data', scoped(deps, 'cobr.write'), (c) => {
    c.set('family', { invalid: 'CobROperacaoInvalida' });
    const data = check(date(), c.req.param('data'), { invalid: COBR_WRITE.invalid, prefix: 'data' });
    const { account } = c.get('caller');
    return c.json(cobrView(account, inRequestUnit(c, () => retryCobR(deps, account, c.req.param('txid'), data))), 201);
  });
}
