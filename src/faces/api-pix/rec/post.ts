// POST /rec: a recurrence CRIADA, with its bond (vinculo), calendar, value and retry policy; its payer confirms it later.
import type { Deps } from '../../../deps';
import { createRec } from '../../../services/recs';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body } from '../schemas';
import { REC_WRITE, recInput } from './input';
import { RecBody } from './schemas';
import { recView } from './views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.post('/v2/rec', scoped(deps, 'rec.write'), async (c) => {
    c.set('family', REC_WRITE);
    const input = recInput(await body(c, RecBody, REC_WRITE));
    const { account } = c.get('caller');
    return c.json(recView(deps, account, inRequestUnit(c, () => createRec(deps, account, input))), 201);
  });
}
