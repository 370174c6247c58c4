// Every page a workshop attendee opens works with their own token (sandbox.md 5.2), in Chromium, on a sandbox with an
// admin token: an attendee added in bulk (no join cookie: their console link is their way in) opens the checkout of
// their charge from their console, follows it live and pays it; /pay says at once, where Pay would be, a charge it
// will not pay (a neighbour's, one already paid). No admin token is asked for anywhere. No sleeps: waits are for DOM.
import { afterEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, browserForFile, noBrowser, startSite, type Site } from './support';
import { call } from './customer';

const ADMIN = 'presenter-secret';
const admin = { 'x-sandbox-token': ADMIN };

interface Added {
  name: string;
  accountId: string;
  consoleUrl: string;
  clientId: string;
  clientSecret: string;
}

describe.skipIf(noBrowser('attendee-pages.test.ts'))("an attendee's pages", { timeout: 60_000 }, () => {
  const b = browserForFile();
  let site: Site;
  afterEach(async () => {
    await site?.close();
  });

  /** A workshop with Ana and Bruno added by the presenter through the control API. */
  async function room(): Promise<Added[]> {
    site = await startSite({ workshop: true, adminToken: ADMIN });
    const res = await call(site, 'POST', '/_sandbox/workshop/attendees', { names: ['Ana', 'Bruno'] }, admin);
    expect(res.status, res.text).toBe(201);
    return res.body.attendees;
  }

  /** A charge made with the attendee's own credentials, as their app makes it. */
  async function chargeOf(a: Added, amount = 19.9): Promise<{ id: string; pixCopyPaste: string }> {
    const auth = await call(site, 'POST', '/v2/auth', { client_id: a.clientId, client_secret: a.clientSecret });
    const res = await call(site, 'POST', '/v2/pix', { amount, description: `${a.name}'s coffee` }, { authorization: `Bearer ${auth.body.access_token}` });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function phone(): Promise<Page> {
    const context = await b.rig.browser.newContext({ viewport: { width: 390, height: 844 } });
    b.closers.push(() => context.close());
    return context.newPage();
  }

  const path = (url: string) => new URL(url).pathname + new URL(url).search;

  test('the checkout opened from their console follows the charge live with their token and pays it; no admin token asked', async () => {
    const [ana] = await room();
    const first = await chargeOf(ana!);
    const second = await chargeOf(ana!, 7.5);
    const page = await phone();
    await page.goto(site.url + path(ana!.consoleUrl));
    const link = page.locator(`a.checkout-link[href^="/pix/qr/${first.id}"]`);
    await link.waitFor();
    // The link carries the attendee's token: this browser has no join cookie.
    expect(await link.getAttribute('href')).toMatch(/[?&]attendee=/);
    await page.goto(site.url + (await link.getAttribute('href')));
    await page.waitForSelector('body[data-live="true"]');
    expect(await page.locator('#token-form').count()).toBe(0);
    expect(await page.locator('#status').innerText()).toBe('Waiting for payment');
    expect(await axe(page)).toEqual([]);

    // Paid elsewhere (the presenter, curl): the page says Paid within a second, no reload.
    const started = Date.now();
    expect((await call(site, 'POST', `/_sandbox/transactions/${first.id}/pay`, undefined, admin)).status).toBe(200);
    await page.waitForFunction(() => (globalThis as any).document.getElementById('status').textContent === 'Paid', undefined, { timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);

    // "Pay as the customer" on the second charge's checkout, with the attendee's token.
    await page.goto(`${site.url}/pix/qr/${second.id}?attendee=${new URL(ana!.consoleUrl).searchParams.get('attendee')}`);
    await page.waitForSelector('body[data-live="true"]');
    await page.click('#pay');
    await page.waitForFunction(() => (globalThis as any).document.getElementById('status').textContent === 'Paid', undefined, { timeout: 1000 });
    expect(await page.locator('#pay-result').innerText()).toMatch(/^Paid/);
  });

  test("a neighbour's checkout, opened with the attendee's token, says it is not theirs to pay in place of the form", async () => {
    const [ana, bruno] = await room();
    const theirs = await chargeOf(bruno!);
    const page = await phone();
    await page.goto(`${site.url}/pix/qr/${theirs.id}?attendee=${new URL(ana!.consoleUrl).searchParams.get('attendee')}`);
    // Ana's token follows her tenant only: the header says this page is not followed, never "connecting…" or "live".
    await page.waitForSelector('#conn[data-state="not-followed"]');
    expect(await page.locator('#pay').count()).toBe(0);
    expect(await page.locator('#pay-refused').innerText()).toContain("belongs to another tenant, not Ana's");
    expect(await axe(page)).toEqual([]);
  });

  test.each([
    ['a neighbour’s pending charge', 'bruno', false, /belongs to another tenant \(Bruno\), not Ana's/],
    ['their own charge, paid already', 'ana', true, /Nothing to pay: this charge is paid already\./],
  ])('/pay tells before it asks: %s', async (_label, whose, paid, words) => {
    const [ana, bruno] = await room();
    const charge = await chargeOf(whose === 'ana' ? ana! : bruno!);
    if (paid) expect((await call(site, 'POST', `/_sandbox/transactions/${charge.id}/pay`, undefined, admin)).status).toBe(200);
    const page = await phone();
    await page.goto(`${site.url}/pay?attendee=${new URL(ana!.consoleUrl).searchParams.get('attendee')}`);
    await page.waitForSelector('body[data-live="true"]');
    expect(await page.locator('#token-form').count()).toBe(0);
    await page.fill('#brcode', charge.pixCopyPaste);
    await page.click('#decode');
    await page.waitForSelector('#pay-blocked:not([hidden])');
    expect(await page.locator('#pay-blocked').innerText()).toMatch(words);
    expect(await page.locator('#pay-form').isHidden()).toBe(true);
    expect(await page.locator('#verdict').getAttribute('class')).not.toContain(' ok');
    expect(await axe(page)).toEqual([]);
  });
});

describe.skipIf(noBrowser('attendee-pages.test.ts'))('attendees are told', { timeout: 60_000 }, () => {
  const b = browserForFile();
  let site: Site;
  afterEach(async () => {
    await site?.close();
  });

  /** Ana joins from a phone (the join cookie) and opens her console; the presenter's console is open at 1366. */
  async function joined() {
    site = await startSite({ workshop: true, adminToken: ADMIN });
    const code = site.sb.deps.workshop.code!;
    const context = await b.rig.browser.newContext({ viewport: { width: 390, height: 844 } });
    b.closers.push(() => context.close());
    const page = await context.newPage();
    await page.goto(`${site.url}/join?code=${code}`);
    await page.fill('#join-name', 'Ana');
    await page.click('button[type=submit]');
    await page.click('#console-link');
    await page.waitForSelector('body[data-live="true"]');
    return page;
  }

  const gone = (page: Page, started: number) =>
    page.waitForSelector('#attendee-gone', { timeout: 1000 }).then(async () => {
      expect(Date.now() - started).toBeLessThan(1000);
      return page.locator('#attendee-gone').innerText();
    });

  test('the workshop ends: the open console says so within a second, no stale "live", what it showed stays to read', async () => {
    const page = await joined();
    const started = Date.now();
    expect((await call(site, 'DELETE', '/_sandbox/workshop', undefined, admin)).status).toBe(200);
    expect(await gone(page, started)).toContain('The workshop has ended');
    await page.waitForSelector('#attendee-gone p:nth-child(3)');
    expect(await page.locator('#attendee-gone').innerText()).toContain('Thank you');
    expect(await page.locator('#conn').innerText()).toBe('workshop ended');
    expect(await page.locator('#attendee-tenant').innerText()).toContain('Ana'); // still there to read
    expect(await axe(page)).toEqual([]);
  });

  test('a reset with the room open: the console says so and offers joining again; the room lists no one whose tenant went', async () => {
    const page = await joined();
    const presenter = await b.rig.browser.newContext({ viewport: { width: 1366, height: 768 } });
    b.closers.push(() => presenter.close());
    const p = await presenter.newPage();
    await p.addInitScript(() => (globalThis as any).sessionStorage.setItem('pix-sandbox-token', 'presenter-secret'));
    await p.goto(site.url);
    await p.waitForSelector('#room-h');
    expect(await p.locator('#reset-room').textContent()).toMatch(/stays open with its code, but its attendee loses their tenant and leaves the room: their pages say so, and they can join again/);
    const started = Date.now();
    expect((await call(site, 'POST', '/_sandbox/reset', {}, admin)).status).toBe(200);
    expect(await gone(page, started)).toContain('The sandbox was reset');
    await page.waitForSelector('#attendee-gone a[href="/join"]');
    expect((await call(site, 'GET', '/_sandbox/workshop', undefined, admin)).body.attendees).toEqual([]);
    expect(await axe(page)).toEqual([]);
  });
});
