// PUT /pix/{e2eid}/devolucao/{id}: a devolução, answered EM_PROCESSAMENTO; it ends DEVOLVIDO (or NAO_REALIZADO with
// its motivo) on the sandbox clock, as the core's refund it is (automation.completeAfterSeconds, control actions).
import type { Deps } from '../../../deps';
import { DEVOLUCAO_ID, textCents } from '../../../domain/api-pix';
import { requestDevolucao } from '../../../services/pix-received';
import { devolucaoEntry } from '../../../webhooks/devolucao';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, DevolucaoBody, invalid } from '../schemas';
import { inRequestUnit } from '../../../wire/request-unit';
import { extended } from '../../../lib/objects';

export function register(app: ApiPixRouter, deps: Deps) {
  const family = { invalid: 'PixDevolucaoInvalida', prefix: 'devolucao' } as const;
  app.put('/v2/pix/:e2eid/devolucao/:id', scoped(deps, 'pix.write'), async (c) => {
    c.set('family', family);
    const id = c.req.param('id');
    if (!DEVOLUCAO_ID.test(id)) throw invalid(family, [{ razao: 'id must be 1 to 35 letters and digits', propriedade: 'id', valor: id }]);
    const input = await body(c, DevolucaoBody, family);
    const refund = inRequestUnit(c, () => requestDevolucao(deps, c.get('caller').account, c.req.param('e2eid'), id, extended(input, { valor: textCents(input.valor) })));
    c.header('X-Sandbox-Transaction-Id', refund.id);
    return c.json(devolucaoEntry(refund), 201);
  });
}
