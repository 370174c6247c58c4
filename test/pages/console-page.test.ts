// The console page at / and its fragment route, over HTTP: what the first paint shows, that it shows no secrets and
// no refresh tag, and that with an admin token nothing of any tenant is rendered without the token.
import { expect, test } from 'vitest';
import { DEFAULT, startHarness } from '../helpers/harness';
import { apiPix, payCob, putCob, TXID } from '../helpers/api-pix';

test('the console shows the first account: wallets with balances, transactions of every type with their actions, events; no secrets', async () => {
  const h = await startHarness();
  await h.control('POST', '/accounts', { name: 'Suite <B>', balance: 12.34 });
  const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
  const pending = await h.v2('POST', '/pix', { body: { amount: 7, description: 'still pending' } });
  await h.control('POST', `/transactions/${created.body.id}/pay`);
  const res = await h.sb.app.request('/');
  const html = await res.text();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(html).toMatch(/^<!doctype html><html lang="en">/);
  expect(html).toContain(DEFAULT.accountId);
  expect(html).toContain('loja-centro');
  expect(html).toContain('payment_completed');
  expect(html).toContain('Suite &lt;B&gt;'); // the other account, in the picker, escaped
  expect(html).toMatch(/R\$\s?1\.009,50/); // 1000 + 10 - 0.50 fee
  expect(html).toContain(`data-tx="${pending.body.id}" data-status="pending"`);
  expect(html).toContain(`data-action="/_sandbox/transactions/${pending.body.id}/pay"`);
  expect(html).toContain(`data-action="/_sandbox/transactions/${created.body.id}/block"`); // a completed payment can be blocked
  expect(html).not.toContain(`data-action="/_sandbox/transactions/${created.body.id}/pay"`); // ...not paid again
  expect(html).not.toContain('http-equiv');
  expect(html).not.toContain(DEFAULT.full.clientSecret);
  expect(html).not.toContain(DEFAULT.webhookSecret);
});

test('?account= opens another account; filters and pages narrow the transactions', async () => {
  const h = await startHarness();
  const other = await h.control('POST', '/accounts', { name: 'Other shop', balance: 3 });
  const html = await (await h.sb.app.request(`/?account=${other.body.id}`)).text();
  expect(html).toContain(`data-account="${other.body.id}"`);
  expect(html).not.toContain('loja-centro');
  const charge = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
  const filtered = await (await h.sb.app.request('/?type=payment&status=&wallet=')).text();
  expect(filtered).toContain(`data-tx="${charge.body.id}"`);
  expect(filtered).not.toContain('data-type="adjustment"');
  expect((await h.sb.app.request('/?type=gift')).status, 'a bad value shows the page with a note (below)').toBe(200);
});

test('the fragment route answers the same sections for the live updates', async () => {
  const h = await startHarness();
  const res = await h.sb.app.request('/_sandbox/console');
  const html = await res.text();
  expect(res.status).toBe(200);
  for (const id of ['clock', 'wallets', 'transactions', 'blocks', 'events', 'deliveries']) expect(html).toContain(`data-section="${id}"`);
  expect(html).not.toContain('<html');
});

test('with an admin token set, / renders no tenant data and the fragment needs the token', async () => {
  const h = await startHarness({ adminToken: 's3cret' });
  const page = await (await h.sb.app.request('/')).text();
  expect(page).toContain('data-needs-token="true"');
  expect(page).toContain('id="token-form"');
  expect(page).not.toContain(DEFAULT.accountId);
  expect(page).not.toContain('loja-centro');
  expect(page).not.toContain('Loja Exemplo');
  expect((await h.sb.app.request('/_sandbox/console')).status).toBe(401);
  const ok = await h.sb.app.request('/_sandbox/console', { headers: { 'x-sandbox-token': 's3cret' } });
  expect(ok.status).toBe(200);
  expect(await ok.text()).toContain(DEFAULT.accountId);
});

test.each([
  ['/?page=-1', 'Ignored page=-1: page must be a whole number from 1 up'],
  ['/?type=x', 'Ignored type=x: type must be one of'],
  ['/?status=lost&dpage=zero', 'Ignored status=lost'],
  ['/?wallet=no-such-shop', "no-such-shop"],
])('%s shows the console with a note, never raw JSON, and its live updates use the query without the bad value', async (path, note) => {
  const h = await startHarness();
  const res = await h.sb.app.request(path);
  const html = await res.text();
  expect(res.status, html).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(html).toContain('id="console-note"');
  expect(html).toContain(note);
  expect(html).toContain('data-section="transactions"');
  const query = /data-query="([^"]*)"/.exec(html)![1]!.replace(/&amp;/g, '&');
  const fragment = await h.sb.app.request(`/_sandbox/console${query}`);
  expect(fragment.status, `fragment ${query}`).toBe(200);
});

test('after a reset the fragment of a deleted sub-account answers 404, and /?gone=1 (where the console script goes then) says so', async () => {
  const h = await startHarness();
  await h.control('POST', `/accounts/${DEFAULT.accountId}/sub-accounts`, { reference: 'pop-up', name: 'Pop-up shop' });
  expect((await h.sb.app.request('/_sandbox/console?wallet=pop-up')).status).toBe(200);
  await h.control('POST', '/reset');
  expect((await h.sb.app.request('/_sandbox/console?wallet=pop-up')).status).toBe(404);
  const back = await (await h.sb.app.request('/?gone=1')).text();
  expect(back).toContain('What the console showed is gone');
  expect(back).toContain(`data-account="${DEFAULT.accountId}"`);
});

test('Refund is offered while something of a payment is left to refund: after a partial devolução, not once all of it is returned', async () => {
  const h = await startHarness();
  await putCob(h);
  const paymentId = (await payCob(h)).body.id as string;
  const e2eid = (await apiPix(h, 'GET', `/cob/${TXID}`)).body.pix[0].endToEndId as string;
  const refund = `data-action="/_sandbox/transactions/${paymentId}/refund"`;
  const consoleHtml = async () => (await h.sb.app.request('/')).text();
  expect(await consoleHtml()).toContain(refund);
  const part = await apiPix(h, 'PUT', `/pix/${e2eid}/devolucao/D1`, { body: { valor: '100.00' } });
  expect(part.status, part.text).toBe(201);
  expect(await consoleHtml(), '23.45 of 123.45 is left').toContain(refund);
  const rest = await apiPix(h, 'PUT', `/pix/${e2eid}/devolucao/D2`, { body: { valor: '23.45' } });
  expect(rest.status, rest.text).toBe(201);
  const html = await consoleHtml();
  expect(html, 'nothing is left').not.toContain(refund);
  expect(html).toContain(`data-action="/_sandbox/transactions/${paymentId}/block"`); // the payment's other actions stay
});
