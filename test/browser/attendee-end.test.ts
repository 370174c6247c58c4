// An attendee's pages, live and after the end (sandbox.md 5.2), in Chromium on a sandbox with an admin token: their own
// payment link page follows the link live with their token (a payment over HTTP shows within a second, no reload);
// after the workshop ends, a reload of their console, checkout or link page says so in words (and, when joining is
// open again, how to rejoin), never the admin-token prompt. No sleeps: waits are for the DOM, bounded.
import { afterEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, browserForFile, noBrowser, startSite, type Site } from './support';
import { call } from './customer';

const ADMIN = 'presenter-secret';
const admin = { 'x-sandbox-token': ADMIN };

describe.skipIf(noBrowser('attendee-end.test.ts'))("an attendee's link page and their pages after the end", { timeout: 60_000 }, () => {
  const b = browserForFile();
  let site: Site;
  afterEach(async () => {
    await site?.close();
  });

  /** Ana joins from a phone (the join cookie): her credentials page, and what she made with them. */
  async function joined(): Promise<{ page: Page; token: string; link: { id: string; slug: string }; charge: string }> {
    site = await startSite({ workshop: true, adminToken: ADMIN });
    const context = await b.rig.browser.newContext({ viewport: { width: 390, height: 844 } });
    b.closers.push(() => context.close());
    const page = await context.newPage();
    await page.goto(`${site.url}/join?code=${site.sb.deps.workshop.code}`);
    await page.fill('#join-name', 'Ana');
    await page.click('button[type=submit]');
    const text = (id: string) => page.locator(`#${id}`).innerText();
    const [apiKey, clientId, clientSecret, consoleHref] = [await text('api-key'), await text('client-id'), await text('client-secret'), await page.locator('#console-link').getAttribute('href')];
    const token = new URL(consoleHref!).searchParams.get('attendee')!;
    const project = await call(site, 'POST', '/v1/projects', { name: 'Ana’s shop' }, { 'x-api-key': apiKey });
    expect(project.status, project.text).toBe(201);
    const link = await call(site, 'POST', '/v1/charges', { projectId: project.body.id, name: 'Ana’s course', amount: 50, paymentMethods: ['pix', 'credit_card'] }, { 'x-api-key': apiKey });
    expect(link.status, link.text).toBe(201);
    const auth = await call(site, 'POST', '/v2/auth', { client_id: clientId, client_secret: clientSecret });
    const charge = await call(site, 'POST', '/v2/pix', { amount: 12.5, description: 'Ana’s coffee' }, { authorization: `Bearer ${auth.body.access_token}` });
    expect(charge.status, charge.text).toBe(201);
    return { page, token, link: link.body, charge: charge.body.id };
  }

  test.each([
    ['the join cookie', false],
    ['her console link (?attendee=)', true],
  ])('her own link page, opened with %s, shows a payment made over HTTP within a second, no reload', async (_way, byLink) => {
    const { page, token, link } = await joined();
    await page.goto(`${site.url}/c/${link.slug}${byLink ? `?attendee=${token}` : ''}`);
    await page.waitForSelector('body[data-live="true"]');
    expect(await page.locator('#token-form, #token-card').count()).toBe(0);
    expect(await page.locator('#counters').innerText()).toMatch(/^0 payments/);
    const started = Date.now();
    const paid = await call(site, 'POST', `/_sandbox/charges/${link.id}/pay`, { paymentMethod: 'credit_card' }, { 'x-sandbox-token': token });
    expect(paid.status, paid.text).toBe(200);
    await page.waitForFunction(() => /^1 payment, R\$ 50,00 collected/.test((globalThis as any).document.getElementById('counters').textContent), undefined, { timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await page.locator('#pay-credit_card').isEnabled()).toBe(true); // the link stays open for more payments
  });

  test.each([
    ['console', 'closed'],
    ['checkout', 'closed'],
    ['link', 'closed'],
    ['console', 'reopened'],
    ['checkout', 'reopened'],
    ['link', 'reopened'],
  ])('after the end, a reload of her %s page says the workshop ended, never asks for a token (joining %s)', async (which, joining) => {
    const { page, link, charge } = await joined();
    const path = { console: '/', checkout: `/pix/qr/${charge}`, link: `/c/${link.slug}` }[which]!;
    await page.goto(site.url + path);
    await page.waitForSelector('body[data-live="true"]');
    expect((await call(site, 'DELETE', '/_sandbox/workshop', undefined, admin)).status).toBe(200);
    await page.waitForSelector('#attendee-gone'); // the open page says so first (attendee-pages.test.ts times it)
    if (joining === 'reopened') expect((await call(site, 'POST', '/_sandbox/workshop', undefined, admin)).status).toBe(200);
    const res = await page.reload();
    expect(res!.status()).toBe(410);
    expect(await page.locator('h1').innerText()).toBe('The workshop has ended');
    const said = await page.locator('#attendee-gone').innerText();
    expect(said).toContain('the presenter ended it, and your tenant, its credentials and its records were deleted');
    if (joining === 'reopened') expect(await page.locator('#attendee-gone a[href="/join"]').innerText()).toBe('Join the workshop again');
    else expect(said).toContain('Thank you for taking part.');
    expect(await page.locator('#token-form, #token-input, input[type=password]').count()).toBe(0);
    expect(await page.locator('#conn').count()).toBe(0); // a page that follows nothing claims no connection state
    expect(await axe(page)).toEqual([]);
  });

  test('a browser that joined can forget it and open the presenter\'s console again', async () => {
    const { page } = await joined();
    expect((await call(site, 'DELETE', '/_sandbox/workshop', undefined, admin)).status).toBe(200);
    await page.goto(site.url);
    await page.click('#forget-browser button');
    await page.waitForSelector('#token-form:not([hidden])');
    expect(new URL(page.url()).pathname).toBe('/');
  });
});
