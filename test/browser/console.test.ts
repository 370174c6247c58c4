// The console in Chromium, used as a person uses it: it opens clean (axe-core) at phone and laptop widths, follows
// changes made elsewhere without a reload, runs control actions from its buttons (and shows a refusal next to the
// button), replays a delivery and moves the clock. No sleeps: every wait is for a DOM condition.
import { afterEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, browserForFile, noBrowser, openPage, scrollsSideways, startSite, type Site } from './support';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { DEFAULT } from '../helpers/harness';

const A = DEFAULT.accountId;

describe.skipIf(noBrowser('console.test.ts'))('console in Chromium', () => {
  const b = browserForFile();
  const { closers } = b;
  let site: Site;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await site?.close();
    await receiver?.close();
    receiver = undefined;
  });

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(site.url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json)).toBeLessThan(300);
    return json;
  }
  async function createCharge(body: Record<string, unknown>) {
    const auth = await call('POST', '/v2/auth', { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret });
    return call('POST', '/v2/pix', body, { authorization: `Bearer ${auth.access_token}` });
  }
  /** Opens the console and waits until it follows the stream; marks the window so a reload would be noticed. */
  async function openConsole(width: number, path = '/'): Promise<Page> {
    const { context, page } = await openPage(b.rig.browser, width);
    closers.push(() => context.close());
    await page.goto(site.url + path);
    await page.waitForSelector('body[data-live="true"]');
    await page.evaluate(() => ((globalThis as any).__sameDocument = true));
    return page;
  }
  const sameDocument = (page: Page) => page.evaluate(() => (globalThis as any).__sameDocument === true);
  const row = (id: string) => `tr[data-tx="${id}"]`;

  test.each([390, 1366])('at %i px the console has no critical or serious axe-core violation and no sideways scroll', async (width) => {
    site = await startSite();
    const charge = await createCharge({ amount: 10, description: 'axe' });
    await call('POST', `/_sandbox/transactions/${charge.id}/pay`);
    await createCharge({ amount: 12, description: 'pending one' });
    const page = await openConsole(width);
    expect(await axe(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    // A control has a visible focus ring.
    await page.focus(`${row(charge.id)} button`);
    expect(await page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.activeElement).outlineStyle), 'focus outline').not.toBe('none');
  });

  test('a charge created through the API appears without a reload, and its Pay button completes it', async () => {
    site = await startSite();
    const page = await openConsole(1366);
    const charge = await createCharge({ amount: 33.3, description: 'watched' });
    await page.waitForSelector(`${row(charge.id)}[data-status="pending"]`, { timeout: 1000 }); // sandbox.md 5: within 1 s
    await page.click(`${row(charge.id)} form[data-action$="/pay"] button`);
    await page.waitForSelector(`${row(charge.id)}[data-status="completed"]`);
    await page.waitForSelector('#events [data-event="' + charge.id + '"]');
    expect(await sameDocument(page)).toBe(true);
  });

  test('pay as a named payer from the row, at phone width', async () => {
    site = await startSite();
    const charge = await createCharge({ amount: 5, description: 'named payer' });
    const page = await openConsole(390);
    await page.click(`#menu-${charge.id} summary`);
    await page.fill(`#pn-${charge.id}`, 'Maria Teste');
    await page.fill(`#pd-${charge.id}`, '00000000191');
    await page.click(`#menu-${charge.id} button[aria-label^="Pay as this payer"]`);
    await page.waitForSelector(`${row(charge.id)}[data-status="completed"]`);
    const tx = await call('GET', `/_sandbox/accounts/${A}/transactions?type=payment`);
    expect(tx.items.find((t: any) => t.id === charge.id)).toMatchObject({ counterpartName: 'Maria Teste', counterpartDocument: '00000000191' });
  });

  test('an action the state refuses shows the 409 message next to its button and changes nothing', async () => {
    site = await startSite();
    const charge = await createCharge({ amount: 20, description: 'blocked twice' });
    await call('POST', `/_sandbox/transactions/${charge.id}/pay`);
    const page = await openConsole(1366);
    const block = `#menu-${charge.id} form[data-action$="/block"]`;
    await page.click(`#menu-${charge.id} summary`);
    await page.click(`${block} button`);
    await page.waitForSelector(`#blocks [data-status="awaiting_response"]`);
    const before = await call('GET', `/_sandbox/accounts/${A}/transactions?type=chargeback`);
    await page.click(`${block} button`); // the menu stayed open across the live update
    const output = await page.waitForSelector(`${block} output:not(:empty)`);
    expect(await output.textContent()).toMatch(/^Cannot block payment .* again: block .* is awaiting_response/);
    expect((await call('GET', `/_sandbox/accounts/${A}/transactions?type=chargeback`)).total).toBe(before.total);
  });

  test('a delivery is listed with its attempt, and Replay makes a new delivery of it', async () => {
    receiver = await startReceiver();
    site = await startSite();
    await call('POST', `/_sandbox/accounts/${A}/webhooks`, { url: receiver.url });
    const page = await openConsole(1366);
    const charge = await createCharge({ amount: 9, description: 'delivered' });
    await call('POST', `/_sandbox/transactions/${charge.id}/pay`);
    const first = await page.waitForSelector('#deliveries li[data-state="succeeded"]');
    const id = await first.getAttribute('data-delivery');
    await page.click(`#dl-${id} summary`);
    await page.waitForSelector(`#dl-${id}[open] >> text=X-Service-Webhook-ID: ${id}`);
    await page.click(`li[data-delivery="${id}"] > form button`);
    await page.waitForSelector(`#deliveries li[data-replay-of="${id}"][data-state="succeeded"]`);
    await receiver.waitFor(2);
    expect(await sameDocument(page)).toBe(true);
  });

  test('advancing the clock from the console expires a pending charge in front of you', async () => {
    site = await startSite();
    const charge = await createCharge({ amount: 15, description: 'expires soon', expiresIn: 300 });
    const page = await openConsole(390);
    await page.waitForSelector(`${row(charge.id)}[data-status="pending"]`);
    await page.click('button[aria-label="Advance the clock by 1 hour"]');
    await page.waitForSelector(`${row(charge.id)}[data-status="cancelled"]`);
    await page.waitForSelector('#clock-now[datetime="2026-03-10T13:00:00.000Z"]');
    await page.fill('#advance-seconds', '90');
    await page.click('button[aria-label="Advance the clock by these seconds"]');
    await page.waitForSelector('#clock-now[datetime="2026-03-10T13:01:30.000Z"]');
    expect(await sameDocument(page)).toBe(true);
  });

  test.each([
    ['served with the page', undefined],
    ['fetched after the admin token is given', 'tok-123'],
  ])("relative times read on the sandbox clock from the first load (%s): an hour ahead of real time, a charge made now is 'just now'", async (_how, adminToken) => {
    site = await startSite(adminToken ? { adminToken } : {});
    const auth: Record<string, string> = adminToken ? { 'x-sandbox-token': adminToken } : {};
    await call('PUT', '/_sandbox/clock', { now: new Date(Date.now() + 3_600_000).toISOString(), frozen: true }, auth);
    const charge = await createCharge({ amount: 10, description: 'made on the sandbox clock' });
    const { context, page } = await openPage(b.rig.browser, 1366);
    closers.push(() => context.close());
    await page.goto(site.url + '/');
    if (adminToken) {
      await page.fill('#token-input', adminToken);
      await page.click('#token-form button');
    }
    const cell = `${row(charge.id)} time[data-local="relative"]`;
    await page.waitForSelector(cell, { state: 'attached' });
    // Before the fix a console fetched after the page read the browser's clock: "in 60 min".
    expect(await page.textContent(cell)).toBe('just now');
    await call('POST', '/_sandbox/clock/advance', { seconds: 600 }, auth);
    await page.waitForFunction((sel) => (globalThis as any).document.querySelector(sel)?.textContent === '10 min ago', cell);
  });

  test('with an admin token set, the console asks for it once and then shows the account', async () => {
    site = await startSite({ adminToken: 'tok-123' });
    const { context, page } = await openPage(b.rig.browser, 390);
    closers.push(() => context.close());
    await page.goto(site.url + '/');
    expect(await page.locator('[data-section]').count()).toBe(0);
    await page.fill('#token-input', 'wrong');
    await page.click('#token-form button');
    await page.waitForSelector('#token-error:not(:empty)');
    await page.fill('#token-input', 'tok-123');
    await page.click('#token-form button');
    await page.waitForSelector('#wallets');
    await page.waitForSelector('body[data-live="true"]');
    const charge = await createCharge({ amount: 4, description: 'behind a token' });
    await page.waitForSelector(row(charge.id));
    await page.reload();
    await page.waitForSelector(row(charge.id)); // the tab kept the token
    expect(await page.isHidden('#token-form')).toBe(true);
  });
});
