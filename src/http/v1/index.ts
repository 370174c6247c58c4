// The emulated v1 API, mounted at /v1: customers and revenue metrics, authenticated by X-API-Key.
import type { Deps } from '../../deps';
import { createRouter } from '../env';
import * as customers from './customers/list';
import * as metrics from './metrics/get';
import { API_KEY_SCHEME } from './schemas';

export function v1Routes(deps: Deps) {
  const app = createRouter();
  app.openAPIRegistry.registerComponent('securitySchemes', API_KEY_SCHEME, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  customers.register(app, deps);
  metrics.register(app, deps);
  return app;
}
