// The payer page (/pay) in Chromium: paste a code and see its fields checked, pay it; read a QR from an image file
// (the PNG the API returned) with jsQR served by the sandbox; a broken code names what is wrong. No sleeps.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axe, CHROMIUM_ARGS, chromiumPath, launchBrowser, noBrowser, openPage, scrollsSideways, startSite, type BrowserRig, type Site } from './support';
import { call, createCharge } from './customer';
import { MAGIC_VALUES } from '../../src/domain/magic';

describe.skipIf(noBrowser('pay.test.ts'))('payer page (/pay)', () => {
  let rig: BrowserRig;
  let site: Site;
  let dir: string;
  beforeAll(async () => {
    [rig, site] = await Promise.all([launchBrowser(), startSite()]);
    dir = mkdtempSync(join(tmpdir(), 'pix-pay-'));
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const tx = (id: string) => site.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!.transactions[id]!;

  test.each([390, 1366])('at %i px, with a decoded code on it, it fits the width and has no critical or serious axe violation', async (width) => {
    const charge = await createCharge(site);
    const { context, page } = await openPage(rig.browser, width);
    await page.goto(`${site.url}/pay`);
    await expect(page.locator('#magic tbody tr').count()).resolves.toBe(MAGIC_VALUES.length);
    await page.fill('#brcode', charge.pixCopyPaste);
    await page.click('#decode');
    await page.waitForSelector('#verdict[data-verdict="payable"]');
    expect(await scrollsSideways(page), 'the page scrolls sideways').toBe(false);
    expect(await axe(page)).toEqual([]);
    await context.close();
  });

  test('pasting a code shows its fields and checks (CRC expected vs found), and Pay pays the charge it points at', async () => {
    const charge = await createCharge(site, { amount: 42.5, description: 'Oficina' });
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(`${site.url}/pay`);
    await page.fill('#brcode', charge.pixCopyPaste);
    await page.click('#decode');
    await page.waitForSelector('#verdict[data-verdict="payable"]');
    const rows = await page.$$eval('#checks tbody tr', (trs: any[]) => trs.map((tr) => [tr.dataset.check, tr.dataset.ok, tr.textContent]));
    expect(rows.map((r) => r[1]), JSON.stringify(rows)).not.toContain('false');
    const byCheck = Object.fromEntries(rows.map((r) => [r[0], r[2]]));
    expect(byCheck.merchantName).toContain('Loja Exemplo LTDA');
    expect(byCheck.merchantCity).toContain('Sao Paulo');
    expect(byCheck.amount).toContain('42.50');
    expect(byCheck.location).toContain(`/pix/qr/${charge.id}`);
    expect(byCheck.crc).toContain(`found ${charge.pixCopyPaste.slice(-4)}, expected ${charge.pixCopyPaste.slice(-4)}`);
    expect(byCheck.payloadFormat).toContain('✓ valid');
    await expect(page.locator('#charge-summary').textContent()).resolves.toContain('R$ 42,50 (Oficina), pending');
    await page.fill('#payer-name', 'João Pereira');
    await page.click('#pay');
    await page.waitForSelector('#pay-result[data-paid="true"]');
    await page.waitForSelector('#verdict[data-verdict="not_payable"]', { state: 'attached' });
    // The success screen says it, once: the verdict and the form give way to it.
    await page.waitForSelector('#paid-screen >> text=Paid R$ 42,50');
    expect(await page.isHidden('#verdict')).toBe(true);
    expect(await page.isHidden('#pay-form')).toBe(true);
    expect(tx(charge.id)).toMatchObject({ status: 'completed', counterpartName: 'João Pereira' });
    expect(await page.locator('#pay').isDisabled()).toBe(true);
    await context.close();
  });

  test('the Paste button reads the clipboard and checks the code at once', async () => {
    const charge = await createCharge(site, { amount: 7, description: 'pasted' });
    const { context, page } = await openPage(rig.browser, 390);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    await page.goto(`${site.url}/pay`);
    await page.evaluate((text: string) => (globalThis as any).navigator.clipboard.writeText(text), charge.pixCopyPaste);
    await page.click('#paste');
    await page.waitForSelector('#verdict[data-verdict="payable"]');
    await expect(page.locator('#brcode').inputValue()).resolves.toBe(charge.pixCopyPaste);
    // The verdict and the Pay button come before the folded field checks.
    const order = await page.evaluate(() => ['verdict', 'pay', 'checks-details'].map((id) => (globalThis as any).document.getElementById(id).getBoundingClientRect().top));
    expect(order[0]).toBeLessThan(order[1]!);
    expect(order[1]).toBeLessThan(order[2]!);
    expect(await page.locator('#checks-details').getAttribute('open')).toBeNull();
    await context.close();
  });

  test('reading a QR image file (the PNG of qrCodeBase64) decodes it in the page and checks it', async () => {
    const charge = await createCharge(site);
    const file = join(dir, 'charge-qr.png');
    writeFileSync(file, Buffer.from(charge.qrCodeBase64.replace(/^data:image\/png;base64,/, ''), 'base64'));
    const { context, page } = await openPage(rig.browser, 390);
    const scripts: string[] = [];
    page.on('response', (r) => scripts.push(new URL(r.url()).pathname));
    await page.goto(`${site.url}/pay`);
    await page.setInputFiles('#qr-file', file);
    await page.waitForSelector('#verdict[data-verdict="payable"]');
    await expect(page.locator('#brcode').inputValue()).resolves.toBe(charge.pixCopyPaste);
    await expect(page.locator('#read-result').textContent()).resolves.toBe('Read a QR code from charge-qr.png.');
    expect(scripts).toContain('/assets/vendor/jsqr.js');
    await context.close();
  });

  test('an image without a QR code says so', async () => {
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(`${site.url}/pay`);
    // A 1x1 white PNG.
    const blank = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==', 'base64');
    await page.setInputFiles('#qr-file', { name: 'blank.png', mimeType: 'image/png', buffer: blank });
    await page.waitForSelector('#read-result:has-text("No QR code found in blank.png")');
    await context.close();
  });

  test('a code with a wrong CRC is invalid: the CRC row shows expected vs found and Pay is disabled', async () => {
    const charge = await createCharge(site);
    const bad = charge.pixCopyPaste.slice(0, -4) + (charge.pixCopyPaste.endsWith('0000') ? '0001' : '0000');
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(`${site.url}/pay`);
    await page.fill('#brcode', bad);
    await page.click('#decode');
    await page.waitForSelector('#verdict[data-verdict="invalid"]');
    await expect(page.locator('#verdict').textContent()).resolves.toMatch(/^Not a valid BR Code: CRC mismatch/);
    await expect(page.locator('#checks tr[data-check="crc"]').getAttribute('data-ok')).resolves.toBe('false');
    await expect(page.locator('#checks tr[data-check="crc"]').textContent()).resolves.toContain(`found ${bad.slice(-4)}, expected ${charge.pixCopyPaste.slice(-4)}`);
    expect(await page.locator('#pay').isDisabled()).toBe(true);
    await context.close();
  });

  test('a valid code of another PSP gets a clear "not one this sandbox issued" and no Pay', async () => {
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(`${site.url}/pay`);
    await page.fill('#brcode', '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D');
    await page.click('#decode');
    await page.waitForSelector('#verdict[data-verdict="not_ours"]');
    await expect(page.locator('#verdict').textContent()).resolves.toContain('not one this sandbox issued');
    expect(await page.locator('#pay-section').isHidden()).toBe(true);
    await context.close();
  });
  test('a recurrence waiting for the payer is shown and authorised with a click (Pix Automático)', async () => {
    const basic = `Basic ${Buffer.from('mp_test_sandbox_full_access:sandbox-secret-full-access').toString('base64')}`;
    const tok = await site.sb.app.request('/api-pix/oauth/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    const auth = { authorization: `Bearer ${((await tok.json()) as { access_token: string }).access_token}` };
    const rec = await call(site, 'POST', '/api-pix/v2/rec', { vinculo: { contrato: 'C9', objeto: 'Clube do livro', devedor: { cpf: '45164632481', nome: 'Fulano' } }, calendario: { dataInicial: '2099-01-01', periodicidade: 'MENSAL' }, valor: { valorRec: '39.90' }, politicaRetentativa: 'NAO_PERMITE' }, auth);
    expect(rec.status, rec.text).toBe(201);
    const solic = await call(site, 'POST', '/api-pix/v2/solicrec', { idRec: rec.body.idRec, calendario: { dataExpiracaoSolicitacao: '2099-01-01T00:00:00Z' }, destinatario: { cpf: '45164632481', conta: '1', ispbParticipante: '91193552' } }, auth);
    expect(solic.status, solic.text).toBe(201);
    const { context, page } = await openPage(rig.browser, 390);
    await page.goto(`${site.url}/pay`);
    const row = page.locator(`tr[data-solicrec="${solic.body.idSolicRec}"]`);
    await expect(row.textContent()).resolves.toContain('Clube do livro');
    await row.locator('button[data-answer="accept"]').click();
    await page.waitForFunction((id) => (globalThis as any).document.querySelector(`tr[data-solicrec="${id}"] .rec-result`)?.textContent?.includes('APROVADA'), solic.body.idSolicRec);
    expect(site.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!.recs[rec.body.idRec]!.status).toBe('APROVADA');
    expect(await axe(page)).toEqual([]);
    await context.close();
  });
});

/** One grey-scale Y4M frame (what Chromium's fake camera plays, looping) with the PNG centred on white, scaled up. */
function y4mOf(pngBytes: Buffer, width = 640, height = 480): Buffer {
  const png = PNG.sync.read(pngBytes);
  const scale = Math.max(1, Math.floor(Math.min(width, height) / Math.max(png.width, png.height)));
  const left = Math.floor((width - png.width * scale) / 2);
  const top = Math.floor((height - png.height * scale) / 2);
  const y = Buffer.alloc(width * height, 235);
  for (let row = 0; row < png.height * scale; row++) {
    for (let col = 0; col < png.width * scale; col++) {
      const i = (Math.floor(row / scale) * png.width + Math.floor(col / scale)) * 4;
      y[(top + row) * width + left + col] = png.data[i]! < 128 ? 16 : 235;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F1:1 Ip A1:1 C420jpeg\nFRAME\n`), y, chroma]);
}

describe.skipIf(noBrowser('pay.test.ts'))('payer page with a camera (Chromium fake device playing a QR)', () => {
  let site: Site;
  let dir: string;
  beforeAll(async () => {
    site = await startSite();
    dir = mkdtempSync(join(tmpdir(), 'pix-cam-'));
  });
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('"Use the camera" reads the QR from the video frames, fills the code in and checks it', async () => {
    const charge = await createCharge(site);
    const video = join(dir, 'qr.y4m');
    writeFileSync(video, y4mOf(Buffer.from(charge.qrCodeBase64.replace(/^data:image\/png;base64,/, ''), 'base64')));
    const browser = await chromium.launch({
      executablePath: chromiumPath!,
      args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.grantPermissions(['camera'], { origin: site.url });
      const page = await context.newPage();
      await page.goto(`${site.url}/pay`);
      await page.click('#camera-start');
      await page.waitForSelector('#verdict[data-verdict="payable"]');
      await expect(page.locator('#brcode').inputValue()).resolves.toBe(charge.pixCopyPaste);
      await expect(page.locator('#read-result').textContent()).resolves.toBe('Read a QR code from the camera.');
      expect(await page.locator('#camera').isHidden(), 'the camera stops once a code is read').toBe(true);
    } finally {
      await browser.close();
    }
  });
});
