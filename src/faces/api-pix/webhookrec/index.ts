// PUT/GET/DELETE /webhookrec and /webhookcobr: where the account's recurrences (or recurring charges) notify each
// status change, posted to {webhookUrl}/rec (or /cobr) through the delivery log and its retries.
import type { Deps } from '../../../deps';
import { COBR_WEBHOOK, REC_WEBHOOK } from '../../../domain/api-pix-rec';
import { deleteAutomaticoWebhook, getAutomaticoWebhook, putAutomaticoWebhook, type AutomaticoWebhook } from '../../../services/recs';
import { isoTime as iso } from '../../../lib/iso';
import { inRequestUnit } from '../../../wire/request-unit';
import { refuseSelfWebhooks } from '../../../wire/webhook-urls';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body } from '../schemas';
import { AutomaticoWebhookBody } from '../rec/schemas';

function register(app: ApiPixRouter, deps: Deps, which: AutomaticoWebhook, invalid: 'WebhookRecOperacaoInvalida' | 'WebhookCobROperacaoInvalida') {
  const family = { invalid, prefix: 'webhook' } as const;
  app.put(`/v2/${which}`, scoped(deps, `${which}.write`), async (c) => {
    c.set('family', family);
    const { webhookUrl } = await body(c, AutomaticoWebhookBody, family);
    refuseSelfWebhooks(deps, [['webhookUrl', webhookUrl]]);
    inRequestUnit(c, () => putAutomaticoWebhook(deps, c.get('caller').account, which, webhookUrl));
    return c.body(null, 200);
  });
  app.get(`/v2/${which}`, scoped(deps, `${which}.read`), (c) => {
    c.set('family', { invalid: 'RequisicaoInvalida' });
    const w = getAutomaticoWebhook(c.get('caller').account, which);
    return c.json({ webhookUrl: w.url!, criacao: iso(w.createdAt) }, 200);
  });
  app.delete(`/v2/${which}`, scoped(deps, `${which}.write`), (c) => {
    c.set('family', { invalid: 'RequisicaoInvalida' });
    inRequestUnit(c, () => deleteAutomaticoWebhook(c.get('caller').account, which));
    return c.body(null, 204);
  });
}

export function registerAutomaticoWebhooks(app: ApiPixRouter, deps: Deps) {
  register(app, deps, REC_WEBHOOK, 'WebhookRecOperacaoInvalida');
  register(app, deps, COBR_WEBHOOK, 'WebhookCobROperacaoInvalida');
}
