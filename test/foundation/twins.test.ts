// Twin answers (STYLE.md habit 19): every operation of the served OpenAPI documents, sent in the same order to two
// sandboxes started alike (default fixtures, frozen clock, seeded ids), one called in process (app.request) and one on
// a real port, gets the same status, the same headers and the same body. A shortcut taken only on a real port (answers
// written to Node's response, headers read from Node's cache) that drops or changes something shows here.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { cobBody } from '../helpers/api-pix';
import { credentialOf, filledPath, operationsOf, servedDocuments } from '../helpers/operations';

/**
 * Headers that are not the answer's own: the transport's (Node adds them on a socket, app.request has none) and the
 * trace id, new for every request. Everything else must be the same, value for value.
 */
const NOT_COMPARED = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-trace-id'];
/**
 * Body fields that differ per request or per sandbox: the trace id (in every error envelope), the wall time and duration
 * of a request log entry, an access token (signed with each sandbox's own key; ES256 signatures differ anyway), and
 * health's process figures (both sandboxes share this process, whose memory moves between the two requests).
 */
const PER_REQUEST = new Set(['traceId', 'wallAt', 'durationMs', 'access_token', 'rssBytes', 'uptimeSeconds']);

const headersOf = (res: ApiResponse) => Object.fromEntries([...res.headers].filter(([name]) => !NOT_COMPARED.includes(name)));
/**
 * The body with per-request values replaced. The sandbox's own address is the one the request came to: on a port
 * http://127.0.0.1:PORT, in process http://localhost (app.request's base); the port's is written as the latter.
 */
const bodyOf = (res: ApiResponse, own?: string) => {
  const text = (own ? res.text.replaceAll(own, 'http://localhost') : res.text).replace(/([?&]code=)[A-Z2-9]+/g, '$1(room code)');
  try {
    return normalised(JSON.parse(text));
  } catch {
    return text;
  }
};
/** A workshop room's code comes from the system's randomness, never the seed: each sandbox's room has its own. */
const perRoom = (key: string, holder: object) => key === 'code' && 'joinUrl' in holder;
const normalised = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(normalised)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, PER_REQUEST.has(k) || perRoom(k, value) ? '(per request)' : normalised(v)]))
      : value;

const { doc: v2doc, pixDoc } = await servedDocuments();
let process: Harness;
let port: Harness;
beforeAll(async () => {
  [process, port] = await Promise.all([startHarness({ seed: 7 }, 'process'), startHarness({ seed: 7 }, 'port')]);
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
}

/**
 * /openapi.json (v2, v1, control): each operation with its documented request example. /openapi-api-pix.json documents
 * no request examples: each operation is sent with stand-ins for its path parameters and, where it takes a body, the
 * body of a charge for PUT cob and cobv and {} (a wrong request, answered with a problem) elsewhere. The live stream
 * never ends: its twin is in test/control/stream.test.ts.
 */
const all: Call[] = [
  ...operationsOf(v2doc)
    .filter(({ op }) => !op.responses['200']?.content?.['text/event-stream'])
    .map(({ method, path, op }) => ({ label: `${method} ${path}`, method, path: filledPath(v2doc, path, op), body: op.requestBody?.content?.['application/json']?.example })),
  ...operationsOf(pixDoc).map(({ method, path, op }) => ({
    label: `${method} /api-pix/v2${path}`,
    method,
    path: `/api-pix/v2${filledPath(pixDoc, path, op)}`,
    body: !op.requestBody ? undefined : /^\/cobv?\/\{txid\}$/.test(path) && method === 'PUT' ? cobBody() : {},
  })),
];

async function send(h: Harness, call: Call): Promise<ApiResponse> {
  const headers = await credentialOf(h, call.path);
  return h.api(call.method, call.path, { ...(call.body === undefined ? {} : { body: call.body }), headers });
}

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
