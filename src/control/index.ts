// The control API at /_sandbox: thin routes over the same service verbs the public API uses.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { createRouter } from '../wire/env';
import { controlErrors, controlSecurity, json, optionalJsonBody } from '../wire/schemas';
import { HealthSchema, ResetSchema } from './answers';
import { registerAccounts } from './accounts';
import { registerClock } from './clock';
import { registerTransactionControl } from './transactions';
import { registerFaults } from './faults';
import type { Faults } from '../wire/middleware/faults';
import { registerWebhookControl } from './webhooks';
import { registerBalanceBlockControl } from './balance-blocks';
import { registerSettle } from './settle';
import type { DeliveryWorker } from '../webhooks/dispatcher';
import { registerBrCodeControl } from './brcodes';
import { registerStream } from './stream';
import { registerLists } from './lists';
import { type ConsoleFragment, registerConsoleFragment } from './console';
import { registerPaymentLinkControl } from './charges';
import { registerWithdrawalControl } from './withdrawals';
import { registerStories } from './stories';
import { registerApiPixControl } from './api-pix';
import { registerApiPixRecControl } from './api-pix-rec';
import { healthAnswer } from './health';
import { registerRequestLog } from './requests';
import { registerWorkshop } from './workshop';
import { principalGuard } from './principal';
import { registerProxyInfo } from './proxy-info';
import type { Face } from '../proxy/hosts';

export interface ControlHooks {
  reset(opts?: { clock?: boolean }): Promise<void>;
  faults: Faults;
  startedAt: number;
  version: string;
  deliveries: DeliveryWorker;
  /** Real-time ms between keep-alive comments on GET /_sandbox/stream (tests shorten it). */
  streamKeepAliveMs?: number;
  /** The names the proxy serves and their faces (GET /_sandbox/proxy). */
  serviceHosts: Readonly<Record<string, Face>>;
}

/** `consoleFragment`: the console's sections (the pages' markup) for GET /_sandbox/console. */
export function controlRoutes(deps: Deps, hooks: ControlHooks, consoleFragment: ConsoleFragment) {
  const app = createRouter(() => 'refuse'); // the sandbox's own API: an unknown field is always a mistake
  app.use('*', principalGuard(deps)); // the admin token, or an attendee kept inside their tenant
  registerAccounts(app, deps);
  registerClock(app, deps);
  registerTransactionControl(app, deps);
  registerFaults(app, hooks.faults);
  registerWebhookControl(app, deps);
  registerBalanceBlockControl(app, deps);
  registerSettle(app, deps, hooks.deliveries);
  registerBrCodeControl(app, deps);
  registerApiPixControl(app, deps);
  registerApiPixRecControl(app, deps);
  registerStream(app, deps, hooks.streamKeepAliveMs);
  registerLists(app, deps);
  registerRequestLog(app, deps);
  registerConsoleFragment(app, consoleFragment);
  registerPaymentLinkControl(app, deps);
  registerWithdrawalControl(app, deps);
  registerStories(app, deps, () => hooks.deliveries.settle());
  registerWorkshop(app, deps);
  registerProxyInfo(app, deps, hooks.serviceHosts);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/reset',
      operationId: 'resetSandbox',
      tags: ['Control API'],
      security: controlSecurity,
      summary: 'Back to the fixtures: every account, event and job is replaced by the default world; the clock is kept unless clock is true',
      request: {
        body: optionalJsonBody(
          z.object({ clock: z.boolean({ error: 'must be true (the clock goes back to where start-up put it) or false (kept, the default)' }).optional() }).openapi('ResetRequest'),
          { clock: true },
        ),
      },
      responses: { 200: json(ResetSchema, 'Reset done'), ...controlErrors },
    }),
    async (c) => {
      await hooks.reset((c.req.valid('json') as { clock?: boolean } | undefined) ?? {});
      return c.json({ reset: true as const, accounts: Object.keys(deps.store.state.accounts).length }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      tags: ['Control API'],
      security: controlSecurity,
      summary: 'Liveness, version, clock and state size',
      responses: { 200: json(HealthSchema, 'Healthy') },
    }),
    (c) => c.json(healthAnswer(deps, hooks), 200),
  );
  return app;
}
