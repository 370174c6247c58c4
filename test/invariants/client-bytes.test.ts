// Any byte a client sends is safe (sandbox.md 11), on a real port, where Node itself refuses a header it cannot send:
// a field name outside Latin-1 (an emoji, CJK, a lone surrogate or a control character sent as a JSON escape, a name
// of thousands of characters) at the top of a body or nested, on every face's creates and the control API, is a 2xx
// with a warning a header can carry, or a 4xx naming it, never a 5xx; and the names every plain object inherits
// (`constructor`, `__proto__`...) in every path parameter of every route are answered as any other unknown id.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { cobBody, KEYS, pixToken } from '../helpers/api-pix';

/** Field names a client can write, each as JSON text (a lone surrogate or a NUL can only be sent as an escape). */
const NAMES: [label: string, json: string, header: string][] = [
  ['an emoji', '"🙂"', '"\\ud83d\\ude42"'],
  ['an emoji sent as escapes', '"\\ud83d\\ude42"', '"\\ud83d\\ude42"'],
  ['CJK', '"字段"', '"\\u5b57\\u6bb5"'],
  ['Latin-1', '"ação"', '"a\\u00e7\\u00e3o"'],
  ['a lone high surrogate', '"\\ud800"', '"\\ud800"'],
  ['a lone low surrogate', '"x\\udfffy"', '"x\\udfffy"'],
  ['NUL', '"\\u0000"', '"\\u0000"'],
  ['control characters', '"a\\r\\nSet-Cookie: x=1\\u0007"', '"a\\u000d\\u000aSet-Cookie: x=1\\u0007"'],
  ['a quote and a backslash', '"a\\"b\\\\c"', '"a\\u0022b\\u005cc"'],
  ['a DEL and a non-breaking space', '"\\u007f\\u00a0"', '"\\u007f\\u00a0"'],
];
const LONG = [
  ['5,000 characters', `"${'x'.repeat(5000)}"`],
  ['2,000 emoji', `"${'🙂'.repeat(2000)}"`],
] as const;
const ALL_NAMES = [...NAMES.map(([, json]) => json), ...LONG.map(([, json]) => json)];

/** A JSON object's text: `fields` (JSON text) with the hostile names after them, each holding 1. */
const withNames = (fields: string, names: readonly string[]) => `{${[fields, ...names.map((n) => `${n}:1`)].filter(Boolean).join(',')}}`;

/** Every header of an answer is one Node could send and a client can read: printable ASCII (and tabs). */
function expectHeadersValid(res: ApiResponse, why: string) {
  for (const [name, value] of res.headers) expect(value, `${why}: header ${name}`).toMatch(/^[\t\x20-\x7e]*$/);
  let bytes = 0;
  for (const [name, value] of res.headers) bytes += name.length + value.length + 4;
  expect(bytes, `${why}: the head fits a client's 16 KB`).toBeLessThan(16 * 1024);
}

const warningsOf = (res: ApiResponse) => res.headers.get('sandbox-warning') ?? '';

let h: Harness;
let v2Token: string;
let pix: string;
beforeAll(async () => {
  h = await startHarness({}, 'port');
  v2Token = await h.token();
  pix = await pixToken(h);
});
afterAll(() => h.sb.close());

/** How each face is called: its base and its credential. */
const FACES = {
  v2: (method: string, path: string, raw?: string) => h.api(method, path, { raw, contentType: 'application/json', token: v2Token }),
  v1: (method: string, path: string, raw?: string) => h.api(method, path, { raw, contentType: 'application/json', headers: { 'x-api-key': DEFAULT.apiKey } }),
  'api-pix': (method: string, path: string, raw?: string) => h.api(method, path, { raw, contentType: 'application/json', token: pix }),
  control: (method: string, path: string, raw?: string) => h.api(method, path, { raw, contentType: 'application/json' }),
};
const faceOf = (path: string): keyof typeof FACES => (path.startsWith('/v2/') ? 'v2' : path.startsWith('/v1/') ? 'v1' : path.startsWith('/api-pix/') ? 'api-pix' : 'control');

