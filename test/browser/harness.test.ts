// The browser harness itself: Chromium starts, the sandbox's assets load in it with their content types, and axe-core
// runs in a page. (The pages' own behaviour is tested in the files beside this one.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axe, launchBrowser, noBrowser, openPage, startSite, type BrowserRig, type Site } from './support';

describe.skipIf(noBrowser('harness.test.ts'))('browser harness', () => {
  let rig: BrowserRig;
  let site: Site;
  beforeAll(async () => {
    [rig, site] = await Promise.all([launchBrowser(), startSite()]);
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  test('a page that uses the shared stylesheet and script loads both from the sandbox, and axe-core runs on it', async () => {
    const { context, page } = await openPage(rig.browser, 390);
    const types: Record<string, string | undefined> = {};
    page.on('response', (r) => {
      if (r.url().includes('/assets/')) types[new URL(r.url()).pathname] = r.headers()['content-type'];
    });
    await page.setContent(`<!doctype html><html lang="en"><head><title>t</title><link rel="stylesheet" href="${site.url}/assets/site.css"><script src="${site.url}/assets/sandbox.js"></script></head><body data-needs-token="false"><main><h1>Hello</h1></main></body></html>`, { waitUntil: 'load' });
    expect(types).toEqual({ '/assets/site.css': 'text/css; charset=utf-8', '/assets/sandbox.js': 'text/javascript; charset=utf-8' });
    expect(await page.evaluate(() => typeof (globalThis as any).sandbox?.api)).toBe('function');
    expect(await axe(page)).toEqual([]);
    await context.close();
  });
});
