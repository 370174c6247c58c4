// /openapi-api-pix.json: the Central Bank's document narrowed to the emulated operations, its errata corrected, kept in
// step with the copy of the standard (the committed JSON is what scripts/api-pix-openapi.mjs makes of it).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { makeDocument } from '../../scripts/api-pix-openapi.mjs';
// @ts-expect-error a plain .mjs script without types
import { ERRATA } from '../../scripts/api-pix-errata.mjs';
import { startHarness, type Harness } from '../helpers/harness';

const standard = () => readFileSync(new URL('../../docs/standards/bacen-pix-api-2.9.0.openapi.yaml', import.meta.url), 'utf8');
type Erratum = { id: string; bacen: string; correction: string; apply: (doc: unknown) => number };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.sb.close());

test('the committed document is what the script makes of the standard (run node scripts/api-pix-openapi.mjs after a change)', () => {
  const made = makeDocument(standard());
  const committed = JSON.parse(readFileSync(new URL('../../src/faces/api-pix/openapi-api-pix.json', import.meta.url), 'utf8'));
  expect(committed).toEqual(made);
});

test('GET /openapi-api-pix.json serves all 51 operations of the document, the sandbox token URL and its server, both absolute', async () => {
  const res = await h.api('GET', '/openapi-api-pix.json');
  expect(res.status).toBe(200);
  expect(res.body.info.version).toBe('2.9.0');
  // Absolute on the address the request came to: the listener's, or app.request's base in process.
  const own = h.url ?? 'http://localhost';
  expect(res.body.servers).toEqual([{ url: `${own}/api-pix/v2`, description: 'pix-sandbox' }]);
  expect(res.body.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl).toBe(`${own}/api-pix/oauth/token`);
  const ops = Object.values(res.body.paths as Record<string, Record<string, { 'x-sandbox-extension'?: boolean }>>).flatMap((item) =>
    Object.entries(item).filter(([k]) => ['get', 'put', 'post', 'patch', 'delete'].includes(k)),
  );
  expect(ops.filter(([, op]) => !op['x-sandbox-extension'])).toHaveLength(51);
  // Beside them, what PSPs offer outside the standard, each marked as such.
  expect(res.body.paths['/loc/{id}/qrcode'].get['x-sandbox-extension']).toBe(true);
});

test.each((ERRATA as Erratum[]).map((e) => [e.id, e] as const))('the erratum %s still finds its slip in release 2.9.0 of the document', (_id, erratum) => {
  const pristine = parse(standard());
  expect(pristine.info.version).toBe('2.9.0');
  const narrowed = makeDocument(standard()); // the paths erratum acts on the names the sandbox gives the paths
  expect(erratum.apply(pristine) + 0, erratum.bacen).toBeGreaterThan(0);
  expect(erratum.apply(narrowed), `${erratum.id} applied twice changes nothing more`).toBe(0);
});

test("docs/api-pix.md's errata list every correction and nothing else", () => {
  const page = readFileSync(new URL('../../docs/api-pix.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('## Errata'));
  const next = section.indexOf('\n## ', 5);
  const listed = [...(next < 0 ? section : section.slice(0, next)).matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
  expect(listed).toEqual((ERRATA as Erratum[]).map((e) => e.id));
});
