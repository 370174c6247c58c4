// GET /pay over HTTP: the page, its local scripts (no CDN) and the magic-values table from src/domain/magic.ts.
// What it does in a browser is test/browser/pay.test.ts.
import { expect, test } from 'vitest';
import { MAGIC_VALUES } from '../../src/domain/magic';
import { startHarness } from '../helpers/harness';

test('GET /pay is an HTML page with lang and a viewport, loading only scripts the sandbox serves', async () => {
  const h = await startHarness();
  const res = await h.api('GET', '/pay');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.text).toMatch(/<html lang="[a-z-]+"/);
  expect(res.text).toContain('name="viewport"');
  const scripts = [...res.text.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
  expect(scripts).toEqual(expect.arrayContaining(['/assets/vendor/jsqr.js', '/assets/pay.js']));
  for (const src of scripts) expect(src, 'every script comes from the sandbox itself').toMatch(/^\//);
});

test('GET /pay lists every magic value of sandbox.md 4.11 with its outcome', async () => {
  const h = await startHarness();
  const { text } = await h.api('GET', '/pay');
  const table = text.slice(text.indexOf('<table id="magic"'));
  const values = MAGIC_VALUES.flatMap((m) => m.values);
  expect(values).toEqual(
    expect.arrayContaining(['00000000191', '00000000272', '00000000353', '00000000434', '00000000515', 'falha@pix-sandbox.test', 'devolucao@pix-sandbox.test', 'lento@pix-sandbox.test']),
  );
  for (const m of MAGIC_VALUES) {
    for (const v of m.values) expect(table).toContain(`<code>${v}</code>`);
    expect(table).toContain(m.description.replaceAll('"', '&quot;'));
  }
});

test('GET /pay lists the Pix Automático recurrences waiting for the payer, with Authorise and Refuse; an answered one leaves the list', async () => {
  const { apiPix } = await import('../helpers/api-pix');
  const { createRec, recBody, sendSolicRec } = await import('../helpers/api-pix-rec');
  const h = await startHarness();
  const empty = await h.api('GET', '/pay');
  expect(empty.text).toContain('id="no-authorisations"');
  const idRec = await createRec(h, recBody({ vinculo: { contrato: 'C1', objeto: 'Plano mensal', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' } } }));
  const id = await sendSolicRec(h, idRec);
  const page = await h.api('GET', '/pay');
  expect(page.status).toBe(200);
  const row = page.text.slice(page.text.indexOf(`<tr data-solicrec="${id}"`));
  expect(row).toContain('Plano mensal (mensal from 2026-04-01), debtor Fulano de Tal');
  expect(row).toContain('R$ 35,00');
  expect(row).toContain(`data-solicrec="${id}" data-answer="accept"`);
  expect(row).toContain(`data-solicrec="${id}" data-answer="reject"`);
  // What the buttons call (assets/pay.js): the payer's control route.
  expect((await h.control('POST', `/api-pix/solicrec/${id}/accept`)).status).toBe(200);
  expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('APROVADA');
  expect((await h.api('GET', '/pay')).text).not.toContain(`data-solicrec="${id}"`);
  const script = await h.api('GET', '/assets/pay.js');
  expect(script.text).toContain('/_sandbox/api-pix/solicrec/');
  await h.sb.close();
});
