// The only place that turns failures into HTTP: the service's envelope (section 7) for v1/v2/control, and the
// small `{error, message}` body of POST /v2/auth. Anything that is not a SandboxError is a bug: it is logged and
// answered 500 INTERNAL_ERROR, which the tests would catch.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { ERROR_STATUS, SandboxError, type FieldError } from '../domain/errors';

const ERROR_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  421: 'MisdirectedRequest',
  422: 'UnprocessableEntity',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
  507: 'InsufficientStorage',
};

export const errorName = (status: number) => ERROR_NAMES[status] ?? 'Error';

export interface ErrorEnvelope {
  statusCode: number;
  error: string;
  message: string;
  timestamp: string;
  traceId: string;
  details: Record<string, unknown>;
}

/** Converts anything thrown into a SandboxError (unknown errors become INTERNAL_ERROR and are logged). */
export function toSandboxError(err: unknown, log: (msg: string) => void): SandboxError {
  if (err instanceof SandboxError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 413) return new SandboxError('PAYLOAD_TOO_LARGE', 'The request body is too large; send at most 512 KiB of JSON.');
    if (err.status === 415) return new SandboxError('UNSUPPORTED_MEDIA_TYPE', "The body must be JSON: send it with header 'Content-Type: application/json'.");
    if (err.status === 400) return new SandboxError('MALFORMED_JSON', 'The request body is not valid JSON; send a JSON object with Content-Type: application/json.');
  }
  log(`unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new SandboxError('INTERNAL_ERROR', 'Unexpected error inside the sandbox. This is a bug in pix-sandbox; please report it with the traceId.');
}

export function errorEnvelope(err: SandboxError, timestamp: string, traceId: string): ErrorEnvelope {
  const status = ERROR_STATUS[err.code];
  return {
    statusCode: status,
    error: errorName(status),
    message: err.message,
    timestamp,
    traceId,
    details: { code: err.code, ...err.details },
  };
}

export function sendError(c: Context, err: SandboxError, timestamp: string, traceId: string): Response {
  const headers: Record<string, string> = {};
  if (typeof err.details.retryAfter === 'number') headers['Retry-After'] = String(err.details.retryAfter);
  return c.json(errorEnvelope(err, timestamp, traceId), err.status as ContentfulStatusCode, headers);
}

/** A field path as a client would write it: `split[1].amount`, `customer.email`. */
function fieldPath(path: PropertyKey[], prefix: string): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(body)';
}

const article = (type: string) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const valueAt = (input: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' && Object.hasOwn(v, key) ? (v as Record<PropertyKey, unknown>)[key] : undefined), input);

/** Field errors of a failed parse of `input` (the value as the client sent it). */
export function zodFields(error: ZodError, target: string, input?: unknown): FieldError[] {
  return error.issues.map((issue) => {
    const field = fieldPath(issue.path, target === 'header' ? '' : '');
    // zod 4 leaves the received value out of the issue, so it is read from the input: a missing field asks to be sent,
    // a value of the wrong type says what it is (the schema's own message when it has one, else expected vs received).
    const value = valueAt(input, issue.path);
    const message =
      issue.code === 'invalid_type'
        ? value === undefined
          ? 'is required'
          : issue.message.startsWith('Invalid input') ? `must be ${article(issue.expected)}, not ${article(typeOf(value))}` : issue.message
        : issue.code === 'unrecognized_keys'
          ? `has unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}; remove them`
          : issue.message;
    return { field, message };
  });
}

