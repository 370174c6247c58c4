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