describe('the reported requests', () => {
  test('POST /v2/pix {"amount":1,"description":"x","🙂":1} is a 201 whose Sandbox-Warning names the field as \\ud83d\\ude42, and the log says the same', async () => {
    const res = await FACES.v2('POST', '/v2/pix', '{"amount":1,"description":"x","🙂":1}');
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toBe('unknown field "\\ud83d\\ude42"; it is ignored, as the service ignores it');
    const entry = (await h.control('GET', `/requests/${res.headers.get('x-trace-id')}`)).body;
    expect(entry.warnings).toEqual([warningsOf(res)]);
    expect(entry.request.body).toEqual({ amount: 1, description: 'x', '🙂': 1 });
  });

  test('the same on v1 (POST /v1/pix) and API Pix (PUT /cob/{txid}), and nested: 2xx with the escaped name', async () => {
    const v1 = await FACES.v1('POST', '/v1/pix', '{"amount":1,"description":"x","🙂":1}');
    expect(v1.status, v1.text).toBe(201);
    expect(warningsOf(v1)).toBe('unknown field "\\ud83d\\ude42"; it is ignored, as the service ignores it');
    const cob = await FACES['api-pix']('PUT', '/api-pix/v2/cob/emojitxid00000000000000000001', JSON.stringify(cobBody({ valor: { original: '1.00', '🙂': 1 } })));
    expect(cob.status, cob.text).toBe(201);
    expect(warningsOf(cob)).toBe('unknown field "valor.\\ud83d\\ude42"; it is ignored, as the service ignores it');
  });

  test('a control webhook url holding 🙂 is taken (its host is an IDN), with a warning that quotes it escaped', async () => {
    const res = await FACES.control('POST', `/_sandbox/accounts/${DEFAULT.accountId}/webhooks`, JSON.stringify({ url: 'http://🙂.example/x' }));
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toContain('url "http://\\ud83d\\ude42.example/x" is plain http');
    const https = await FACES.control('POST', `/_sandbox/accounts/${DEFAULT.accountId}/webhooks`, JSON.stringify({ url: 'https://example.com/🙂' }));
    expect(https.status, https.text).toBe(201);
    expectHeadersValid(https, 'an https URL with an emoji path');
  });

  test('under --strict, POST /v2/pix with 🙂 is a 400 naming it, and makes nothing', async () => {
    const strict = await startHarness({ strict: true }, 'port');
    try {
      const before = JSON.stringify(strict.sb.deps.store.state.accounts);
      const res = await strict.v2('POST', '/pix', { raw: '{"amount":1,"description":"x","🙂":1}', contentType: 'application/json' });
      expect(res.status, res.text).toBe(400);
      expect(res.body.details.fields).toEqual([{ field: '🙂', message: 'is not a field of this request; remove it' }]);
      expect(res.headers.get('sandbox-warning')).toBeNull();
      expect(JSON.stringify(strict.sb.deps.store.state.accounts)).toBe(before);
    } finally {
      await strict.sb.close();
    }
  });
});

