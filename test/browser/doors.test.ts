// The doors of a local server in Chromium (sandbox.md 11): a page on another local origin (a second server on
// another port) tries the drive-by reset, a form that pays a charge and a frame of the console, and all three fail;
// a DNS-rebound name gets no secret; and the sandbox's own pages run under their strict CSP with no violation.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath, noBrowser, startSite, type Site } from './support';
import { DEFAULT } from '../helpers/harness';

const A = DEFAULT.accountId;

/** A server on another port of the same machine that serves one attacker page. */
async function startAttacker(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe.skipIf(noBrowser('doors.test.ts'))('doors in Chromium', () => {
  let browser: Browser;
  let site: Site;
  const closers: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    // evil.test resolves to this machine, as a DNS-rebinding attacker's name would.
    browser = await chromium.launch({ executablePath: chromiumPath!, args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.test 127.0.0.1'] });
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await site?.close();
  });

  async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await site.sb.app.request(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }
  async function pendingCharge() {
    const auth = await api('POST', '/v2/auth', { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret });
    const charge = await api('POST', '/v2/pix', { amount: 10, description: 'victim' }, { authorization: `Bearer ${auth.body.access_token}` });
    expect(charge.status).toBe(201);
    return charge.body.id as string;
  }
  async function newPage() {
    const context = await browser.newContext();
    closers.push(() => context.close());
    return context.newPage();
  }

  test('a page on another local origin cannot reset the sandbox, pay a charge through a form, or frame the console', async () => {
    site = await startSite();
    const chargeId = await pendingCharge();
    const accountsBefore = (await api('GET', '/_sandbox/accounts')).body;
    const attacker = await startAttacker(`<!doctype html><html><head><title>cute cats</title></head><body>
<iframe id="frame" src="${site.url}/" width="800" height="600"></iframe>
<form id="pay" method="POST" action="${site.url}/_sandbox/transactions/${chargeId}/pay"></form>
<script>
  fetch('${site.url}/_sandbox/reset', { method: 'POST', mode: 'no-cors' })
    .then(function () { document.title = 'reset sent'; }, function () { document.title = 'reset failed'; });
  fetch('${site.url}/_sandbox/accounts', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"name":"evil"}' })
    .then(function () { document.body.dataset.tenant = 'sent'; }, function () { document.body.dataset.tenant = 'failed'; });
</script></body></html>`);
    closers.push(attacker.close);
    const page = await newPage();
    const blockedFrames: string[] = [];
    page.on('console', (m) => {
      if (/frame-ancestors|X-Frame-Options/i.test(m.text())) blockedFrames.push(m.text());
    });
    await page.goto(attacker.url);
    await page.waitForFunction(() => (globalThis as any).document.title !== 'cute cats' && (globalThis as any).document.body.dataset.tenant);
    // The frame of the console was refused: Chromium put its error page there instead of the console.
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    await expect.poll(() => blockedFrames.length + (frame.url().startsWith('chrome-error:') ? 1 : 0)).toBeGreaterThan(0);
    const framedConsole = await frame.evaluate(() => Boolean((globalThis as any).document.querySelector('header.top'))).catch(() => false);
    expect(framedConsole, 'the console rendered inside the attacker page').toBe(false);
    // The form post reaches the sandbox with the attacker's Origin and is refused.
    const [answer] = await Promise.all([page.waitForNavigation(), page.evaluate(() => (globalThis as any).document.getElementById('pay').submit())]);
    expect(answer?.status()).toBe(403);
    expect(await page.textContent('body')).toContain('ORIGIN_NOT_ALLOWED');
    // Nothing changed: the charge is pending, no tenant was made, the sandbox was not reset.
    const token = (await api('POST', '/v2/auth', { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret })).body.access_token;
    expect((await api('GET', `/v2/transactions/${chargeId}`, undefined, { authorization: `Bearer ${token}` })).body.status).toBe('pending');
    expect((await api('GET', '/_sandbox/accounts')).body).toEqual(accountsBefore);
  });

  test('a DNS-rebound name reads no secret: the sandbox answers it 421', async () => {
    site = await startSite();
    const port = new URL(site.url).port;
    const page = await newPage();
    const res = await page.goto(`http://evil.test:${port}/_sandbox/accounts/${A}`);
    expect(res?.status()).toBe(421);
    const text = (await page.textContent('body')) ?? '';
    expect(text).toContain('HOST_NOT_ALLOWED');
    expect(text).not.toContain(DEFAULT.full.clientSecret);
  });

  test('a console on a sub-account that a reset removed goes back to the account list with a note', async () => {
    site = await startSite();
    expect((await api('POST', `/_sandbox/accounts/${A}/sub-accounts`, { reference: 'pop-up', name: 'Pop-up shop' })).status).toBe(201);
    const page = await newPage();
    await page.goto(`${site.url}/?wallet=pop-up`);
    await page.waitForSelector('body[data-live="true"]');
    expect((await api('POST', '/_sandbox/reset')).status).toBe(200);
    await page.waitForURL(/\?gone=1$/);
    await page.waitForSelector('#console-note');
    expect(await page.textContent('#console-note')).toContain('What the console showed is gone');
    expect(await page.getAttribute('#console > div', 'data-account')).toBe(A);
  });

  test.each(['/', '/pay', '/docs', 'checkout'])('the page %s runs under its CSP with no violation and cannot be framed', async (path) => {
    site = await startSite();
    const target = path === 'checkout' ? `/pix/qr/${await pendingCharge()}` : path;
    const page = await newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    page.on('pageerror', (err) => violations.push(String(err)));
    const res = await page.goto(site.url + target);
    expect(res?.status()).toBe(200);
    const headers = res!.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    if (path === '/docs') await page.waitForSelector('.swagger-ui .opblock');
    else await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });
});
