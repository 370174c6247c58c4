// GET /webhook/{chave}: the webhook of a key.
import type { Deps } from '../../../deps';
import { getPixWebhook } from '../../../services/pix-received';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { webhookView } from '../views';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/webhook/:chave', scoped(deps, 'webhook.read'), (c) => {
    const { account } = c.get('caller');
    return c.json(webhookView(account, getPixWebhook(account, c.req.param('chave'))), 200);
  });
}
