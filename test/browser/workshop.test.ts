// A workshop room in Chromium, as a presenter and three attendees live it (sandbox.md 5.2): the presenter's
// projector view shows the room; three browsers join from its URL, each makes a charge with their own credentials and
// pays it on /pay (no admin token: theirs is a console token); the Room panel shows their steps live; an attendee's
// console shows only their tenant; ending the workshop (after asking) removes the three tenants. axe-clean at 390 and
// 1366 px. The sandbox has an admin token, as a room on a network should. No sleeps: every wait is for a DOM condition.
import { afterEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, browserForFile, noBrowser, screenshot, scrollsSideways, startSite, type Site } from './support';

const ADMIN = 'presenter-secret';

describe.skipIf(noBrowser('workshop.test.ts'))('a workshop room', () => {
  const b = browserForFile();
  let site: Site;
  afterEach(async () => {
    await site?.close();
  });
  // SCREENSHOTS=/some/dir keeps the whole page and its top of each view (to look at them).
  const shot = async (page: Page, name: string) => {
    await screenshot(page, name);
    await screenshot(page, `${name}-top`, false);
  };

  async function context(width: number, init?: () => void) {
    const ctx = await b.rig.browser.newContext({ viewport: { width, height: width < 500 ? 844 : 768 } });
    b.closers.push(() => ctx.close());
    if (init) await ctx.addInitScript(init);
    return ctx.newPage();
  }

  /** Joins from the join URL the presenter shows; returns the attendee's page (their credentials) and what it shows. */
  async function join(joinUrl: string, name: string) {
    const page = await context(390);
    await page.goto(joinUrl);
    await page.fill('#join-name', name);
    await page.click('button[type=submit]');
    await page.waitForSelector('#client-id');
    const text = (id: string) => page.locator(`#${id}`).innerText();
    return { page, name, accountId: await text('account-id'), clientId: await text('client-id'), clientSecret: await text('client-secret') };
  }

  test('three attendees join, charge and pay with their own credentials; the room shows it; ending removes their tenants', async () => {
    site = await startSite({ workshop: true, adminToken: ADMIN });
    site.sb.deps.settings.lanUrls = [`${site.url}/`]; // the address the room's QR and join URL name (the LAN one, on 0.0.0.0)
    const presenter = await context(1366, () => {
      (globalThis as any).sessionStorage.setItem('pix-sandbox-token', 'presenter-secret');
      (globalThis as any).localStorage.setItem('pix-sandbox-projector', '1');
    });
    await presenter.goto(site.url);
    await presenter.waitForSelector('#room-h');
    await presenter.waitForSelector('body[data-live="true"]');
    expect(await presenter.locator('img.room-qr').count()).toBe(1);
    const joinUrl = (await presenter.locator('#join-url').getAttribute('href'))!;
    expect(joinUrl).toBe(`${site.url}/join?code=${site.sb.deps.workshop.code}`); // the room's code, which joining takes

    const names = ['Ana', 'Bruno', '<b>Chloé</b> "=1+1"'];
    const attendees = [];
    for (const name of names) attendees.push(await join(joinUrl, name));
    for (const a of attendees) await presenter.waitForSelector(`#room li[data-attendee="${a.accountId}"]`);

    for (const a of attendees) {
      // Their app: a token and a charge with the credentials the join page showed, from their browser.
      const charge = await a.page.evaluate(
        async ({ clientId, clientSecret }) => {
          const auth = await fetch('/v2/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }) });
          const { access_token } = (await auth.json()) as { access_token: string };
          const res = await fetch('/v2/pix', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${access_token}` }, body: JSON.stringify({ amount: 19.9, description: 'Workshop charge' }) });
          return (await res.json()) as { status: string; pixCopyPaste: string };
        },
        { clientId: a.clientId, clientSecret: a.clientSecret },
      );
      expect(charge.status, JSON.stringify(charge)).toBe('pending');
      // Pays it on /pay, in the browser they joined from: no admin token is asked for.
      await a.page.goto(`${site.url}/pay`);
      expect(await a.page.locator('#token-form').count()).toBe(0);
      await a.page.fill('#brcode', charge.pixCopyPaste);
      await a.page.click('#decode');
      await a.page.click('#pay');
      await a.page.waitForSelector('#paid-screen:not([hidden])');
      if (a === attendees[0]) {
        expect(await axe(a.page), 'axe on /pay at 390 px').toEqual([]);
        await shot(a.page, 'attendee-pay-390');
      }
    }

    // The Room panel: each attendee reached token, charge and payment; the counts say 3.
    for (const a of attendees) await presenter.waitForSelector(`#room li[data-attendee="${a.accountId}"][data-steps~="payment"][data-steps~="token"][data-steps~="charge"]`);
    await presenter.waitForSelector('#room-counts li[data-step="payment"] strong:text-is("3")');
    expect(await presenter.locator('#room .room-name').allTextContents()).toEqual(names);
    expect(await axe(presenter), 'axe on the presenter console at 1366 px').toEqual([]);
    expect(await scrollsSideways(presenter)).toBe(false);
    await shot(presenter, 'presenter-room-1366');

    // An attendee's console: their tenant only.
    const ana = attendees[0]!;
    await ana.page.goto(`${site.url}/join`);
    await ana.page.click('#console-link');
    await ana.page.waitForSelector('#transactions');
    await ana.page.waitForSelector('body[data-live="true"]');
    const html = await ana.page.content();
    expect(html).toContain(ana.accountId);
    for (const other of attendees.slice(1)) expect(html).not.toContain(other.accountId);
    for (const absent of ['#pick-account', '#reset-menu', '#room-h', '#token-form', '#ft-path']) expect(await ana.page.locator(absent).count(), absent).toBe(0);
    expect(await ana.page.locator('#attendee-tenant').innerText()).toBe('Your tenant, Ana');
    expect(await axe(ana.page), 'axe on an attendee console at 390 px').toEqual([]);
    expect(await scrollsSideways(ana.page)).toBe(false);
    await shot(ana.page, 'attendee-console-390');

    // The presenter opens an attendee's console read-only: no actions to press.
    const [view] = await Promise.all([presenter.context().waitForEvent('page'), presenter.locator(`#room li[data-attendee="${attendees[2]!.accountId}"] a`).click()]);
    await view.waitForSelector('#transactions');
    expect(await view.locator('#attendee-tenant').innerText()).toContain('(read-only)');
    expect(await view.locator('form[data-action]:visible').count()).toBe(0);
    await view.close();

    // Ending asks first, then removes the three tenants; the room panel goes.
    await presenter.click('#end-workshop-menu > summary');
    await shot(presenter, 'presenter-end-confirm-1366');
    await presenter.check('#end-confirm');
    await presenter.click('#end-workshop-menu button.danger');
    await presenter.waitForSelector('#open-room-menu', { state: 'attached' });
    for (const a of attendees) expect(site.sb.deps.store.findAccount(a.accountId)).toBeUndefined();
    // Their console link opens nothing from now on, and says why.
    const after = await ana.page.goto(`${site.url}${new URL(ana.page.url()).pathname}${new URL(ana.page.url()).search}`);
    expect(after?.status()).toBe(410);
    expect(await ana.page.locator('h1').innerText()).toBe('The workshop has ended');
  }, 120_000);

  test('the join page and the presenter view are axe-clean at 390 px', async () => {
    site = await startSite({ workshop: true });
    const page = await context(390);
    // Without the code in the address: the page says where it is and takes it typed.
    await page.goto(`${site.url}/join`);
    expect(await axe(page), 'join at 390').toEqual([]);
    await page.fill('#join-code', site.sb.deps.workshop.code!.toLowerCase());
    await page.fill('#join-name', 'Dani');
    await page.click('button[type=submit]');
    await page.waitForSelector('#client-id');
    expect(await axe(page), 'credentials at 390').toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await shot(page, 'attendee-credentials-390');
    const presenter = await context(390);
    await presenter.goto(site.url);
    await presenter.waitForSelector('#room li[data-attendee]');
    await shot(presenter, 'presenter-room-390');
    expect(await axe(presenter), 'presenter at 390').toEqual([]);
    // The room panel fits the phone's width: nothing of it sticks out.
    const wide = await presenter.evaluate(() => {
      const d = (globalThis as any).document;
      return [...d.querySelectorAll('#room, #room *')].filter((el: any) => el.getBoundingClientRect().right > d.documentElement.clientWidth + 1).map((el: any) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
    });
    expect(wide).toEqual([]);
  }, 60_000);
});
