// The emulated v2 API, mounted at /v2.
import type { Deps } from '../../deps';
import { createRouter, serviceFieldMode } from '../../wire/env';
import * as account from './account/get';
import * as auth from './auth/post';
import * as pix from './pix/post';
import * as transaction from './transactions/get';
import * as refund from './transactions/refund';
import * as withdrawal from './withdrawals/post';
import * as balanceBlocks from './balance-blocks/list';
import { registerProjects } from './projects';
import { registerSubAccounts } from './sub-accounts';

export function v2Routes(deps: Deps) {
  const app = createRouter(serviceFieldMode(deps.settings));
  auth.register(app, deps);
  account.register(app, deps);
  registerProjects(app, deps);
  registerSubAccounts(app, deps);
  pix.register(app, deps);
  transaction.register(app, deps);
  refund.register(app, deps);
  withdrawal.register(app, deps);
  balanceBlocks.register(app, deps);
  return app;
}
