// The console as a workshop presenter uses it (sandbox.md 5.1), in Chromium: every form and switch, a story played
// end to end and shown step by step, projector mode (remembered, big type, 44 px targets, axe-clean), the honest
// connection state across a real server stop and restart, Reset's confirmation, one message per error, local times
// with their offset, and the checkout's large paid state. No sleeps: every wait is for a DOM condition.
import { afterEach, describe, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { createSandbox } from '../../src/app';
import { axe, browserForFile, noBrowser, scrollsSideways, startSite, type Site } from './support';
import { call, callOk, createCharge } from './customer';
import { DEFAULT } from '../helpers/harness';

const A = DEFAULT.accountId;
const INSTITUTION_UP = '44444444-4444-4444-8444-444444444401';
const ENDPOINT = '77777777-7777-4777-8777-777777777701';

describe.skipIf(noBrowser('presenter.test.ts'))('the console for a presenter', () => {
  const b = browserForFile();
  const { closers } = b;
  let site: Site;
  afterEach(async () => {
    await site?.close();
  });

  async function open(width: number, opts: { projector?: boolean; path?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await b.rig.browser.newContext({ viewport: { width, height: 900 }, timezoneId: 'America/Sao_Paulo' });
    closers.push(() => context.close());
    if (opts.projector) await context.addInitScript(() => (globalThis as any).localStorage.setItem('pix-sandbox-projector', '1'));
    const page = await context.newPage();
    await page.goto(site.url + (opts.path ?? '/'));
    await page.waitForSelector('body[data-live="true"]');
    await page.evaluate(() => ((globalThis as any).__sameDocument = true));
    return { context, page };
  }
  const sameDocument = (page: Page) => page.evaluate(() => (globalThis as any).__sameDocument === true);
  const api = (method: string, path: string, body?: unknown) => callOk(site, method, path, body);
  const row = (id: string) => `tr[data-tx="${id}"]`;

  /** Visible controls smaller than `min` px in either dimension (checkboxes and inline links in text aside). */
  const smallTargets = (page: Page, min: number) =>
    page.evaluate((m: number) => {
      const d = (globalThis as any).document;
      const out: string[] = [];
      d.querySelectorAll('button, summary, select, input:not([type=hidden]), .pager a, header a').forEach((el: any) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || el.closest('[hidden]')) return;
        if (r.height < m - 0.5 || r.width < m - 0.5) out.push(`${el.tagName}${el.id ? `#${el.id}` : ''} "${(el.textContent || el.name || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
      });
      return out;
    }, min);

  test.each([390, 1366])('projector mode at %i px: remembered across a reload, text of 20 px or more, 44 px targets, axe-clean, no sideways scroll', async (width) => {
    site = await startSite();
    const paid = await createCharge(site, { amount: 10, description: 'projected' });
    await api('POST', `/_sandbox/transactions/${paid.id}/pay`);
    await createCharge(site, { amount: 12, description: 'pending one' });
    const { page } = await open(width);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.classList.contains('projector'))).toBe(false);
    await page.click('#projector-toggle');
    await page.reload();
    await page.waitForSelector('html.projector #projector-toggle[aria-pressed="true"]');
    await page.waitForSelector('body[data-live="true"]');
    expect(await axe(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await smallTargets(page, 44)).toEqual([]);
    const tooSmall = await page.evaluate(() => {
      const d = (globalThis as any).document;
      const out: string[] = [];
      const walker = d.createTreeWalker(d.querySelector('main'), 4);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!n.textContent.trim() || !el || el.getClientRects().length === 0 || el.closest('.visually-hidden') || el.closest('details:not([open]) > :not(summary)')) continue;
        const size = parseFloat((globalThis as any).getComputedStyle(el).fontSize);
        if (size < 20) out.push(`${el.tagName}.${el.className} "${n.textContent.trim().slice(0, 20)}" ${size}px`);
      }
      return out;
    });
    expect(tooSmall).toEqual([]);
    // The charge's fee is folded into its row (one line per transaction), and the New charge form and Stories come first.
    await expect(page.locator(`${row(paid.id)} .fee`).textContent()).resolves.toMatch(/^fee R\$ /);
    expect(await page.locator('tr[data-type="fee"]').count()).toBe(0);
    const tops = await page.evaluate(() => ['new-charge', 'stories', 'transactions'].map((id) => (globalThis as any).document.getElementById(id).getBoundingClientRect().top));
    expect(tops[0]).toBeLessThan(tops[2]!);
    expect(tops[1]).toBeLessThan(tops[2]!);
  });

  test.each([390, 1366])('at %i px every tap target of the console is at least 24 px', async (width) => {
    site = await startSite();
    const paid = await createCharge(site, { amount: 10, description: 'targets' });
    await api('POST', `/_sandbox/transactions/${paid.id}/pay`);
    const { page } = await open(width);
    await page.click(`#menu-${paid.id} summary`);
    await page.click('#reset-menu summary');
    expect(await smallTargets(page, 24)).toEqual([]);
  });

  test('New charge with a customer and a magic CPF opens its checkout in a new tab, which turns to a large Paid state 5 s of sandbox clock later', async () => {
    site = await startSite();
    const { context, page } = await open(1366);
    await page.fill('#nc-amount', '31.40');
    await page.fill('#nc-description', 'Workshop coffee');
    await page.fill('#nc-customer-name', 'Maria Magica');
    await page.fill('#nc-customer-document', '00000000191');
    await page.selectOption('#nc-open', 'tab');
    const [tab] = await Promise.all([context.waitForEvent('page'), page.click('#new-charge button[type=submit]')]);
    await tab.waitForURL(/\/pix\/qr\//);
    await tab.waitForSelector('body[data-live="true"]');
    await tab.waitForSelector('#checkout[data-status="pending"]');
    expect(await tab.isVisible('#copy')).toBe(true);
    expect(await tab.isVisible('#final-state')).toBe(false);
    await page.waitForSelector('#new-charge output.ok >> text=Open its checkout');
    await api('POST', '/_sandbox/clock/advance', { seconds: 5 });
    await tab.waitForSelector('#checkout[data-status="paid"] #final-state >> text=Paid');
    expect(await tab.isVisible('#final-state')).toBe(true);
    expect(await tab.isVisible('#copy'), 'no Copy button once paid').toBe(false);
    expect(await tab.isVisible('#qr'), 'no QR once paid').toBe(false);
    expect(await axe(tab)).toEqual([]);
    const id = new URL(tab.url()).pathname.split('/').pop()!;
    await page.waitForSelector(`${row(id)}[data-status="completed"] >> text=payer Maria Magica`);
    expect(await sameDocument(page)).toBe(true);
  });

  test('"Open checkout here" replaces the console with the checkout page', async () => {
    site = await startSite();
    const { page } = await open(390);
    await page.selectOption('#nc-open', 'here');
    await page.click('#new-charge button[type=submit]');
    await page.waitForURL(/\/pix\/qr\//);
    await page.waitForSelector('#checkout[data-status="pending"]');
  });

  test.each([
    ['abc', 'New charge'],
    ['0', 'New charge'],
    ['-5', 'New charge'],
  ])('an amount of %s in %s says its error once', async (amount) => {
    site = await startSite();
    const { page } = await open(1366);
    await page.fill('#nc-amount', amount);
    await page.click('#new-charge button[type=submit]');
    const text = (await (await page.waitForSelector('#new-charge output.error')).textContent())!;
    expect(text).toMatch(/^Invalid request: amount /);
    const first = text.replace(/^Invalid request: amount /, '').slice(0, 20);
    expect(text.split(first).length, text).toBe(2);
  });

  test('Advance with abc and Block with 99999 say their errors once', async () => {
    site = await startSite();
    const paid = await createCharge(site, { amount: 10, description: 'blocked' });
    await api('POST', `/_sandbox/transactions/${paid.id}/pay`);
    const { page } = await open(1366);
    await page.fill('#advance-seconds', 'abc');
    await page.click('button[aria-label="Advance the clock by these seconds"]');
    const advance = (await (await page.waitForSelector('#clock output.error')).textContent())!;
    expect(advance.match(/must be a number of seconds/g), advance).toHaveLength(1);
    await page.click(`#menu-${paid.id} summary`);
    await page.fill(`#ba-${paid.id}`, '99999');
    await page.click(`#menu-${paid.id} form[data-action$="/block"] button`);
    const block = (await (await page.waitForSelector(`#menu-${paid.id} form[data-action$="/block"] output.error`)).textContent())!;
    expect(block.length).toBeGreaterThan(10);
    expect(block.indexOf(block.slice(0, 25), 1), block).toBe(-1);
  });

  test('Refund on a completed payment makes a pending refund that completes, labelled with its recipient', async () => {
    site = await startSite();
    const paid = await createCharge(site, { amount: 20, description: 'to refund' });
    await api('POST', `/_sandbox/transactions/${paid.id}/pay`, { payerName: 'Ana Souza', payerDocument: '52998224725' });
    const { page } = await open(390);
    await page.click(`${row(paid.id)} button[aria-label^="Refund"]`);
    await page.waitForSelector(`${row(paid.id)} output.ok >> text=Done.`);
    await page.waitForSelector('tr[data-type="refund"][data-status="pending"]');
    await api('POST', '/_sandbox/clock/advance', { seconds: 2 });
    await page.waitForSelector('tr[data-type="refund"][data-status="completed"]');
    await expect(page.locator(`${row(paid.id)}`).textContent()).resolves.toContain('payer Ana Souza');
    const refund = (await api('GET', `/_sandbox/accounts/${A}/transactions?type=refund`)).items[0];
    expect(refund).toMatchObject({ type: 'refund', status: 'completed', amount: 20 });
  });

  test('New withdrawal with a magic key fails 5 s later and says recipient, not payer', async () => {
    site = await startSite();
    const { page } = await open(1366);
    await page.fill('#nw-key', 'falha@pix-sandbox.test');
    await page.fill('#nw-net', '15');
    await page.click('#new-withdrawal button[type=submit]');
    await page.waitForSelector('#new-withdrawal output.ok >> text=/Withdrawal .* created: pending/');
    const w = (await api('GET', `/_sandbox/accounts/${A}/transactions?type=withdrawal`)).items[0];
    await page.waitForSelector(`${row(w.id)} >> text=recipient Fulano de Tal`);
    await api('POST', '/_sandbox/clock/advance', { seconds: 5 });
    await page.waitForSelector(`${row(w.id)}[data-status="failed"] >> text=Chave PIX não encontrada`);
  });

  test('the fault switches: an institution down, an endpoint made to fail, an API fault injected and cleared', async () => {
    site = await startSite();
    const { page } = await open(1366);
    await page.selectOption(`#inst-${INSTITUTION_UP}`, 'down');
    await page.click(`li[data-institution="${INSTITUTION_UP}"] button`);
    await page.waitForSelector(`li[data-institution="${INSTITUTION_UP}"][data-status="down"]`);
    expect((await api('GET', `/_sandbox/accounts/${A}`)).institutions.find((i: any) => i.id === INSTITUTION_UP).status).toBe('down');
    await page.click(`li[data-endpoint="${ENDPOINT}"] button.danger`);
    await page.waitForSelector(`#wh-${ENDPOINT}[value="http://127.0.0.1:9/unreachable"]`);
    await page.click('button[aria-label="Inject an API fault"]');
    await page.waitForSelector('#switches output.ok >> text=In force: POST /v2/pix → 503.');
    const auth = await call(site, 'POST', '/v2/auth', { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret });
    expect((await call(site, 'POST', '/v2/pix', { amount: 1, description: 'x' }, { authorization: `Bearer ${auth.body.access_token}` })).status).toBe(503);
    await page.click('#switches form[data-method="DELETE"] button');
    await page.waitForSelector('#switches output.ok >> text=No API faults.');
    expect((await api('GET', '/_sandbox/faults')).rules).toEqual([]);
  });

  test('a story played from the Stories panel shows each step as it happens, then what it did', async () => {
    site = await startSite();
    const { page } = await open(1366);
    await page.click('li[data-story="refund"] button');
    // The first step shows while the story is still playing (the steps are 900 ms apart).
    await page.waitForSelector('#stories[data-playing="refund"] #story-log li[data-step="1"]');
    await page.waitForSelector('#stories[data-played="refund"]');
    const steps = await page.locator('#story-log li').allTextContents();
    expect(steps).toHaveLength(4);
    expect(steps[2]).toMatch(/^The merchant refunds it: Refund of 80\.00 to Maria Silva requested/);
    await page.waitForSelector('tr[data-type="refund"][data-status="completed"]');
    expect(await sameDocument(page)).toBe(true);
  });

  test('the header says live, then "offline, reconnecting" when the server stops, and live again when it is back, without a reload', async () => {
    site = await startSite();
    const port = Number(new URL(site.url).port);
    const { page } = await open(1366);
    const checkout = await createCharge(site);
    const other = await b.rig.browser.newContext({ viewport: { width: 390, height: 844 } });
    closers.push(() => other.close());
    const phone = await other.newPage();
    await phone.goto(`${site.url}/pix/qr/${checkout.id}`);
    await phone.waitForSelector('#conn[data-state="live"]');
    await expect(page.locator('#conn').textContent()).resolves.toBe('live');
    await site.close();
    await page.waitForSelector('#conn[data-state="offline"]');
    await expect(page.locator('#conn').textContent()).resolves.toBe('offline, reconnecting…');
    await phone.waitForSelector('#conn[data-state="offline"]');
    const sb = await createSandbox({ log: () => {}, clockStart: '2026-03-10T12:00:00.000Z', freezeClock: true });
    await sb.listen({ port, host: '127.0.0.1' });
    site = { sb, url: `http://127.0.0.1:${port}`, close: () => sb.close() };
    await page.waitForSelector('#conn[data-state="live"]', { timeout: 15000 });
    expect(await sameDocument(page)).toBe(true);
    // The new server has none of the old charges: the console re-read its state on reconnecting.
    await page.waitForSelector(`${row(checkout.id)}`, { state: 'detached' });
  });

  test('Reset asks first, and "reset the clock too" puts the clock back where start-up put it', async () => {
    site = await startSite();
    const charge = await createCharge(site, { description: 'before reset' });
    await api('POST', '/_sandbox/clock/advance', { seconds: 3600 });
    const { page } = await open(1366);
    await page.waitForSelector(row(charge.id));
    expect(await page.isVisible('#reset-menu button.danger')).toBe(false);
    await page.click('#reset-menu summary');
    await expect(page.locator('#reset-menu .menu-body p').textContent()).resolves.toContain('cannot be undone');
    expect(await page.locator(row(charge.id)).count(), 'opening the confirmation reset nothing').toBe(1);
    await page.check('#reset-clock');
    await page.click('#reset-menu button.danger');
    await page.waitForSelector(row(charge.id), { state: 'detached' });
    await page.waitForSelector('#clock-now[datetime="2026-03-10T12:00:00.000Z"]');
    expect((await api('GET', '/_sandbox/clock')).now).toBe('2026-03-10T12:00:00.000Z');
  });

  test('times show in the browser time zone with the offset (ISO on hover); an expired charge is cancelled (expired) and has its filter', async () => {
    site = await startSite();
    const expired = await createCharge(site, { description: 'left alone', expiresIn: 300 });
    const cancelled = await createCharge(site, { description: 'cancelled' });
    await api('POST', `/_sandbox/transactions/${cancelled.id}/cancel`);
    await api('POST', '/_sandbox/clock/advance', { seconds: 301 });
    const { page } = await open(1366);
    await expect(page.locator('#clock-now').textContent()).resolves.toBe('2026-03-10 09:05:01 −03:00');
    await expect(page.locator('#clock-now').getAttribute('title')).resolves.toBe('2026-03-10T12:05:01.000Z');
    await expect(page.locator(`${row(expired.id)} .badge`).textContent()).resolves.toBe('cancelled (expired)');
    await expect(page.locator(`${row(cancelled.id)} .badge`).textContent()).resolves.toBe('cancelled');
    await page.selectOption('#f-status', 'expired');
    await page.click('#transactions .filters button');
    await page.waitForURL(/status=expired/);
    await page.waitForSelector(row(expired.id));
    expect(await page.locator('tr[data-tx]').count()).toBe(1);
  });
});
