import { expect, test } from 'vitest';
import { startHarness } from '../helpers/harness';

test.each([
  ['/v2/transactions/{id}/refund', 'post'],
  ['/v2/withdrawals', 'post'],
  ['/v2/balance-blocks', 'get'],
  ['/_sandbox/balance-blocks/{id}/approve', 'post'],
  ['/_sandbox/balance-blocks/{id}/reject', 'post'],
  ['/_sandbox/balance-blocks/{id}/defend', 'post'],
])('%s (%s) is documented in /openapi.json', async (path, method) => {
  const h = await startHarness();
  const res = await h.api('GET', '/openapi.json');
  expect(res.status, res.text).toBe(200);
  expect(res.body.paths[path]?.[method], Object.keys(res.body.paths).join(', ')).toBeDefined();
});
