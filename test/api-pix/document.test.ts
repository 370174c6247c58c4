// /openapi-api-pix.json: the Central Bank's document narrowed to the emulated operations, kept in step with the copy
// of the standard (the committed JSON is what scripts/api-pix-openapi.mjs makes of it).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { makeDocument } from '../../scripts/api-pix-openapi.mjs';
import { startHarness, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.sb.close());

test('the committed document is what the script makes of the standard (run node scripts/api-pix-openapi.mjs after a change)', () => {
  const made = makeDocument(readFileSync(new URL('../../docs/standards/bacen-pix-api-2.9.0.openapi.yaml', import.meta.url), 'utf8'));
  const committed = JSON.parse(readFileSync(new URL('../../src/faces/api-pix/openapi-api-pix.json', import.meta.url), 'utf8'));
  expect(committed).toEqual(made);
});

test('GET /openapi-api-pix.json serves the 47 emulated operations, the sandbox token URL and its server', async () => {
  const res = await h.api('GET', '/openapi-api-pix.json');
  expect(res.status).toBe(200);
  expect(res.body.info.version).toBe('2.9.0');
  expect(res.body.servers).toEqual([{ url: '/api-pix/v2', description: 'pix-sandbox' }]);
  expect(res.body.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl).toBe('/api-pix/oauth/token');
  const ops = Object.values(res.body.paths as Record<string, Record<string, unknown>>).flatMap((item) => Object.keys(item).filter((k) => ['get', 'put', 'post', 'patch', 'delete'].includes(k)));
  expect(ops).toHaveLength(47);
  expect(Object.keys(res.body.paths).some((p) => p.startsWith('/lotecobv'))).toBe(false);
});
