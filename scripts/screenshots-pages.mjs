// Screenshots of the customer pages for the docs: the checkout page and the payer page (with a decoded code) at 390 px
// (a phone) and 1366 px (a laptop), into docs/screenshots/. Uses the built bundle (npm run build first) and the
// system's Chromium (CHROMIUM_PATH or /usr/bin/chromium), on a sandbox in process at a fixed clock and seed.
//   node scripts/screenshots-pages.mjs
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { createSandbox } from '../dist/index.js';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (!executablePath) throw new Error('No Chromium found: install it (apt-get install chromium) or set CHROMIUM_PATH.');
const OUT = new URL('../docs/screenshots/', import.meta.url);
mkdirSync(OUT, { recursive: true });

const sb = await createSandbox({ log: () => {}, seed: 42, publicHost: '192.168.0.10:4747', clockStart: '2026-03-10T12:00:00.000Z', freezeClock: true });
const base = await sb.listen({ port: 0, host: '127.0.0.1' });
const call = async (path, body, headers = {}) => {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const { access_token } = await call('/v2/auth', { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' });
const charge = await call('/v2/pix', { amount: 89.9, description: 'Pedido 1042: camiseta oficina PIX', expiresIn: 900 }, { authorization: `Bearer ${access_token}` });
await call('/_sandbox/clock/advance', { seconds: 263 }); // a countdown that is not a round number

const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const paid = await call('/v2/pix', { amount: 42.5, description: 'Inscrição workshop PIX' }, { authorization: `Bearer ${access_token}` });
  await call(`/_sandbox/transactions/${paid.id}/pay`, { payerName: 'Ana Souza' });
  for (const [width, projector] of [[390, false], [1366, false], [1366, true]]) {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, deviceScaleFactor: 1, timezoneId: 'America/Sao_Paulo' });
    if (projector) await context.addInitScript(() => localStorage.setItem('pix-sandbox-projector', '1'));
    const page = await context.newPage();
    const name = (what) => new URL(`${what}-${projector ? 'projector-' : ''}${width}.png`, OUT).pathname;
    await page.goto(`${base}/pix/qr/${charge.id}`);
    await page.waitForSelector('body[data-live="true"]');
    if (projector) await page.click('#qr-size');
    await page.screenshot({ path: name('checkout'), fullPage: true });

    await page.goto(`${base}/pix/qr/${paid.id}`);
    await page.waitForSelector('body[data-live="true"]');
    await page.screenshot({ path: name('checkout-paid'), fullPage: true });

    await page.goto(`${base}/pay`);
    await page.waitForSelector('body[data-live="true"]');
    await page.fill('#brcode', charge.pixCopyPaste);
    await page.click('#decode');
    await page.waitForSelector('#verdict[data-verdict="payable"]');
    await page.screenshot({ path: name('pay'), fullPage: true });
    if (!projector) {
      const other = await call('/v2/pix', { amount: 19.9, description: 'Café e pão de queijo' }, { authorization: `Bearer ${access_token}` });
      await page.fill('#brcode', other.pixCopyPaste);
      await page.click('#decode');
      await page.waitForSelector('#verdict[data-verdict="payable"]');
      await page.fill('#payer-name', 'João Pereira');
      await page.click('#pay');
      await page.waitForSelector('#paid-screen:not([hidden])');
      await page.screenshot({ path: name('pay-paid'), fullPage: true });
    }
    await context.close();
  }
} finally {
  await browser.close();
  await sb.close();
}
console.log(`Wrote checkout, checkout-paid, pay and pay-paid screenshots (390, 1366, projector 1366) to ${OUT.pathname}`);
