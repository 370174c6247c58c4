// PUT /webhook/{chave}: where the Pix received on a key of the account are notified ({webhookUrl}/pix, unsigned).
import type { Deps } from '../../../deps';
import { putPixWebhook } from '../../../services/pix-received';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, WebhookBody } from '../schemas';
import { inRequestUnit } from '../../../wire/request-unit';
import { refuseSelfWebhooks } from '../../../wire/webhook-urls';

export function register(app: ApiPixRouter, deps: Deps) {
  const family = { invalid: 'WebhookOperacaoInvalida', prefix: 'webhook' } as const;
  app.put('/v2/webhook/:chave', scoped(deps, 'webhook.write'), async (c) => {
    c.set('family', family);
    const { webhookUrl } = await body(c, WebhookBody, family);
    refuseSelfWebhooks(deps, [['webhookUrl', webhookUrl]]);
    inRequestUnit(c, () => putPixWebhook(deps, c.get('caller').account, c.req.param('chave'), webhookUrl));
    return c.body(null, 200);
  });
}
