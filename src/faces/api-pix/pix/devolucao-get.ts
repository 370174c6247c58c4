// GET /pix/{e2eid}/devolucao/{id}: a devolução as it stands.
import type { Deps } from '../../../deps';
import { getDevolucao } from '../../../services/pix-received';
import { devolucaoEntry } from '../../../webhooks/devolucao';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/pix/:e2eid/devolucao/:id', scoped(deps, 'pix.read'), (c) => {
    c.set('family', { invalid: 'PixDevolucaoInvalida' });
    const refund = getDevolucao(c.get('caller').account, c.req.param('e2eid'), c.req.param('id'));
    c.header('X-Sandbox-Transaction-Id', refund.id);
    return c.json(devolucaoEntry(refund), 200);
  });
}
