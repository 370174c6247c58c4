// The checkout page in Chromium, as a customer uses it: readable at 390 and 1366 px with no serious axe violation,
// paid from its side panel, live when paid from elsewhere, counting down on the sandbox clock and expiring with it.
// No sleeps: every wait is for a DOM condition.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axe, launchBrowser, noBrowser, openPage, scrollsSideways, startSite, type BrowserRig, type Site } from './support';
import { call, createCharge } from './customer';

describe.skipIf(noBrowser('checkout.test.ts'))('checkout page (GET /pix/qr/{id} in a browser)', () => {
  let rig: BrowserRig;
  let site: Site;
  beforeAll(async () => {
    [rig, site] = await Promise.all([launchBrowser(), startSite()]);
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  test.each([390, 1366])('at %i px it shows the charge, fits the width and has no critical or serious axe violation', async (width) => {
    const charge = await createCharge(site);
    const { context, page } = await openPage(rig.browser, width);
    await page.goto(`${site.url}/pix/qr/${charge.id}`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Loja Exemplo LTDA');
    await expect(page.locator('#amount').textContent()).resolves.toBe('R$ 25,90');
    await expect(page.locator('#code').inputValue()).resolves.toBe(charge.pixCopyPaste);
    await expect(page.locator('#qr').getAttribute('src')).resolves.toBe(charge.qrCodeBase64);
    expect(await page.locator('#qr').evaluate((img: any) => img.naturalWidth > 0 && img.complete)).toBe(true);
    await expect(page.locator('#status').textContent()).resolves.toBe('Waiting for payment');
    await expect(page.locator('#countdown').textContent()).resolves.toBe('1 d 00:00:00');
    expect(await scrollsSideways(page), 'the page scrolls sideways').toBe(false);
    expect(await axe(page)).toEqual([]);
    await context.close();
  });

  test.each([390, 1366])('at %i px in projector mode the QR enlarges on request, and the page stays axe-clean without sideways scroll', async (width) => {
    const charge = await createCharge(site);
    const { context, page } = await openPage(rig.browser, width);
    await context.addInitScript(() => (globalThis as any).localStorage.setItem('pix-sandbox-projector', '1'));
    await page.goto(`${site.url}/pix/qr/${charge.id}`);
    await page.waitForSelector('html.projector');
    const before = await page.locator('#qr').evaluate((img: any) => img.getBoundingClientRect().width);
    await page.click('#qr-size');
    await page.waitForSelector('#qr-size[aria-pressed="true"]');
    const after = await page.locator('#qr').evaluate((img: any) => img.getBoundingClientRect().width);
    if (width > 500) expect(after).toBeGreaterThan(before * 1.5);
    else expect(after).toBeGreaterThanOrEqual(before);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axe(page)).toEqual([]);
    await context.close();
  });

  test('paying from the side panel shows "Paid" without a reload, and the charge is completed with that payer', async () => {
    const charge = await createCharge(site);
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(`${site.url}/pix/qr/${charge.id}`);
    await page.fill('#payer-name', 'Maria Silva');
    await page.fill('#payer-document', '529.982.247-25');
    await page.click('#pay');
    await page.waitForSelector('#status[data-status="paid"]');
    await expect(page.locator('#status').textContent()).resolves.toBe('Paid');
    expect(await page.locator('#pay').isDisabled()).toBe(true);
    const tx = site.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!.transactions[charge.id]!;
    expect(tx).toMatchObject({ status: 'completed', counterpartName: 'Maria Silva', counterpartDocument: '52998224725' });
    await context.close();
  });

  test('a payment made elsewhere (curl, the console) shows up live', async () => {
    const charge = await createCharge(site);
    const { context, page } = await openPage(rig.browser, 1366);
    await page.goto(`${site.url}/pix/qr/${charge.id}`);
    await page.waitForSelector('body[data-live="true"]');
    const paid = await call(site, 'POST', `/_sandbox/transactions/${charge.id}/pay`, {});
    expect(paid.status, paid.text).toBe(200);
    await page.waitForSelector('#status[data-status="paid"]');
    await context.close();
  });

  test('advancing the sandbox clock moves the countdown, and past expiresAt the page says Expired', async () => {
    const charge = await createCharge(site, { expiresIn: 3600 });
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(`${site.url}/pix/qr/${charge.id}`);
    await page.waitForSelector('body[data-live="true"]');
    await expect(page.locator('#countdown').textContent()).resolves.toBe('01:00:00');
    expect((await call(site, 'POST', '/_sandbox/clock/advance', { seconds: 1800 })).status).toBe(200);
    await page.waitForFunction(() => (globalThis as any).document.getElementById('countdown').textContent === '00:30:00');
    expect((await call(site, 'POST', '/_sandbox/clock/advance', { seconds: 1800 })).status).toBe(200);
    await page.waitForSelector('#status[data-status="expired"]');
    await expect(page.locator('#status').textContent()).resolves.toBe('Expired');
    expect(await page.locator('#pay').isDisabled()).toBe(true);
    await context.close();
  });

  test('the copy button puts the code on the clipboard', async () => {
    const charge = await createCharge(site);
    const { context, page } = await openPage(rig.browser, 390);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    await page.goto(`${site.url}/pix/qr/${charge.id}`);
    await page.click('#copy');
    await page.waitForSelector('#copy-result:has-text("Copied")');
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(charge.pixCopyPaste);
    await context.close();
  });

  test('an unknown id is a readable 404 page', async () => {
    const { context, page } = await openPage(rig.browser, 390);
    const res = await page.goto(`${site.url}/pix/qr/00000000-0000-4000-8000-000000000000`);
    expect(res?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Charge not found');
    expect(await axe(page)).toEqual([]);
    await context.close();
  });
});

describe.skipIf(noBrowser('checkout.test.ts'))('checkout page with SANDBOX_ADMIN_TOKEN set', () => {
  let rig: BrowserRig;
  let site: Site;
  beforeAll(async () => {
    [rig, site] = await Promise.all([launchBrowser(), startSite({ adminToken: 'workshop-token' })]);
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  test('asks for the token once, then follows the stream and pays with it', async () => {
    const charge = await createCharge(site);
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(`${site.url}/pix/qr/${charge.id}`);
    await page.waitForSelector('#token-form:not([hidden])');
    await page.fill('#token-input', 'workshop-token');
    await page.click('#token-form button[type="submit"]');
    await page.waitForSelector('body[data-live="true"]');
    await page.click('#pay');
    await page.waitForSelector('#status[data-status="paid"]');
    await context.close();
  });
});
