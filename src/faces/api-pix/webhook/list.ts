// GET /webhook: the account's key webhooks, optionally those created between inicio and fim, in pages.
import type { Deps } from '../../../deps';
import { pixWebhooks } from '../../../services/pix-received';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { check, WebhookListQuery } from '../schemas';
import { paginate, webhookView } from '../views';

export function register(app: ApiPixRouter, deps: Deps) {
  const family = { invalid: 'WebhookOperacaoInvalida' } as const;
  app.get('/v2/webhook', scoped(deps, 'webhook.read'), (c) => {
    c.set('family', family);
    const q = check(WebhookListQuery, c.req.query(), family);
    const { account } = c.get('caller');
    const from = q.inicio ? Date.parse(q.inicio) : -Infinity;
    const to = q.fim ? Date.parse(q.fim) : Infinity;
    const { page, paginacao } = paginate(pixWebhooks(account).filter((w) => w.createdAt >= from && w.createdAt <= to), q);
    return c.json({ parametros: { ...(q.inicio ? { inicio: q.inicio } : {}), ...(q.fim ? { fim: q.fim } : {}), paginacao }, webhooks: page.map((w) => webhookView(account, w)) }, 200);
  });
}
