// A route's request validated by one middleware. zod-openapi's openapi() puts a middleware per part in front of the
// handler (query, params, headers, a media-type gate, the JSON body), each through @hono/zod-validator and hono's
// validator: four or five awaits, a hook's result object and a header record per part, a few points of every request's
// CPU. This middleware checks the same parts in the same order with the same schemas and the same outcomes (the first
// failing part answers, through `fail`; a body of a media type the route does not take is a 415), and hands each
// handler what c.req.valid() returns, as those validators do. The OpenAPI document is unchanged: the route is
// registered as zod-openapi registers it (env.ts).
import { z, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { JSON_TYPE, parsedBody } from './middleware/body';
import { warn } from '../lib/warnings';
import { checkedWithWarnings } from './request-warnings';
import { moreUnknownFieldsWarning, unknownFields, unknownFieldWarning, type UnknownField } from './unknown-fields';

export { checkedWithWarnings };

type Target = 'query' | 'param' | 'header' | 'json';
type Part = { target: Target; schema: z.ZodType; read: (c: Context) => unknown };
/** `unknown`: the body's unknown fields, named beside the failure (a misspelt required field is why it is missing). */
export type ValidationFailure = (error: ZodError, target: Target, input: unknown, unknown?: UnknownField[]) => never;
/**
 * What a face does with a body's unknown fields (sandbox.md 14): asked only when there are some. 'warn' takes the
 * body as the service does and names each in a Sandbox-Warning header; 'refuse' answers 400 through `refuse`.
 */
export interface UnknownFieldPolicy {
  mode(c: Context): 'warn' | 'refuse';
  refuse(fields: UnknownField[]): never;
}

/** How many unknown fields of one body are named in warnings (headers a client reads into a bounded buffer). */
export const WARNED_FIELDS_MAX = 10;

/**
 * Hands a body's unknown fields to the policy: warnings, or the refusal. A body that failed its check is answered by
 * that failure, with its unknown fields as warnings and returned, for the failure to name them too (`amout` sent,
 * `amount is required`).
 */
export function answerUnknownFields(c: Context, policy: UnknownFieldPolicy, schema: unknown, value: unknown, failed = false): UnknownField[] | undefined {
  const found = unknownFields(schema, value);
  if (!found) return undefined;
  if (!failed && policy.mode(c) === 'refuse') policy.refuse(found);
  // Each warning is a header: a body of thousands of unknown fields names the first few, and counts the rest.
  for (const f of found.slice(0, WARNED_FIELDS_MAX)) warn(unknownFieldWarning(f));
  if (found.length > WARNED_FIELDS_MAX) warn(moreUnknownFieldsWarning(found.length - WARNED_FIELDS_MAX));
  return found;
}

// zod-openapi's tests of a Content-Type (its gate, and which optional bodies it validates); hono's of a media type is
// body.ts's JSON_TYPE.
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const JSON_LIKE = /^application\/([a-z-.]+\+)?json/i;

/**
 * The validating middleware of a route's `request`, or undefined when it has nothing to check; null when it declares
 * something this does not check (cookies, a body that is not JSON alone), to be left to zod-openapi.
 */
export function requestValidator(request: RouteConfig['request'], fail: ValidationFailure, policy: UnknownFieldPolicy): MiddlewareHandler | undefined | null {
  if (!request) return undefined;
  if (request.cookies) return null;
  const parts: Part[] = [];
  if (request.query) parts.push({ target: 'query', schema: request.query as z.ZodType, read: queryRecord });
  if (request.params) parts.push({ target: 'param', schema: request.params as z.ZodType, read: (c) => c.req.param() });
  if (request.headers) parts.push({ target: 'header', schema: request.headers as z.ZodType, read: headerReader(request.headers as z.ZodType) });
  const content = request.body?.content;
  let body: { schema: z.ZodType; required: boolean } | undefined;
  if (content) {
    const types = Object.keys(content);
    const schema = (content as Record<string, { schema?: unknown } | undefined>)['application/json']?.schema;
    if (types.length !== 1 || !(schema instanceof z.ZodType)) return null;
    body = { schema, required: request.body?.required === true };
  }
  if (parts.length === 0 && !body) return undefined;

  return async (c, next) => {
    for (const part of parts) {
      const later = check(c, part.target, part.schema, part.read(c), fail);
      if (later) await later;
    }
    if (body) {
      const type = c.req.header('content-type');
      const parsed = parsedBody(c.req);
      // What the JSON body middleware (body.ts) let through has a JSON type or no bytes; others are read here.
      if (type ? !JSON_REQUEST.test(type) : parsed === undefined && (await hasBytes(c))) throw new HTTPException(415, { message: 'Unsupported Media Type' });
      if (body.required || (type && JSON_LIKE.test(type))) {
        const value = !type || !JSON_TYPE.test(type.split(';')[0]!.trim()) ? {} : parsed !== undefined ? parsed : await readJson(c);
        const later = check(c, 'json', body.schema, value, fail, policy);
        if (later) await later;
      } else c.req.addValidatedData('json', {});
    }
    return next();
  };
}

/**
 * Parses `value` synchronously (zod's async parse skips its compiled fast path for objects: several times the cost of
 * a create's body), and hands the result to the handler or to `fail`; a schema that refines or transforms
 * asynchronously makes safeParse throw $ZodAsyncError, gets the async parse, and then this returns its promise.
 */
function check(c: Context, target: Target, schema: z.ZodType, value: unknown, fail: ValidationFailure, policy?: UnknownFieldPolicy): Promise<void> | undefined {
  type Result = ReturnType<z.ZodType['safeParse']>;
  const unknownOf = (result: Result) => (policy ? answerUnknownFields(c, policy, schema, value, !result.success) : undefined);
  const settle = ([result, unknown]: [Result, UnknownField[] | undefined]) => {
    if (!result.success) fail(result.error, target, value, unknown);
    c.req.addValidatedData(target, result.data as object);
  };
  let checked: [Result, UnknownField[] | undefined];
  try {
    checked = checkedWithWarnings(c, () => {
      const result = schema.safeParse(value);
      return [result, unknownOf(result)];
    });
  } catch (err) {
    if (!(err instanceof z.core.$ZodAsyncError)) throw err;
    return schema.safeParseAsync(value).then((result) => settle([result, checkedWithWarnings(c, () => unknownOf(result))]));
  }
  settle(checked);
  return undefined;
}

/** What hono's validator reads for 'query': each name's value, or its values when it is repeated. */
function queryRecord(c: Context): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(c.req.queries())) record[name] = values.length === 1 ? values[0]! : values;
  return record;
}

