// Twin answers (STYLE.md habit 19): every operation of the served OpenAPI documents, sent in the same order to two
// sandboxes started alike (default fixtures, frozen clock, seeded ids), one called in process (app.request) and one on
// a real port, gets the same status, the same headers and the same body. A shortcut taken only on a real port (answers
// written to Node's response, headers read from Node's cache) that drops or changes something shows here.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { basic, cobBody, TXID } from '../helpers/api-pix';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Headers that are not the answer's own: the transport's (Node adds them on a socket, app.request has none) and the
 * trace id, new for every request. Everything else must be the same, value for value.
 */
const NOT_COMPARED = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-trace-id'];
/**
 * Body fields that differ per request or per sandbox: the trace id (in every error envelope), the wall time and duration
 * of a request log entry, and an access token (signed with each sandbox's own key; ES256 signatures differ anyway).
 */
const PER_REQUEST = new Set(['traceId', 'wallAt', 'durationMs', 'access_token']);

const headersOf = (res: ApiResponse) => Object.fromEntries([...res.headers].filter(([name]) => !NOT_COMPARED.includes(name)));
/**
 * The body with per-request values replaced. The sandbox's own address is the one the request came to: on a port
 * http://127.0.0.1:PORT, in process http://localhost (app.request's base); the port's is written as the latter.
 */
const bodyOf = (res: ApiResponse, own?: string) => {
  const text = own ? res.text.replaceAll(own, 'http://localhost') : res.text;
  try {
    return normalised(JSON.parse(text));
  } catch {
    return text;
  }
};
const normalised = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(normalised)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, PER_REQUEST.has(k) ? '(per request)' : normalised(v)]))
      : value;

let process: Harness;
let port: Harness;
let v2doc: Json;
let pixDoc: Json;
beforeAll(async () => {
  [process, port] = await Promise.all([startHarness({ seed: 7 }, 'process'), startHarness({ seed: 7 }, 'port')]);
  v2doc = (await process.api('GET', '/openapi.json')).body;
  pixDoc = (await process.api('GET', '/openapi-api-pix.json')).body;
  await port.api('GET', '/openapi.json');
  await port.api('GET', '/openapi-api-pix.json');
});
afterAll(async () => {
  await process?.sb.close();
  await port?.sb.close();
});

interface Call {
  label: string;
  method: string;
  path: string;
  body?: unknown;
  /** How the call authenticates: the face's credential, fetched afresh on each sandbox (the clock may have moved). */
  auth: 'v2' | 'v1' | 'api-pix' | 'none';
}

const exampleOf = (p: Json) => p.example ?? p.schema?.example;
const fill = (path: string, op: Json, fallback: (name: string) => string) =>
  ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'path').reduce((u, p) => u.replace(`{${p.name}}`, encodeURIComponent(String(exampleOf(p) ?? fallback(p.name)))), path);
const operations = (doc: Json) => Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, op: item[m] as Json })));
const faceOf = (path: string): Call['auth'] => (path.startsWith('/v2/') && path !== '/v2/auth' ? 'v2' : path.startsWith('/v1/') ? 'v1' : 'none');

/**
 * /openapi.json (v2, v1, control): each operation with its documented request example. /openapi-api-pix.json documents
 * no request examples: each operation is sent with its path's example values (or the fixtures' txid) and, where it
 * takes a body, the body of a charge for the cob family and {} (a wrong request, answered with a problem) elsewhere.
 * The live stream never ends: its twin is in test/control/stream.test.ts.
 */
function calls(): Call[] {
  const out: Call[] = [];
  for (const { method, path, op } of operations(v2doc)) {
    if (op.responses['200']?.content?.['text/event-stream']) continue;
    out.push({ label: `${method} ${path}`, method, path: fill(path, op, () => 'x'), body: op.requestBody?.content?.['application/json']?.example, auth: faceOf(path) });
  }
  for (const { method, path, op } of operations(pixDoc)) {
    const body = !op.requestBody ? undefined : /^\/cobv?\/\{txid\}$/.test(path) && method === 'PUT' ? cobBody() : {};
    out.push({ label: `${method} /api-pix/v2${path}`, method, path: `/api-pix/v2${fill(path, op, (name) => (name === 'txid' ? TXID : 'x'))}`, body, auth: path === '/oauth/token' ? 'none' : 'api-pix' });
  }
  return out;
}

async function send(h: Harness, call: Call): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (call.auth === 'v1') headers['x-api-key'] = DEFAULT.apiKey;
  if (call.auth === 'v2') headers.authorization = `Bearer ${await h.token()}`;
  if (call.auth === 'api-pix') {
    const form = 'grant_type=client_credentials';
    const t = await h.api('POST', '/api-pix/oauth/token', { raw: form, contentType: 'application/x-www-form-urlencoded', headers: { authorization: basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret) } });
    headers.authorization = `Bearer ${t.body.access_token}`;
  }
  return h.api(call.method, call.path, { ...(call.body === undefined ? {} : { body: call.body }), headers });
}

const all = await (async () => {
  const h = await startHarness({}, 'process');
  const [a, b] = [(await h.api('GET', '/openapi.json')).body, (await h.api('GET', '/openapi-api-pix.json')).body];
  await h.sb.close();
  [v2doc, pixDoc] = [a, b];
  return calls();
})();

test('the twins cover every operation of both documents', () => {
  expect(all.length).toBeGreaterThan(140);
});

// In order, one after the other: both sandboxes see the same requests in the same order, so their state and ids agree.
test.each(all.map((c) => [c.label, c] as const))('%s answers alike in process and on a real port', async (_label, call) => {
  const inProcess = await send(process, call);
  const onPort = await send(port, call);
  const why = `${call.method} ${call.path}: ${onPort.text.slice(0, 300)}`;
  expect(onPort.status, why).toBe(inProcess.status);
  expect(headersOf(onPort), why).toEqual(headersOf(inProcess));
  expect(bodyOf(onPort, port.url), why).toEqual(bodyOf(inProcess));
});
