// PATCH /lotecobv/{id}: revises some charges of a batch (and its descricao); 202, each named charge then
// EM_PROCESSAMENTO until processed. A charge not of the batch is refused; an unknown batch is LoteCobVNaoEncontrado.
import type { Deps } from '../../../deps';
import { patchLote } from '../../../services/lotes-cobv';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, LoteCobVPatchBody } from '../schemas';
import { patchInput } from '../cob/input';
import { LOTE_WRITE } from './view';

export function register(app: ApiPixRouter, deps: Deps) {
  app.patch('/v2/lotecobv/:id', scoped(deps, 'lotecobv.write'), async (c) => {
    c.set('family', LOTE_WRITE);
    const parsed = await body(c, LoteCobVPatchBody, LOTE_WRITE);
    const items = (parsed.cobsv ?? []).map(({ txid, ...cobv }) => ({ txid, input: patchInput(cobv) }));
    inRequestUnit(c, () => patchLote(deps, c.get('caller').account, c.req.param('id'), parsed.descricao, items));
    return c.body(null, 202);
  });
}
