// POST /cob: a cob whose txid the sandbox makes (32 letters and digits).
import type { Deps } from '../../../deps';
import { createCob } from '../../../services/cobs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, CobBody } from '../schemas';
import { answerCob, cobInput, withDefaults, writeFamily } from './input';
import { inRequestUnit } from '../../../wire/request-unit';

export function register(app: ApiPixRouter, deps: Deps) {
  const family = writeFamily('cob');
  app.post('/v2/cob', scoped(deps, 'cob.write'), async (c) => {
    c.set('family', family);
    const input = cobInput(await body(c, CobBody, family));
    const { account } = c.get('caller');
    return answerCob(c, deps, account, inRequestUnit(c, () => createCob(deps, account, 'cob', undefined, withDefaults('cob', input))), 201);
  });
}
