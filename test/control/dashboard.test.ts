import { expect, test } from 'vitest';
import { DEFAULT, startHarness } from '../helpers/harness';

test('the dashboard lists every wallet with its balance and the latest events, without secrets', async () => {
  const h = await startHarness();
  await h.control('POST', '/accounts', { name: 'Suite <B>', balance: 12.34 });
  const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
  await h.control('POST', `/transactions/${created.body.id}/pay`);
  const res = await h.sb.app.request('/');
  const html = await res.text();
  expect(res.status).toBe(200);
  expect(html).toContain(DEFAULT.accountId);
  expect(html).toContain('loja-centro');
  expect(html).toContain('payment_completed');
  expect(html).toContain('Suite &#60;B&#62;'); // escaped
  expect(html).toMatch(/R\$\s?1\.009,50/); // 1000 + 10 - 0.50 fee
  expect(html).not.toContain(DEFAULT.full.clientSecret);
  expect(html).not.toContain(DEFAULT.webhookSecret);
});