describe('hostile field names on every face', () => {
  test.each(NAMES)('%s is warned of as %s... (header form %s)', async (_label, json, header) => {
    const res = await FACES.v2('POST', '/v2/pix', withNames('"amount":1,"description":"x"', [json]));
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toBe(`unknown field ${header}; it is ignored, as the service ignores it`);
    expectHeadersValid(res, json);
  });

  test('a name of 5,000 characters is cut at 64 in its warning, which says its length', async () => {
    const res = await FACES.v2('POST', '/v2/pix', withNames('"amount":1,"description":"x"', [LONG[0][1]]));
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toBe(`unknown field "${'x'.repeat(64)}"... (5000 characters); it is ignored, as the service ignores it`);
  });

  test('a body of more than ten unknown fields names ten, one header each, and counts the rest', async () => {
    // Eleven distinct names at each of two levels (an emoji and its escapes are one name once parsed).
    const res = await FACES.v2('POST', '/v2/pix', withNames(`"amount":1,"description":"x","customer":${withNames('"name":"Ana"', ALL_NAMES)}`, ALL_NAMES));
    expect(res.status, res.text).toBe(201);
    expectHeadersValid(res, 'twenty-two unknown fields');
    const entry = (await h.control('GET', `/requests/${res.headers.get('x-trace-id')}`)).body;
    expect(entry.warnings).toHaveLength(11);
    expect(entry.warnings[10]).toBe('12 more unknown fields; they are ignored, as the service ignores them');
    expect(entry.warnings[0]).toBe('unknown field "customer.\\ud83d\\ude42"; it is ignored, as the service ignores it');
  });

  /** Each face's creates, and the control API's, with a valid body: `fields` is where the hostile names go too. */
  let n = 0;
  const CREATES: [face: keyof typeof FACES, method: string, path: () => string, body: (names: readonly string[]) => string][] = [
    ['v2', 'POST', () => '/v2/pix', (names) => withNames(`"amount":1,"description":"x","customer":${withNames('"name":"Ana"', names)},"metadata":${withNames('', names)}`, names)],
    ['v2', 'POST', () => '/v2/projects', (names) => withNames(`"name":"P ${++n}","color":"#123456"`, names)],
    ['v2', 'POST', () => '/v2/sub-accounts', (names) => withNames(`"reference":"ref-${++n}","name":"S"`, names)],
    ['v2', 'POST', () => '/v2/withdrawals', (names) => withNames('"amount":1,"pixKey":"ana@example.com","pixKeyType":"email","holderName":"Ana","holderDocument":"52998224725","holderDocumentType":"cpf"', names)],
    ['v1', 'POST', () => '/v1/pix', (names) => withNames('"amount":1,"description":"x"', names)],
    ['v1', 'POST', () => '/v1/charges', (names) => withNames(`"projectId":"${DEFAULT.projectId}","name":"L","amount":10,"paymentMethods":["pix"]`, names)],
    ['api-pix', 'PUT', () => `/api-pix/v2/cob/hostiletxid${String(++n).padStart(17, '0')}`, (names) => withNames(`"calendario":${withNames('"expiracao":3600', names)},"valor":{"original":"1.00"},"chave":"${KEYS.evp}"`, names)],
    ['api-pix', 'POST', () => '/api-pix/v2/cob', (names) => withNames(`"valor":${withNames('"original":"1.00"', names)},"chave":"${KEYS.evp}"`, names)],
    ['control', 'POST', () => '/_sandbox/accounts', (names) => withNames(`"name":"T","credentials":[${withNames('', names)}]`, names)],
    ['control', 'POST', () => `/_sandbox/accounts/${DEFAULT.accountId}/webhooks`, (names) => withNames('"url":"https://example.com/h"', names)],
    ['control', 'PATCH', () => `/_sandbox/accounts/${DEFAULT.accountId}`, (names) => withNames('"name":"Loja"', names)],
    ['control', 'PUT', () => '/_sandbox/clock', (names) => withNames('"frozen":true', names)],
  ];

  test.each(CREATES.map(([face, method, path, body]) => [`${face} ${method} ${path().replace(/\d+$/, '{id}')}`, face, method, path, body] as const))(
    '%s: every hostile name, alone, at the top and nested, is a 2xx or 4xx with valid headers',
    async (_label, face, method, path, body) => {
      for (const names of [...ALL_NAMES.map((name) => [name]), ALL_NAMES]) {
        const res = await FACES[face](method, path(), body(names));
        const why = `${method} ${path()} with ${names.join(',').slice(0, 80)}: ${res.text.slice(0, 300)}`;
        expect(res.status, why).toBeLessThan(500);
        expectHeadersValid(res, why);
        // The control API refuses an unknown field, naming it as it was sent (JSON carries any name).
        if (face === 'control' && names.length === 1) {
          expect(res.status, why).toBe(400);
          expect(res.body.details.fields.map((f: { field: string }) => f.field), why).toContain(JSON.parse(names[0]!));
        }
      }
    },
  );
});

describe('names every plain object inherits, in every path parameter of every route', () => {
  const BUILT_INS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

  /** And segments outside ASCII: an emoji, percent-encoded, and an escape that decodes to no UTF-8. */
  const SEGMENTS = [...BUILT_INS, encodeURIComponent('🙂'), '%ff%fe'];

  test('no route answers one with a 5xx', async () => {
    const routes = new Map<string, { method: string; path: string }>();
    for (const r of h.sb.app.routes) if (r.method !== 'ALL' && /[:*]/.test(r.path)) routes.set(`${r.method} ${r.path}`, r);
    expect(routes.size, 'the app lists its routes').toBeGreaterThan(80);
    const failed: string[] = [];
    for (const { method, path } of routes.values()) {
      for (const name of SEGMENTS) {
        // Every parameter (`:id`, `:id{regex}`) and wildcard takes the name.
        const sent = path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, name).replace(/\*/g, name);
        const res = await FACES[faceOf(sent)](method, sent, method === 'GET' || method === 'HEAD' || method === 'DELETE' ? undefined : '{}');
        expectHeadersValid(res, `${method} ${sent}`);
        if (res.status >= 500) failed.push(`${method} ${sent} (${path}): ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failed).toEqual([]);
  });

  // /_sandbox/{name}/x once read a plain object keyed by the path's first segment (control/principal.ts) and answered 500.
  test.each(BUILT_INS)('%s as the first segment of a control path with an id (/_sandbox/{name}/x) is not a 5xx', async (name) => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await FACES.control(method, `/_sandbox/${name}/x`, method === 'POST' ? '{}' : undefined);
      expectHeadersValid(res, `${method} /_sandbox/${name}/x`);
      expect(res.status, `${method} /_sandbox/${name}/x: ${res.text}`).toBeLessThan(500);
    }
  });
});
