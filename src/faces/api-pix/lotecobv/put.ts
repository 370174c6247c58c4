// PUT /lotecobv/{id}: creates a batch of new cobv, or requests the same charges of an existing batch whole again;
// 202, each charge then EM_PROCESSAMENTO until the batch is processed (services/lotes-cobv.ts). The batch's id is a
// number (the document answers it as an integer).
import type { Deps } from '../../../deps';
import { putLote } from '../../../services/lotes-cobv';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, invalid, LoteCobVBody } from '../schemas';
import { cobInput, withDefaults } from '../cob/input';
import { LOTE_WRITE } from './view';

/** A batch id as the path gives it: a whole number from 1 (no leading zeros, so one batch has one path). */
export const LOTE_ID = /^[1-9]\d{0,14}$/;

export function register(app: ApiPixRouter, deps: Deps) {
  app.put('/v2/lotecobv/:id', scoped(deps, 'lotecobv.write'), async (c) => {
    c.set('family', LOTE_WRITE);
    const id = c.req.param('id');
    if (!LOTE_ID.test(id)) throw invalid(LOTE_WRITE, [{ razao: 'id must be a whole number from 1 (the batch\'s id, like 1001)', propriedade: 'id', valor: id }]);
    const parsed = await body(c, LoteCobVBody, LOTE_WRITE);
    const items = parsed.cobsv.map(({ txid, ...cobv }) => ({ txid, input: withDefaults('cobv', cobInput(cobv)) }));
    inRequestUnit(c, () => putLote(deps, c.get('caller').account, Number(id), parsed.descricao, items));
    return c.body(null, 202);
  });
}
