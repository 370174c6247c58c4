// axe-core finds no violation of any impact on any page a presenter or an attendee opens (sandbox.md 5.2), at the
// presenter's 1366x768 and a phone's 390x844: one sandbox with an admin token and a workshop room, Ana added by the
// presenter (her console link is her way in) with a charge and a payment link of her own. SCREENSHOTS=dir keeps a
// picture of each page.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, browserForFile, noBrowser, screenshot, startSite, type Site } from './support';
import { call, createCharge } from './customer';

const ADMIN = 'presenter-secret';
const admin = { 'x-sandbox-token': ADMIN };
const VIEWPORTS = [
  [1366, 768],
  [390, 844],
] as const;

interface World {
  token: string;
  code: string;
  charge: string;
  slug: string;
  presenterCharge: string;
  presenterSlug: string;
}

/** Each page: who opens it, where, and what says it is ready (then axe runs). */
const PAGES: Array<[name: string, who: 'presenter' | 'attendee' | 'nobody', path: (w: World) => string, ready: string]> = [
  ['presenter console with the room', 'presenter', () => '/', '#room-h'],
  ['room in projector mode', 'presenter', () => '/?projector', '#room-h'],
  ['presenter checkout', 'presenter', (w) => `/pix/qr/${w.presenterCharge}`, 'body[data-live="true"]'],
  ['presenter link page', 'presenter', (w) => `/c/${w.presenterSlug}`, '#payment-link'],
  ['presenter /pay', 'presenter', () => '/pay', 'body[data-live="true"]'],
  ['console asking for the admin token', 'nobody', () => '/', '#token-form:not([hidden])'],
  ['/join', 'nobody', (w) => `/join?code=${w.code}`, '#join-name'],
  ['/join with a wrong code', 'nobody', () => '/join?code=WRONG1', '#join-message'],
  ['/join, joined', 'nobody', (w) => `/join?code=${w.code}`, '#join-name'],
  ['attendee console (with its deliveries)', 'attendee', (w) => `/?attendee=${w.token}`, 'body[data-live="true"]'],
  ['attendee checkout', 'attendee', (w) => `/pix/qr/${w.charge}?attendee=${w.token}`, 'body[data-live="true"]'],
  ['attendee link page', 'attendee', (w) => `/c/${w.slug}?attendee=${w.token}`, 'body[data-live="true"]'],
  ['attendee /pay', 'attendee', (w) => `/pay?attendee=${w.token}`, 'body[data-live="true"]'],
  ['an attendee link nobody holds', 'nobody', () => '/?attendee=forged', '#attendee-gone'],
];

describe.skipIf(noBrowser('axe-all.test.ts'))('axe: no violation of any impact', { timeout: 60_000 }, () => {
  const b = browserForFile();
  let site: Site;
  let world: World;
  beforeAll(async () => {
    site = await startSite({ workshop: true, adminToken: ADMIN });
    const added = await call(site, 'POST', '/_sandbox/workshop/attendees', { names: ['Ana Beatriz'] }, admin);
    const ana = added.body.attendees[0];
    const auth = await call(site, 'POST', '/v2/auth', { client_id: ana.clientId, client_secret: ana.clientSecret });
    const charge = await call(site, 'POST', '/v2/pix', { amount: 19.9, description: 'Coffee' }, { authorization: `Bearer ${auth.body.access_token}` });
    const project = await call(site, 'POST', '/v1/projects', { name: 'Shop' }, { 'x-api-key': ana.apiKey });
    const link = await call(site, 'POST', '/v1/charges', { projectId: project.body.id, name: 'Course', amount: 50, paymentMethods: ['pix', 'credit_card', 'boleto'] }, { 'x-api-key': ana.apiKey });
    const presenterLink = await call(site, 'POST', '/v1/charges', { projectId: '33333333-3333-4333-8333-333333333301', name: 'Demo', amount: 10, paymentMethods: ['pix', 'credit_card'] }, { 'x-api-key': 'mp_test_sandbox_api_key_0001' });
    for (const res of [charge, link, presenterLink]) expect(res.status, res.text).toBe(201);
    const presenterCharge = await createCharge(site, {}, admin);
    world = { token: new URL(ana.consoleUrl).searchParams.get('attendee')!, code: site.sb.deps.workshop.code!, charge: charge.body.id, slug: link.body.slug, presenterCharge: presenterCharge.id, presenterSlug: presenterLink.body.slug };
  });
  afterAll(async () => {
    await site?.close();
  });

  async function open(who: string, width: number, height: number, projector: boolean): Promise<Page> {
    const context = await b.rig.browser.newContext({ viewport: { width, height } });
    b.closers.push(() => context.close());
    if (who === 'presenter') await context.addInitScript(() => (globalThis as any).sessionStorage.setItem('pix-sandbox-token', 'presenter-secret'));
    if (projector) await context.addInitScript(() => (globalThis as any).localStorage.setItem('pix-sandbox-projector', '1'));
    return context.newPage();
  }

  const rows = PAGES.flatMap(([name, who, path, ready]) => VIEWPORTS.map(([w, h]) => [name, w, h, who, path, ready] as const));
  test.each(rows)('%s at %ix%i', async (name, width, height, who, path, ready) => {
    const page = await open(who, width, height, name.includes('projector'));
    await page.goto(site.url + path(world).replace('?projector', ''));
    await page.waitForSelector(ready);
    if (name === '/join, joined') {
      await page.fill('#join-name', `Phone ${width}`);
      await page.click('button[type=submit]');
      await page.waitForSelector('#attendee-name');
    }
    await screenshot(page, `${name.replace(/[^a-z0-9]+/gi, '-')}-${width}`);
    expect(await axe(page, 'all')).toEqual([]);
    // The header claims no connection it is not making: "connecting…" only while a stream is opening.
    expect(await page.locator('#conn[data-state="connecting"]').count()).toBe(0);
  });
});
