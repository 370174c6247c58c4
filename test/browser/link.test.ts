// The payment link page /c/{slug} in Chromium, as a payer uses it: readable at 390 and 1366 px with no serious axe
// violation, paid by card from its form (no script needed), and by PIX through the charge's checkout page.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axe, launchBrowser, noBrowser, openPage, screenshot, scrollsSideways, startSite, type BrowserRig, type Site } from './support';

const KEY = { 'x-api-key': 'mp_test_sandbox_api_key_0001', 'content-type': 'application/json' };

async function newLink(site: Site, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${site.url}/v1/charges`, { method: 'POST', headers: KEY, body: JSON.stringify({ projectId: '33333333-3333-4333-8333-333333333301', name: 'Curso de Violão', description: 'Acesso por um ano', amount: 99.9, paymentMethods: ['pix', 'credit_card', 'boleto'], ...extra }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; url: string; slug: string };
}

describe.skipIf(noBrowser('link.test.ts'))('payment link page (GET /c/{slug} in a browser)', () => {
  let rig: BrowserRig;
  let site: Site;
  beforeAll(async () => {
    [rig, site] = await Promise.all([launchBrowser(), startSite()]);
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  test.each([390, 1366])('at %i px it shows the link, fits the width and has no critical or serious axe violation', async (width) => {
    const link = await newLink(site);
    const { context, page } = await openPage(rig.browser, width);
    await page.goto(link.url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Curso de Violão');
    await expect(page.locator('#amount').textContent()).resolves.toBe('R$ 99,90');
    expect(await scrollsSideways(page), 'the page scrolls sideways').toBe(false);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, `link-${width}`);
    await context.close();
  });

  test('card from the form pays at once; the page then shows the payment and the counters', async () => {
    const link = await newLink(site);
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(link.url);
    await page.fill('#payer-credit_card', 'Maria Silva');
    await page.click('#pay-credit_card');
    await page.waitForSelector('#paid');
    await expect(page.locator('#counters').textContent()).resolves.toContain('1 payment, R$ 99,90 collected');
    const stored = site.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!.paymentLinks[link.id]!;
    expect(stored).toMatchObject({ paymentsCount: 1, totalCollected: 9990 });
    await context.close();
  });

  test('PIX opens the checkout page of a charge of the link; paying it there raises the link\'s counters', async () => {
    const link = await newLink(site);
    const { context, page } = await openPage(rig.browser, 1366);
    await page.goto(link.url);
    await page.click('#pay-pix');
    await page.waitForURL(/\/pix\/qr\//);
    await expect(page.locator('#amount').textContent()).resolves.toBe('R$ 99,90');
    await page.click('#pay');
    await page.waitForSelector('#status[data-status="paid"]');
    const stored = site.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!.paymentLinks[link.id]!;
    expect(stored.paymentsCount).toBe(1);
    await context.close();
  });
});
