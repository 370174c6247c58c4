// The room run from the console (sandbox.md 5.2), in Chromium at a presenter's 1366x768: a room opened from a form
// (name, capacity, joining open; bad input said in words, nothing changed), closing, ending and resetting each
// confirmed in words about the attendees (not ticked: said, nothing changed), the join address and QR big with the
// code (on loopback with how phones reach it), and sixty attendees on one projector screen in the room view: the
// grid inside the viewport, every name whole on one line, axe without a violation of any impact.
// SCREENSHOTS=/some/dir saves a screenshot of each view checked.
import { afterEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, browserForFile, noBrowser, openLivePage, screenshot, startSite, type Site } from './support';
import { call, callOk } from './customer';

const PROJECTOR = { width: 1366, height: 768 };

describe.skipIf(noBrowser('room-view.test.ts'))('the room run from the console', () => {
  const b = browserForFile();
  let site: Site;
  afterEach(async () => {
    await site?.close();
  });
  const api = (method: string, path: string, body?: unknown) => callOk(site, method, path, body);
  const room = () => api('GET', '/_sandbox/workshop');

  const open = (path: string, opts: { projector?: boolean } = {}) => openLivePage(b, site.url + path, PROJECTOR, opts);
  const shot = (page: Page, name: string) => screenshot(page, name, false);

  /** Sixty attendees added by the presenter, a third of them with a token and a charge, half of those paid. */
  async function sixty() {
    await api('POST', '/_sandbox/workshop', { name: 'Pix na prática', max: 60 });
    const names = Array.from({ length: 60 }, (_, i) => `Participante ${String(i + 1).padStart(2, '0')}`);
    const added = (await api('POST', '/_sandbox/workshop/attendees', { names })).attendees;
    for (const [i, a] of added.slice(0, 20).entries()) {
      const auth = await call(site, 'POST', '/v2/auth', { client_id: a.clientId, client_secret: a.clientSecret });
      const charge = await call(site, 'POST', '/v2/pix', { amount: 10, description: 'room' }, { authorization: `Bearer ${auth.body.access_token}` });
      expect(charge.status, charge.text).toBe(201);
      if (i % 2 === 0) await api('POST', `/_sandbox/transactions/${charge.body.id}/pay`);
    }
    return added;
  }

  test('sixty attendees fit one 1366x768 projector screen in the room view: counts and controls on top, whole names, axe-clean', async () => {
    site = await startSite();
    await sixty();
    const page = await open('/?view=room', { projector: true });
    await page.waitForSelector('#room-grid li[data-steps="token charge payment"]');
    expect(await page.locator('#room-grid li').count()).toBe(60);
    await shot(page, 'room-view-60-1366x768-projector');
    const layout = await page.evaluate(() => {
      const d = (globalThis as any).document;
      const box = (el: any) => el.getBoundingClientRect();
      const names = [...d.querySelectorAll('#room-grid .room-name')].map((el: any) => {
        const lineHeight = parseFloat((globalThis as any).getComputedStyle(el).lineHeight);
        return { text: el.firstChild.textContent, fits: el.scrollWidth <= el.clientWidth, oneLine: box(el).height < lineHeight * 1.5, size: parseFloat((globalThis as any).getComputedStyle(el).fontSize) };
      });
      return {
        grid: box(d.getElementById('room-grid')),
        counts: box(d.getElementById('room-counts')).top,
        controls: box(d.querySelector('.room-controls')).top,
        scrollHeight: d.documentElement.scrollHeight,
        names,
      };
    });
    expect(layout.grid.top).toBeGreaterThan(layout.counts);
    expect(layout.controls).toBeLessThan(layout.counts);
    expect(layout.grid.bottom, 'the grid ends inside the viewport').toBeLessThanOrEqual(PROJECTOR.height);
    expect(layout.grid.right).toBeLessThanOrEqual(PROJECTOR.width);
    expect(layout.scrollHeight, 'the room view does not scroll').toBeLessThanOrEqual(PROJECTOR.height);
    expect(layout.names.filter((n) => !n.fits || !n.oneLine), 'names cut or broken').toEqual([]);
    expect(Math.min(...layout.names.map((n) => n.size))).toBeGreaterThanOrEqual(20);
    await expect(page.locator('#room-counts li[data-step="charge"]').innerText()).resolves.toMatch(/^20\s*\/60 First charge/);
    expect(await axe(page, 'all')).toEqual([]);
    // A step reached while the room view is open shows within a live update.
    const added = await room();
    const last = added.attendees[59];
    await api('POST', `/_sandbox/accounts/${last.accountId}/withdrawals`, { pixKeyType: 'email', pixKey: 'fulano@example.com', holderName: 'Fulano de Tal', holderDocumentType: 'cpf', holderDocument: '12345678909', amount: 5 });
    await page.waitForSelector(`#room-grid li[data-attendee="${last.accountId}"][data-steps="withdrawal"]`);
  });

  test('a room opened from the console form: bad input said in words with nothing opened, then the join address, code and a big QR, with how phones reach a loopback sandbox', async () => {
    site = await startSite();
    const page = await open('/', { projector: true });
    await page.click('#open-room-menu > summary');
    const submit = () => page.click('#open-room-menu button[type=submit]');
    const refusal = page.locator('#open-room-menu output.error');
    await page.fill('#room-name', 'Pix na prática');
    await page.fill('#room-max', '0');
    await submit();
    await expect(refusal.innerText()).resolves.toMatch(/max must be at least 1 attendee/);
    await page.fill('#room-max', '40');
    await page.fill('#room-name', '  ');
    await submit();
    await expect(refusal.innerText()).resolves.toMatch(/name must be 1 to 60 characters/);
    expect((await room()).started, 'nothing opened').toBe(false);
    await shot(page, 'open-room-refused-1366x768-projector');
    expect(await axe(page, 'all')).toEqual([]);
    await page.fill('#room-name', 'Pix na prática');
    await page.uncheck('#room-open');
    await submit();
    await page.waitForSelector('#room-h >> text=Workshop room: Pix na prática');
    expect(await room()).toMatchObject({ started: true, open: false, name: 'Pix na prática', max: 40 });
    const code = (await room()).code as string;
    await expect(page.locator('#room-state').innerText()).resolves.toMatch(/joining closed\s+0 of 40 joined/);
    // The join address carries the code, the code shows on its own, the QR is big while few have joined.
    await expect(page.locator('#join-url').innerText()).resolves.toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+/join\\?code=${code}$`));
    await expect(page.locator('.room-code').innerText()).resolves.toBe(code);
    // Measured in the page: the panel is swapped live, so a box read from outside may meet the element just replaced.
    const qrWidth = (): number => (globalThis as any).document.querySelector('.room-qr')?.getBoundingClientRect().width ?? 0;
    await page.waitForFunction(qrWidth, undefined, { timeout: 5000 }).catch(() => {});
    expect(await page.evaluate(qrWidth)).toBeGreaterThanOrEqual(240);
    await expect(page.locator('#room-loopback').innerText()).resolves.toMatch(new RegExp(`--host 0\\.0\\.0\\.0, then they join at \\S+:\\d+/join\\?code=${code}`));
    await shot(page, 'room-opened-1366x768-projector');
    expect(await axe(page, 'all')).toEqual([]);
  });

  test('closing joining, ending and resetting each say first what happens to the attendees; an irreversible one not ticked is refused in words, nothing changed', async () => {
    site = await startSite();
    await api('POST', '/_sandbox/workshop', { name: 'Pix na prática' });
    await api('POST', '/_sandbox/workshop/attendees', { count: 27 });
    const page = await open('/');
    await page.click('#close-joining-menu > summary');
    await expect(page.locator('#close-joining-menu .menu-body p').innerText()).resolves.toMatch(/No one new can join.*The 27 attendees in the room keep their tenants/);
    await page.click('#close-joining-menu button[type=submit]');
    await page.waitForSelector('#room-state >> text=joining closed');
    expect((await room()).open).toBe(false);

    // Reset with a room running: the confirmation names the room's attendees and asks for a tick.
    await page.click('#reset-menu > summary');
    await expect(page.locator('#reset-room').innerText()).resolves.toMatch(/its 27 attendees lose their tenants and leave the room/);
    await page.click('#reset-menu button.danger');
    await expect(page.locator('#reset-menu output.error').innerText()).resolves.toBe('Tick the box above to reset with a workshop running: nothing was reset.');
    expect((await room()).attendees).toHaveLength(27);

    await page.click('#end-workshop-menu > summary');
    await expect(page.locator('#end-workshop-what').innerText()).resolves.toMatch(/^End the workshop: the 27 attendees' tenants are deleted .* their tokens and credentials stop working; their open pages say the workshop ended and keep what they show to read/);
    await page.click('#end-workshop-menu button.danger');
    await expect(page.locator('#end-workshop-menu output.error').innerText()).resolves.toBe('Tick the box above to end the workshop: nothing was ended.');
    expect((await room()).attendees, 'nothing ended').toHaveLength(27);
    await shot(page, 'end-refused-1366x768');
    expect(await axe(page, 'all')).toEqual([]);
    await page.check('#end-confirm');
    await page.click('#end-workshop-menu button.danger');
    await page.waitForSelector('#open-room-menu', { state: 'attached' });
    expect(await room()).toMatchObject({ started: false, attendees: [] });
  });
});
