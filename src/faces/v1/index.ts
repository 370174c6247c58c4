// The emulated v1 API, mounted at /v1: the dialect the service's SDKs speak (sandbox.md 12), authenticated by
// X-API-Key. Its routes translate at the edge and call the verbs v2 calls; payment links and static QR codes are
// domain objects whose payments are ordinary charges of the core.
import type { Deps } from '../../deps';
import { createRouter, serviceFieldMode } from '../../wire/env';
import * as account from './account/get';
import * as balanceBlocks from './balance-blocks/list';
import * as chargeGet from './charges/get';
import * as chargeList from './charges/list';
import * as chargeCreate from './charges/post';
import * as customerCreate from './customers/post';
import * as customers from './customers/list';
import * as metrics from './metrics/get';
import * as pix from './pix/post';
import * as pixStatic from './pix/static';
import * as projectList from './projects/list';
import * as projectCreate from './projects/post';
import * as transaction from './transactions/get';
import * as refund from './transactions/refund';
import * as withdrawal from './withdrawals/post';
import { API_KEY_SCHEME } from './schemas';

export function v1Routes(deps: Deps) {
  const app = createRouter(serviceFieldMode(deps.settings));
  app.openAPIRegistry.registerComponent('securitySchemes', API_KEY_SCHEME, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  for (const route of [pix, pixStatic, customerCreate, customers, projectCreate, projectList, chargeCreate, chargeList, chargeGet, transaction, refund, account, balanceBlocks, withdrawal, metrics]) route.register(app, deps);
  return app;
}
