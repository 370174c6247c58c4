// The payer page (/pay) in Chromium with a Pix Automático code: the recurrence's own QR (Jornada 2) and a QR Composto
// with an immediate cob (Jornada 3), pasted, show the recurrence and ask to authorise it, as a bank app does;
// authorising approves it (paying the cob of the QR Composto with it), declining rejects it. 390x844, axe clean.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axe, launchBrowser, noBrowser, openPage, scrollsSideways, startSite, type BrowserRig, type Site } from './support';
import { call } from './customer';

describe.skipIf(noBrowser('pay-rec.test.ts'))('payer page (/pay): a recurrence read from its code', () => {
  let rig: BrowserRig;
  let site: Site;
  let auth: Record<string, string>;
  beforeAll(async () => {
    [rig, site] = await Promise.all([launchBrowser(), startSite()]);
    const basic = `Basic ${Buffer.from('mp_test_sandbox_full_access:sandbox-secret-full-access').toString('base64')}`;
    const tok = await site.sb.app.request('/api-pix/oauth/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    auth = { authorization: `Bearer ${((await tok.json()) as { access_token: string }).access_token}` };
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  const account = () => site.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!;

  /** A recurrence with a location (and a Jornada 3 cob when `txid`), and the code GET /rec/{idRec} gives for it. */
  async function recCode(contrato: string, txid?: string) {
    if (txid) expect((await call(site, 'PUT', `/api-pix/v2/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '19.90' }, chave: '11222333000181', solicitacaoPagador: 'Primeira mensalidade' }, auth)).status).toBe(201);
    const loc = await call(site, 'POST', '/api-pix/v2/locrec', undefined, auth);
    const rec = await call(
      site,
      'POST',
      '/api-pix/v2/rec',
      {
        vinculo: { contrato, objeto: 'Academia', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' } },
        calendario: { dataInicial: '2026-04-01', periodicidade: 'MENSAL' },
        valor: { valorRec: '19.90' },
        politicaRetentativa: 'PERMITE_3R_7D',
        loc: loc.body.id,
        ...(txid ? { ativacao: { dadosJornada: { txid } } } : {}),
      },
      auth,
    );
    expect(rec.status, rec.text).toBe(201);
    const got = await call(site, 'GET', `/api-pix/v2/rec/${rec.body.idRec}${txid ? `?txid=${txid}` : ''}`, undefined, auth);
    return { idRec: rec.body.idRec as string, code: got.body.dadosQR.pixCopiaECola as string };
  }

  /** /pay at 390x844 with `code` pasted and checked, the recurrence's section shown. */
  async function payPageWith(code: string) {
    const { context, page } = await openPage(rig.browser, 390, 844);
    await page.goto(`${site.url}/pay`);
    await page.fill('#brcode', code);
    await page.click('#decode');
    await page.waitForSelector('#qr-recurrence:not([hidden])');
    return { context, page };
  }

  test('its own QR (Jornada 2): the recurrence and Authorise, nothing to pay; a click approves it; 390x844 fits and is axe clean', async () => {
    const { idRec, code } = await recCode('ACAD-1');
    const { context, page } = await payPageWith(code);
    await page.waitForSelector('#verdict[data-verdict="authorise"]');
    const details = await page.locator('#qr-rec-details').textContent();
    expect(details).toContain('Loja Exemplo LTDA');
    expect(details).toContain('Academia (contract ACAD-1)');
    expect(details).toContain('R$ 19,90 each time');
    expect(details).toContain('monthly, from 2026-04-01');
    expect(await page.locator('#pay-section').isHidden()).toBe(true);
    await expect(page.locator('#qr-rec-authorise').textContent()).resolves.toBe('Authorise');
    expect(await scrollsSideways(page), 'the page scrolls sideways').toBe(false);
    expect(await axe(page)).toEqual([]);
    await page.locator('#qr-recurrence').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(tmpdir(), 'pix-sandbox-pay-rec-390.png') }); // to look at
    await page.click('#qr-rec-authorise');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#qr-rec-result')?.textContent?.includes('APROVADA'));
    expect(account().recs[idRec]).toMatchObject({ status: 'APROVADA', tipoJornada: 'JORNADA_2' });
    expect(await page.locator('#qr-rec-actions').isHidden()).toBe(true);
    await context.close();
  });

  test('a QR Composto (Jornada 3): "Authorise and pay R$ 19,90" pays the cob and approves the recurrence', async () => {
    const txid = 'jornada3academia00000000000001';
    const { idRec, code } = await recCode('ACAD-2', txid);
    const { context, page } = await payPageWith(code);
    await page.waitForSelector('#verdict[data-verdict="payable"]');
    await expect(page.locator('#qr-rec-authorise').textContent()).resolves.toBe('Authorise and pay R$ 19,90');
    await page.click('#qr-rec-authorise');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#qr-rec-result')?.textContent?.includes('APROVADA'));
    expect(account().recs[idRec]).toMatchObject({ status: 'APROVADA', tipoJornada: 'JORNADA_3' });
    const cob = account().cobs[txid]!;
    expect(account().transactions[cob.transactionId]!.status).toBe('completed');
    expect(await axe(page)).toEqual([]);
    await context.close();
  });

  test('Decline rejects it', async () => {
    const { idRec, code } = await recCode('ACAD-3');
    const { context, page } = await payPageWith(code);
    await page.click('#qr-rec-decline');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#qr-rec-result')?.textContent?.includes('REJEITADA'));
    expect(account().recs[idRec]!.status).toBe('REJEITADA');
    await context.close();
  });
});
