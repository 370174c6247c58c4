// PATCH /rec/{idRec}: cancels a recurrence (status CANCELADA, alone), or changes what the document lets change while it
// is CRIADA (loc, calendario.dataInicial) and at any time before it ends (the debtor's name, the Jornada 3 charge).
import type { Deps } from '../../../deps';
import { reviseRec } from '../../../services/recs';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, invalid } from '../schemas';
import { REC_WRITE, recPatch } from './input';
import { RecPatchBody } from './schemas';
import { recView } from './views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.patch('/v2/rec/:idRec', scoped(deps, 'rec.write'), async (c) => {
    c.set('family', REC_WRITE);
    const patch = recPatch(await body(c, RecPatchBody, REC_WRITE));
    if (Object.keys(patch).length === 0) throw invalid(REC_WRITE, [{ razao: 'rec has nothing to revise: send status CANCELADA, loc, calendario.dataInicial, vinculo.devedor.nome or ativacao.dadosJornada.txid', propriedade: 'rec' }]);
    const { account } = c.get('caller');
    return c.json(recView(deps, account, inRequestUnit(c, () => reviseRec(deps, account, c.req.param('idRec'), patch))), 200);
  });
}
