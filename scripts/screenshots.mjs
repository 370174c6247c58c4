// npm run screenshots: the console at 390 px and 1366 px wide, as PNGs in docs/screenshots/, from the built package
// (run after the build) with a world that has something in every section: charges in each state, a withdrawal, a
// block, events and deliveries to a local receiver (one failing, then replayed). Uses the system's Chromium.
import { createServer } from 'node:http';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { createSandbox } from '../dist/index.js';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((p) => p && existsSync(p));
if (!executablePath) throw new Error('No Chromium found: set CHROMIUM_PATH or install chromium (apt-get install chromium).');

let answer = 500;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'receiver is down for maintenance'));
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/webhooks`;

const sb = await createSandbox({ log: () => {}, clockStart: '2026-03-10T12:00:00.000Z', freezeClock: true, seed: 7, webhookUrl: receiverUrl });
const base = await sb.listen({ port: 0, host: '127.0.0.1' });
const call = async (method, path, body, headers = {}) => {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};
const token = (await call('POST', '/v2/auth', { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' })).access_token;
const v2 = (method, path, body, sub) => call(method, `/v2${path}`, body, { authorization: `Bearer ${token}`, ...(sub ? { 'x-sub-account': sub } : {}) });

const paid = await v2('POST', '/pix', { amount: 150, description: 'Pedido 1042' });
await call('POST', `/_sandbox/transactions/${paid.id}/pay`, { payerName: 'Ana Souza' });
await sb.settle();
answer = 200;
const d = (await call('GET', '/_sandbox/accounts/11111111-1111-4111-8111-111111111111/deliveries')).items[0];
await call('POST', `/_sandbox/deliveries/${d.id}/replay`);
await sb.settle();
await call('POST', `/_sandbox/transactions/${paid.id}/block`, { amount: 50, blockType: 'med' });
const expired = await v2('POST', '/pix', { amount: 42.5, description: 'Assinatura março' }, 'loja-centro');
await call('POST', `/_sandbox/transactions/${expired.id}/expire`);
await v2('POST', '/withdrawals', { amount: 80, pixKey: 'lento@pix-sandbox.test', pixKeyType: 'email', holderName: 'Bruno Lima', holderDocument: '00000000191', holderDocumentType: 'cpf' });
await v2('POST', '/pix', { amount: 19.9, description: 'Café e pão de queijo' }, 'loja-norte');
await v2('POST', '/pix', { amount: 25.9, description: 'Camiseta tamanho M' });
await sb.settle();

mkdirSync('docs/screenshots', { recursive: true });
const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
for (const [width, projector] of [[390, false], [1366, false], [1366, true], [390, true]]) {
  const page = await browser.newPage({ viewport: { width, height: width < 500 ? 844 : 900 }, timezoneId: 'America/Sao_Paulo' });
  // Projector mode is remembered in localStorage, as the header's toggle leaves it.
  if (projector) await page.addInitScript(() => localStorage.setItem('pix-sandbox-projector', '1'));
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-live="true"]');
  if (!projector) await page.locator(`[data-delivery] details`).first().evaluate((el) => (el.open = true));
  const file = `docs/screenshots/console-${projector ? 'projector-' : ''}${width}.png`;
  await page.screenshot({ path: file, fullPage: true });
  console.log(`wrote ${file}`);
  await page.close();
}
await browser.close();
await sb.close();
receiver.close();
