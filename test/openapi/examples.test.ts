// The examples in /openapi.json are what Swagger UI pre-fills and what a reader copies: each operation's request
// example (path parameters and body), sent as it is to a fresh default world, is accepted (no 400).
import { expect, test } from 'vitest';
import { DEFAULT, startHarness } from '../helpers/harness';
import { openApiDocument, operationsOf, type Json } from './document';

const doc = await openApiDocument();
const ops = operationsOf(doc);

const exampleOf = (p: Json) => p.example ?? p.schema?.example;

test.each(ops.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('the request example of %s is accepted as is', async (_, { method, path, op }) => {
  const params = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'path');
  const missing = params.filter((p) => exampleOf(p) === undefined).map((p) => p.name);
  expect(missing, `path parameters without an example`).toEqual([]);
  const url = params.reduce((u, p) => u.replace(`{${p.name}}`, encodeURIComponent(String(exampleOf(p)))), path);
  const media = op.requestBody?.content?.['application/json'];
  if (op.requestBody) expect(media?.example, 'a request body without an example').toBeDefined();

  const h = await startHarness();
  const headers: Record<string, string> = {};
  if (path.startsWith('/v1/')) headers['x-api-key'] = DEFAULT.apiKey;
  const token = path.startsWith('/v2/') && path !== '/v2/auth' ? await h.token() : undefined;
  if (op.responses['200']?.content?.['text/event-stream']) {
    // A stream never ends: its answer starting is what is checked.
    const res = await h.sb.app.request(url, { headers });
    expect(res.status, res.headers.get('content-type') ?? '').toBe(200);
    await res.body?.cancel();
    return;
  }
  const res = await h.api(method.toUpperCase(), url, { body: media?.example, token, headers });
  expect(res.status, `${method.toUpperCase()} ${url} ${JSON.stringify(media?.example)} -> ${res.text.slice(0, 500)}`).not.toBe(400);
  expect(res.status, res.text.slice(0, 500)).toBeLessThan(500);
  if (path === '/v2/auth') expect(res.status, 'the auth example uses the default credentials').toBe(200);
  if (op.responses['201'] && res.status < 300) expect(res.status, res.text.slice(0, 300)).toBe(201);
});

test('the pre-filled bodies of the creating v2 routes create what they describe', async () => {
  const h = await startHarness();
  const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].example;
  const charge = await h.v2('POST', '/pix', { body: body('/v2/pix') });
  expect(charge.status, charge.text).toBe(201);
  expect(charge.body.split, charge.text).toEqual([{ subAccount: 'loja-centro', amount: 5 }]);
  const withdrawal = await h.v2('POST', '/withdrawals', { body: body('/v2/withdrawals') });
  expect(withdrawal.status, withdrawal.text).toBe(201);
});

test('no optional header or query parameter has an example (Swagger UI would pre-fill it and send it unasked)', () => {
  const prefilled = ops.flatMap((o) =>
    ((o.op.parameters ?? []) as Json[]).filter((p) => p.in !== 'path' && !p.required && exampleOf(p) !== undefined).map((p) => `${o.method.toUpperCase()} ${o.path} ${p.in} ${p.name}`),
  );
  expect(prefilled, prefilled.join('\n')).toEqual([]);
});
