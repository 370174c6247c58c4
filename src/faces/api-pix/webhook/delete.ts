// DELETE /webhook/{chave}: the key's Pix are no longer notified (pending deliveries end failed, saying why).
import type { Deps } from '../../../deps';
import { deletePixWebhook } from '../../../services/pix-received';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';

export function register(app: ApiPixRouter, deps: Deps) {
  app.delete('/v2/webhook/:chave', scoped(deps, 'webhook.write'), (c) => {
    c.set('family', { invalid: 'WebhookOperacaoInvalida' });
    deletePixWebhook(c.get('caller').account, c.req.param('chave'));
    return c.body(null, 204);
  });
}
