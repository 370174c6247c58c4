// createRouter (http/env.ts) parses a route's request schemas synchronously inside the validators' safeParseAsync: the
// answers are those of zod's own parse, and a schema that refines asynchronously still gets its async parse.
import { describe, expect, test } from 'vitest';
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../src/http/env';
import { toSandboxError } from '../../src/http/errors';

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
  ] as const)('%s answers %s', async (_, schema, body, status, answer, message?: RegExp) => {
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
