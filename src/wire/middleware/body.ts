// Request bodies: at most 512 KiB, JSON only, nested at most MAX_JSON_DEPTH levels (sandbox.md 11: a charge whose
// metadata nested 5,000 levels was stored, then broke every lookup, list and fold of it). An empty body reads as {} (so a POST without a body gets the list of
// missing fields, not a parse error); anything else must say Content-Type: application/json and parse.
// The size is checked from Content-Length and then on the bytes read, without hono's bodyLimit: that one reads
// `c.req.raw.body`, which makes @hono/node-server build a full Request per call, the costliest step of a small POST.
import type { HonoRequest, MiddlewareHandler } from 'hono';
import { SandboxError, validationError } from '../../domain/errors';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, pathBeyond } from '../../lib/json-limits';

export { MAX_BODY_BYTES, MAX_JSON_DEPTH };

/** Where app.ts mounts this middleware; /openapi.json declares 400, 413 and 415 on the routes under them that take a body. */
export const JSON_BODY_PREFIXES = ['/v2/', '/v1/', '/_sandbox/'] as const;
/** A JSON media type (the part of a Content-Type before ';'), as hono's validator tests it. */
export const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * The body this middleware parsed, by request (undefined: not parsed here), which the route's validator checks
 * (wire/validate.ts), and the text it was parsed from, which the request log keeps (wire/middleware/request-log.ts)
 * without waiting for hono's cached promise of it.
 */
const parsedBodies = new WeakMap<HonoRequest, { parsed: unknown; text: string }>();
export const parsedBody = (req: HonoRequest): unknown => parsedBodies.get(req)?.parsed;
export const parsedText = (req: HonoRequest): string | undefined => parsedBodies.get(req)?.text;

const tooLarge = () => new SandboxError('PAYLOAD_TOO_LARGE', `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB; send a smaller JSON object.`);

export const jsonBody: MiddlewareHandler = async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await c.req.text();
  if (text.length > MAX_BODY_BYTES / 4 && Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  if (text.trim() === '') {
    // Hono caches body promises here. The validator reads '{}'; zod-openapi's media-type gate reads the (empty)
    // bytes and so does not take the missing Content-Type of a body-less POST for an unsupported one.
    const cache = c.req.bodyCache as Record<string, unknown>;
    cache.text = Promise.resolve('{}');
    cache.json = Promise.resolve({});
    cache.arrayBuffer = Promise.resolve(new ArrayBuffer(0));
    // The text is what was sent (nothing): the request log keeps no body for it, on a port or in process alike.
    parsedBodies.set(c.req, { parsed: {}, text });
    return next();
  }
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (!JSON_TYPE.test(type))
    throw new SandboxError('UNSUPPORTED_MEDIA_TYPE', `The body must be JSON: send it with header 'Content-Type: application/json' (got '${type || 'none'}').`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SandboxError('MALFORMED_JSON', `The request body is not valid JSON (${(err as Error).message}); send a JSON object.`);
  }
  const tooDeep = pathBeyond(parsed, MAX_JSON_DEPTH);
  if (tooDeep) {
    const field = fieldOf(tooDeep);
    throw validationError([{ field: field.split(/[.[]/)[0] || '(body)', message: `nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (at ${field}); send flatter data (metadata is key-value pairs)` }]);
  }
  // What the validator and the routes read with c.req.json(): with only the text cached, Hono would parse it again
  // through a WHATWG Response built for the purpose (and the request's Headers to find its content type).
  (c.req.bodyCache as Record<string, unknown>).json = Promise.resolve(parsed);
  parsedBodies.set(c.req, { parsed, text });
  await next();
};

/** `metadata.a.b[0]`, each key cut to 40 characters. */
const fieldOf = (path: (string | number)[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${p.length > 40 ? `${p.slice(0, 40)}…` : p}`)).join('');
