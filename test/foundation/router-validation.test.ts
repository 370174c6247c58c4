// createRouter (wire/env.ts) checks a route's request with one middleware (wire/validate.ts): the parts in zod-openapi's
// order (query, params, headers, then the body behind its media-type gate), each parsed synchronously (a schema that
// refines asynchronously still gets its async parse), with the answers zod-openapi's validators gave; the OpenAPI
// document is the same; a route with cookies keeps zod-openapi's validators.
import { describe, expect, test } from 'vitest';
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../src/wire/env';
import { jsonBody } from '../../src/wire/middleware/body';
import { toSandboxError } from '../../src/wire/errors';

function app(schema: z.ZodType) {
  const router = createRouter();
  router.onError((err, c) => c.json({ error: toSandboxError(err, () => {}).message }, 400));
  router.openapi(
    createRoute({ method: 'post', path: '/x', request: { body: { required: true, content: { 'application/json': { schema } } } }, responses: { 200: { description: 'ok' } } }),
    (c) => c.json({ got: c.req.valid('json' as never) }, 200),
  );
  return router;
}
const post = (router: ReturnType<typeof app>, body: unknown) => router.request('/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('request schemas parsed in line', () => {
  const sync = z.object({ n: z.number().int().transform((n) => n * 2) });
  // An async refinement: safeParse cannot run it, so the router falls back to zod's async parse.
  const async = z.object({ n: z.number().refine(async (n) => n > 0, { error: 'must be positive' }) });

  test.each([
    ['a synchronous schema, valid', sync, { n: 2 }, 200, { got: { n: 4 } }],
    ['a synchronous schema, invalid', sync, { n: 2.5 }, 400, null, /\bn\b/],
    ['an asynchronous refinement, valid', async, { n: 1 }, 200, { got: { n: 1 } }],
    ['an asynchronous refinement, invalid', async, { n: -1 }, 400, null, /must be positive/],
  ] as const)('%s', async (_, schema, body, status, answer, message?: RegExp) => {
    const res = await post(app(schema), body);
    expect(res.status).toBe(status);
    const json = (await res.json()) as Record<string, unknown>;
    if (answer) expect(json).toEqual(answer);
    else expect(String(json.error)).toMatch(message!);
  });

  test('the schema answers as zod parses it', async () => {
    app(sync);
    expect(await sync.safeParseAsync({ n: 3 })).toEqual({ success: true, data: { n: 6 } });
    expect((await sync.safeParseAsync({ n: 'x' })).success).toBe(false);
  });
});

