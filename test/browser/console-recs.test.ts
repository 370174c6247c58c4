// The console's Recurrences card (Pix Automático) in Chromium: the account's recurrences with their charges, and the
// payer's side played from its buttons: Accept a recurrence waiting for its payer, make a debit fail, Cancel as the
// payer. 390 px and axe clean. No sleeps: every wait is for a DOM condition.
import { afterEach, describe, expect, test } from 'vitest';
import { axe, browserForFile, noBrowser, openPage, scrollsSideways, startSite, type Site } from './support';
import { DEFAULT } from '../helpers/harness';
import { DEFAULT_RECEIVER } from '../helpers/api-pix-rec';

describe.skipIf(noBrowser('console-recs.test.ts'))('console: recurrences (Pix Automático)', () => {
  const b = browserForFile();
  let site: Site;
  afterEach(async () => {
    await site?.close();
  });

  async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await site.sb.app.request(path, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    expect(res.status, text).toBeLessThan(300);
    return text ? JSON.parse(text) : undefined;
  }

  test('a recurrence waiting for its payer is Accepted from the card; its charge shows and its debit fails from it; Cancel as payer ends it', async () => {
    site = await startSite();
    const basic = `Basic ${Buffer.from(`${DEFAULT.full.clientId}:${DEFAULT.full.clientSecret}`).toString('base64')}`;
    const tok = await site.sb.app.request('/api-pix/oauth/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    const auth = { authorization: `Bearer ${((await tok.json()) as { access_token: string }).access_token}` };
    const rec = await api('POST', '/api-pix/v2/rec', { vinculo: { contrato: 'C1', objeto: 'Revista digital', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' } }, calendario: { dataInicial: '2026-03-20', periodicidade: 'MENSAL' }, valor: { valorRec: '12.00' }, politicaRetentativa: 'PERMITE_3R_7D' }, auth);
    await api('POST', '/api-pix/v2/solicrec', { idRec: rec.idRec, calendario: { dataExpiracaoSolicitacao: '2026-03-15T12:00:00Z' }, destinatario: { cpf: '45164632481', conta: '1', ispbParticipante: '91193552' } }, auth);

    const { context, page } = await openPage(b.rig.browser, 390);
    b.closers.push(() => context.close());
    await page.goto(site.url + '/');
    await page.waitForSelector('body[data-live="true"]');
    const item = `#recurrences li[data-rec="${rec.idRec}"]`;
    await expect(page.locator(item).textContent()).resolves.toContain('Revista digital · Fulano de Tal · R$');
    expect(await page.locator(`${item}`).getAttribute('data-status')).toBe('CRIADA');
    expect(await axe(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);

    await page.click(`${item} button[aria-label="Accept recurrence Revista digital as the payer"]`);
    await page.waitForSelector(`${item}[data-status="APROVADA"]`);
    expect(site.sb.deps.store.state.accounts[DEFAULT.accountId]!.recs[rec.idRec]!.status).toBe('APROVADA');

    // Its charge, made in its window (2026-03-10 is 10 days before the 20th), is shown under it with its attempt.
    await api('PUT', '/api-pix/v2/cobr/revistamarco2026000000000001', { idRec: rec.idRec, calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '12.00' }, ajusteDiaUtil: true, recebedor: DEFAULT_RECEIVER }, auth);
    await api('GET', '/api-pix/v2/cobr/revistamarco2026000000000001', undefined, auth); // scheduled at the payer's PSP
    await page.reload();
    await page.waitForSelector('body[data-live="true"]');
    const cobr = `${item} li[data-cobr="revistamarco2026000000000001"]`;
    await expect(page.locator(cobr).textContent()).resolves.toContain('due 2026-03-20');
    expect(await page.locator(cobr).getAttribute('data-status')).toBe('ATIVA');
    await page.click(`${cobr} button`);
    await page.locator(cobr).filter({ hasText: 'AGND rejeitada' }).waitFor();

    await page.click(`${item} button[aria-label="Cancel recurrence Revista digital as the payer"]`);
    await page.waitForSelector(`${item}[data-status="CANCELADA"]`);
    expect(await axe(page)).toEqual([]);
  });
});