/**
 * The request's headers under the schema's own names (headers arrive lower-case), as @hono/zod-validator maps them.
 * An object schema that drops unknown keys (z.object's default) sees only its own names, so only those are read.
 */
function headerReader(schema: z.ZodType): (c: Context) => Record<string, string> {
  const shape = ((schema as { in?: { shape?: object } }).in?.shape ?? (schema as { shape?: object }).shape ?? {}) as Record<string, unknown>;
  const names = new Map(Object.keys(shape).map((name) => [name.toLowerCase(), name]));
  if (schema instanceof z.ZodObject && schema.def.catchall === undefined) {
    return (c) => {
      const record: Record<string, string> = {};
      for (const [lower, name] of names) {
        const value = c.req.header(lower);
        if (value !== undefined) record[name] = value;
      }
      return record;
    };
  }
  return (c) => {
    const record: Record<string, string> = {};
    for (const [name, value] of Object.entries(c.req.header())) record[names.get(name) ?? name] = value;
    return record;
  };
}

/** The body parsed as hono's validator parses it, where the JSON body middleware has not (a route outside its paths). */
async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new HTTPException(400, { message: 'Malformed JSON in request body' });
  }
}

/** Whether the request carries bytes (zod-openapi's test of a body sent without a Content-Type). */
async function hasBytes(c: Context): Promise<boolean> {
  if (c.req.raw.body === null) return false;
  return (await c.req.arrayBuffer()).byteLength > 0;
}