describe('the parts of a request', () => {
  const route = createRoute({
    method: 'post',
    path: '/things/{id}',
    request: {
      query: z.object({ limit: z.coerce.number().int().optional(), tag: z.union([z.string(), z.array(z.string())]).optional() }),
      params: z.object({ id: z.string().regex(/^t\d+$/, { error: 'must look like t1' }) }),
      headers: z.object({ 'Idempotency-Key': z.string().max(5, { error: 'is too long' }).optional() }),
      body: { required: true, content: { 'application/json': { schema: z.object({ n: z.number() }) } } },
    },
    responses: { 200: { description: 'ok' } },
  });
  const optional = createRoute({
    method: 'post',
    path: '/optional',
    request: { body: { content: { 'application/json': { schema: z.object({ n: z.number() }) } } } },
    responses: { 200: { description: 'ok' } },
  });
  const cookie = createRoute({ method: 'get', path: '/cookie', request: { cookies: z.object({ session: z.string().min(3) }) }, responses: { 200: { description: 'ok' } } });

  /** The app's shape: the JSON body middleware in front (as app.ts mounts it), or not. */
  function router(withJsonBody: boolean) {
    const r = createRouter();
    if (withJsonBody) r.use('*', jsonBody);
    r.onError((err, c) => {
      const e = toSandboxError(err, () => {});
      return c.json({ code: e.code, fields: ((e.details.fields ?? []) as Array<{ field: string }>).map((f) => f.field) }, e.status as 400);
    });
    const valid = (c: { req: { valid: (t: never) => unknown } }) => Object.fromEntries((['query', 'param', 'header', 'json'] as const).map((t) => [t, c.req.valid(t as never)]));
    r.openapi(route, (c) => c.json(valid(c), 200));
    r.openapi(optional, (c) => c.json(valid(c), 200));
    r.openapi(cookie, (c) => c.json({ cookie: c.req.valid('cookie') }, 200));
    return r;
  }
  const json = { 'content-type': 'application/json' };

  test.each([true, false])('with the JSON body middleware in front: %s', async (withJsonBody) => {
    const r = router(withJsonBody);
    const send = async (path: string, init: RequestInit = {}) => {
      const res = await r.request(path, { method: 'POST', ...init });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    // Every part valid: each is what the handler reads, the header under the schema's own name, a repeated query name as its values.
    expect(await send('/things/t1?limit=5&tag=a&tag=b', { headers: { ...json, 'idempotency-key': 'k1' }, body: '{"n":1}' })).toEqual({
      status: 200,
      body: { query: { limit: 5, tag: ['a', 'b'] }, param: { id: 't1' }, header: { 'Idempotency-Key': 'k1' }, json: { n: 1 } },
    });
    // The first failing part answers, in zod-openapi's order.
    expect(await send('/things/x?limit=x', { headers: { ...json, 'idempotency-key': 'toolong' }, body: '{}' })).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', fields: ['limit'] } });
    expect(await send('/things/x', { headers: { ...json, 'idempotency-key': 'toolong' }, body: '{}' })).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', fields: ['id'] } });
    expect(await send('/things/t1', { headers: { ...json, 'idempotency-key': 'toolong' }, body: '{}' })).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', fields: ['Idempotency-Key'] } });
    expect(await send('/things/t1', { headers: json, body: '{}' })).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', fields: ['n'] } });
    // A required body sent without Content-Type and without bytes is checked as {}; a foreign Content-Type is a 415.
    expect(await send('/things/t1')).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', fields: ['n'] } });
    expect((await send('/things/t1', { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    // An optional body: checked when it says JSON, else the handler reads {}.
    expect(await send('/optional', { headers: json, body: '{"n":"x"}' })).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', fields: ['n'] } });
    expect(await send('/optional')).toEqual({ status: 200, body: { json: {} } });
  });

  test('a header schema that keeps unknown keys sees every header, under its own names where it has them', async () => {
    const r = createRouter();
    const loose = createRoute({ method: 'get', path: '/loose', request: { headers: z.looseObject({ 'X-A': z.string() }) }, responses: { 200: { description: 'ok' } } });
    r.openapi(loose, (c) => c.json(c.req.valid('header'), 200));
    expect(await (await r.request('/loose', { headers: { 'x-a': '1', 'x-b': '2' } })).json()).toEqual({ 'X-A': '1', 'x-b': '2' });
  });

  test('a route with cookies keeps zod-openapi\'s validators', async () => {
    const r = router(true);
    expect((await r.request('/cookie', { headers: { cookie: 'session=abcd' } })).status).toBe(200);
    expect(await (await r.request('/cookie', { headers: { cookie: 'session=a' } })).json()).toEqual({ code: 'VALIDATION_ERROR', fields: ['session'] });
  });

  test('the OpenAPI document describes each route as zod-openapi registers it', () => {
    const doc = router(true).getOpenAPIDocument({ openapi: '3.0.0', info: { title: 't', version: '1' } });
    const op = doc.paths['/things/{id}']!.post!;
    expect((op.parameters as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`)).toEqual(['path:id', 'query:limit', 'query:tag', 'header:Idempotency-Key']);
    expect(op.requestBody).toMatchObject({ required: true, content: { 'application/json': { schema: { type: 'object' } } } });
    expect(Object.keys(doc.paths)).toEqual(['/things/{id}', '/optional', '/cookie']);
  });
});
