// The console's Requests panel in Chromium (sandbox.md 14): a request made elsewhere appears without a reload with its
// status colour; an entry opens to both bodies; failures come first on that filter; "Copy as curl" has the secrets as
// placeholders; the entry links to the transaction it made. Clean under axe-core at phone and laptop widths.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, browserForFile, noBrowser, openPage, scrollsSideways, startSite, type Site } from './support';
import { DEFAULT } from '../helpers/harness';

describe.skipIf(noBrowser('requests.test.ts'))('the Requests panel in Chromium', () => {
  const b = browserForFile();
  const { closers } = b;
  let site: Site;
  afterEach(async () => {
    await site?.close();
  });

  async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(site.url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }
  async function bearer() {
    const auth = await send('POST', '/v2/auth', { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret });
    return { authorization: `Bearer ${auth.body.access_token}` };
  }
  async function openConsole(width: number, path = '/'): Promise<Page> {
    const { context, page } = await openPage(b.rig.browser, width);
    closers.push(() => context.close());
    await page.goto(site.url + path);
    await page.waitForSelector('body[data-live="true"]');
    return page;
  }

  test.each([390, 1366])('at %i px it shows requests with their status, opens to both bodies, and is axe clean', async (width) => {
    site = await startSite();
    const headers = await bearer();
    const made = await send('POST', '/v2/pix', { amount: 10, description: 'panel' }, { ...headers, 'idempotency-key': 'order-panel-1' });
    expect(made.status).toBe(201);
    const page = await openConsole(width);
    const refused = await send('POST', '/v2/pix', { amount: -1 }, headers);
    expect(refused.status).toBe(400);
    // Live: the refusal appears without a reload.
    await page.waitForSelector('#requests li[data-status="400"]');
    const entry = page.locator('#requests li[data-status="201"]').first();
    await entry.locator('summary').click();
    await expect.poll(() => entry.locator('pre').count()).toBe(2);
    expect(await entry.locator('pre').first().textContent()).toContain('"description": "panel"');
    expect(await entry.locator('.badge').first().getAttribute('class')).toContain('s-completed');
    expect(await page.locator('#requests li[data-status="400"] .badge').first().getAttribute('class')).toContain('s-pending');
    const curl = await entry.locator('button[data-copy]').getAttribute('data-copy');
    expect(curl).toContain('-H "Authorization: Bearer $TOKEN"');
    expect(curl).toContain("-H 'idempotency-key: order-panel-1'");
    expect(curl).not.toContain(headers.authorization.slice(7));
    const link = entry.locator(`a[href$="#tx-${made.body.id}"]`);
    expect(await link.count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await page.locator('#requests').screenshot({ path: join(tmpdir(), `pix-sandbox-requests-${width}.png`) }); // to look at by hand
  });

  test('failures first puts the refused requests at the top', async () => {
    site = await startSite();
    const headers = await bearer();
    await send('POST', '/v2/pix', { amount: -1 }, headers);
    await send('POST', '/v2/pix', { amount: 10, description: 'ok' }, headers);
    const page = await openConsole(1366);
    expect(await page.locator('#requests li').first().getAttribute('data-status')).not.toBe('400');
    await page.locator('#requests a', { hasText: 'Failures first' }).click();
    await page.waitForSelector('#requests a:text("Newest first")');
    expect(await page.locator('#requests li').first().getAttribute('data-status')).toBe('400');
  });
});
