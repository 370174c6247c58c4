// Whatever a client sends, the answer is a 4xx in the envelope (sandbox.md 2.2: "Nothing a client sends may produce a
// 500"), stamped with the sandbox clock, and a refused request leaves the state as it was.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, type CallOptions, type Harness } from '../helpers/harness';
import { at, expectEnvelope, expectValidation, UUID, expectStatus } from './support';

const MAX = 512 * 1024;
/** A JSON body of exactly `bytes` bytes: a project whose name pads it out. */
const projectOfSize = (bytes: number) => {
  const shell = JSON.stringify({ name: '', color: '#123456' });
  return JSON.stringify({ name: 'x'.repeat(bytes - shell.length), color: '#123456' });
};

type Case = { label: string; method: string; path: string; opts: CallOptions & { subAccount?: string }; status: number; code: string; auth?: boolean };

// prettier-ignore
const CASES: Case[] = [
  { label: 'malformed JSON on a v2 route',       method: 'POST', path: '/v2/projects',        opts: { raw: '{"name": "x",', contentType: 'application/json' }, status: 400, code: 'MALFORMED_JSON' },
  { label: 'malformed JSON on a control route',  method: 'POST', path: '/_sandbox/accounts',  opts: { raw: '{not json}', contentType: 'application/json' },     status: 400, code: 'MALFORMED_JSON', auth: false },
  { label: 'a text/plain body',                  method: 'POST', path: '/v2/projects',        opts: { raw: '{"name":"x","color":"#123456"}', contentType: 'text/plain' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { label: 'a form-encoded body',                method: 'POST', path: '/v2/sub-accounts',    opts: { raw: 'reference=loja-sul&name=Sul', contentType: 'application/x-www-form-urlencoded' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { label: 'a body without a content type',      method: 'POST', path: '/v2/projects',        opts: { raw: '{"name":"x","color":"#123456"}' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { label: 'a body over 512 KiB',                method: 'POST', path: '/v2/projects',        opts: { raw: projectOfSize(MAX + 1), contentType: 'application/json' }, status: 413, code: 'PAYLOAD_TOO_LARGE' },
  { label: 'a control body over 512 KiB',        method: 'POST', path: '/_sandbox/accounts',  opts: { raw: JSON.stringify({ name: 'x'.repeat(MAX) }), contentType: 'application/json' }, status: 413, code: 'PAYLOAD_TOO_LARGE', auth: false },
  { label: 'an unknown v2 route',                method: 'GET',  path: '/v2/nothing-here',    opts: {}, status: 404, code: 'ROUTE_NOT_FOUND' },
  { label: 'an unknown control route',           method: 'GET',  path: '/_sandbox/nothing',   opts: {}, status: 404, code: 'ROUTE_NOT_FOUND', auth: false },
  { label: 'an unknown top-level route',         method: 'GET',  path: '/v3/account',         opts: {}, status: 404, code: 'ROUTE_NOT_FOUND', auth: false },
  { label: 'a method the route does not serve', method: 'DELETE', path: '/v2/account',       opts: {}, status: 405, code: 'METHOD_NOT_ALLOWED' },
  { label: 'a JSON array body',                  method: 'POST', path: '/v2/projects',        opts: { body: [{ name: 'x', color: '#123456' }] }, status: 400, code: 'VALIDATION_ERROR' },
  { label: 'a JSON string body',                 method: 'POST', path: '/v2/projects',        opts: { body: 'project' }, status: 400, code: 'VALIDATION_ERROR' },
  { label: 'a JSON null body',                   method: 'POST', path: '/v2/projects',        opts: { raw: 'null', contentType: 'application/json' }, status: 400, code: 'VALIDATION_ERROR' },
  { label: 'no bearer token',                    method: 'GET',  path: '/v2/account',         opts: {}, status: 401, code: 'UNAUTHORIZED', auth: false },
];

async function call(h: Harness, c: Case) {
  if (c.auth === false) return h.api(c.method, c.path, c.opts);
  return h.v2(c.method, c.path.replace(/^\/v2/, ''), c.opts);
}

test.each(CASES.map((c) => [c.label, c.status, c.code, c] as const))('%s answers %i %s in the envelope, stamped with the sandbox clock', async (_l, _s, _c, c) => {
  const h = await startHarness();
  await expectStatus(h.advance(90), 200); // so the timestamp is visibly the sandbox clock's
  const res = await call(h, c);
  expectEnvelope(res, c.status, c.code, at(90));
  expect(res.headers.get('x-trace-id'), res.text).toBe(res.body.traceId);
});

test('an empty body on POST /v2/projects answers 400 VALIDATION_ERROR listing name and color', async () => {
  const h = await startHarness();
  const res = await h.v2('POST', '/projects', {});
  expectValidation(res, ['name', 'color']);
  expect(res.body.details.fields, res.text).toEqual([
    { field: 'name', message: expect.any(String) },
    { field: 'color', message: expect.any(String) },
  ]);
});

test.each([
  ['a missing field', { color: '#123456' }, 'name', 'is required'],
  ['a number where a string goes', { name: 7, color: '#123456' }, 'name', 'must be a string'],
  ['an object where a string goes', { name: 'x', color: { hex: '#123456' } }, 'color', 'must be a string'],
])('%s is named as such, not as missing', async (_label, body, field, message) => {
  const h = await startHarness();
  const res = await h.v2('POST', '/projects', { body });
  expectValidation(res, [field]);
  expect(res.body.details.fields, res.text).toEqual([{ field, message }]);
});

test('a value of the wrong type under a schema without its own message says expected and received', async () => {
  const h = await startHarness();
  const res = await h.api('PATCH', `/_sandbox/accounts/${DEFAULT.accountId}`, { body: { automation: { autoPayAfterSeconds: 'soon' } } });
  expectValidation(res, ['automation.autoPayAfterSeconds']);
  expect(res.body.details.fields, res.text).toEqual([{ field: 'automation.autoPayAfterSeconds', message: 'must be a number, not a string' }]);
});

test('a body of exactly 512 KiB is read (and then validated), not refused as too large', async () => {
  const h = await startHarness();
  const raw = projectOfSize(MAX);
  expect(Buffer.byteLength(raw)).toBe(MAX);
  const res = await h.v2('POST', '/projects', { raw, contentType: 'application/json' });
  expectValidation(res, ['name']);
});

test('a JSON body with a charset parameter is accepted', async () => {
  const h = await startHarness();
  const res = await h.v2('POST', '/projects', { raw: JSON.stringify({ name: 'Charset', color: '#123456' }), contentType: 'application/json; charset=utf-8' });
  expect(res.status, res.text).toBe(201);
});

test('every error carries its own traceId', async () => {
  const h = await startHarness();
  const a = await h.api('GET', '/v2/nothing');
  const b = await h.api('GET', '/v2/nothing');
  expect(a.body.traceId, a.text).toMatch(UUID);
  expect(a.body.traceId, `${a.text}\n${b.text}`).not.toBe(b.body.traceId);
});

test('no failed request changes state', async () => {
  const h = await startHarness();
  const pixOnly = await h.token(DEFAULT.pixOnly.clientId, DEFAULT.pixOnly.clientSecret);
  const id = DEFAULT.accountId;
  const before = await h.control('GET', `/accounts/${id}`);
  const listBefore = await h.control('GET', '/accounts');
  const healthBefore = await h.control('GET', '/health');

  const failing: [string, Promise<{ status: number; text: string }>][] = [
    ['duplicate project', h.v2('POST', '/projects', { body: { name: 'Loja Online', color: '#123456' } })],
    ['invalid project', h.v2('POST', '/projects', { body: { name: 'Novo', color: 'red' } })],
    ['project without permission', h.api('POST', '/v2/projects', { token: pixOnly, body: { name: 'Sem permissão', color: '#123456' } })],
    ['project on a suspended sub-account', h.v2('POST', '/projects', { subAccount: 'loja-fechada', body: { name: 'Fechado', color: '#123456' } })],
    ['project on an unknown sub-account', h.v2('POST', '/projects', { subAccount: 'loja-nenhuma', body: { name: 'Nenhum', color: '#123456' } })],
    ['project, malformed JSON', h.v2('POST', '/projects', { raw: '{"name":"Quebrado",', contentType: 'application/json' })],
    ['project, too large', h.v2('POST', '/projects', { raw: projectOfSize(MAX + 10), contentType: 'application/json' })],
    ['project, wrong type', h.v2('POST', '/projects', { raw: '{"name":"Texto","color":"#123456"}', contentType: 'text/plain' })],
    ['duplicate sub-account', h.v2('POST', '/sub-accounts', { body: { reference: 'loja-norte', name: 'Outra Norte' } })],
    ['reserved sub-account', h.v2('POST', '/sub-accounts', { body: { reference: 'principal', name: 'Principal' } })],
    ['sub-account with X-Sub-Account', h.v2('POST', '/sub-accounts', { subAccount: 'loja-centro', body: { reference: 'loja-nova', name: 'Nova' } })],
    ['control: adjustment of 0', h.control('POST', `/accounts/${id}/adjustments`, { amount: 0 })],
    ['control: adjustment with 3 decimals', h.control('POST', `/accounts/${id}/adjustments`, { amount: 1.005 })],
    ['control: adjustment to an unknown wallet', h.control('POST', `/accounts/${id}/adjustments`, { amount: 10, subAccount: 'loja-nenhuma' })],
    ['control: patch with a bad status', h.control('PATCH', `/accounts/${id}`, { status: 'closed', name: 'Renomeada' })],
    ['control: patch with a bad fee', h.control('PATCH', `/accounts/${id}`, { fees: { pix: { percent: 150 } } })],
    ['control: credential with a bad permission', h.control('POST', `/accounts/${id}/credentials`, { permissions: ['EVERYTHING'] })],
    ['control: credential with a taken clientId', h.control('POST', `/accounts/${id}/credentials`, { clientId: DEFAULT.full.clientId })],
    ['control: duplicate sub-account', h.control('POST', `/accounts/${id}/sub-accounts`, { reference: 'loja-centro', balance: 50 })],
    ['control: invalid sub-account', h.control('POST', `/accounts/${id}/sub-accounts`, { reference: 'Loja Nova', balance: 50 })],
    ['control: unknown sub-account patch', h.control('PATCH', `/accounts/${id}/sub-accounts/loja-nenhuma`, { status: 'suspended' })],
    ['control: bad sub-account status', h.control('PATCH', `/accounts/${id}/sub-accounts/loja-centro`, { status: 'closed' })],
    ['control: unknown institution', h.control('PATCH', `/accounts/${id}/institutions/44444444-4444-4444-8444-000000000000`, { status: 'down' })],
    ['control: bad institution status', h.control('PATCH', `/accounts/${id}/institutions/${DEFAULT.institutionUp}`, { status: 'sideways', enabled: false })],
    ['control: bad credential patch', h.control('PATCH', `/accounts/${id}/credentials/${DEFAULT.full.id}`, { permissions: ['NOPE'], subAccountAccess: false })],
    ['control: tenant with a bad sub-account', h.control('POST', '/accounts', { name: 'Quebrada', subAccounts: [{ reference: 'ok-ref' }, { reference: 'NOT OK' }] })],
    ['control: tenant with a taken clientId', h.control('POST', '/accounts', { name: 'Copia', credentials: [{ clientId: DEFAULT.full.clientId }] })],
    ['control: tenant with a webhook on an unknown sub-account', h.control('POST', '/accounts', { webhooks: [{ url: 'http://127.0.0.1:9/x', subAccount: 'ghost' }] })],
    ['control: tenant with a taken id', h.control('POST', '/accounts', { id })],
  ];
  for (const [label, pending] of failing) {
    const res = await pending;
    expect(res.status >= 400 && res.status < 500, `${label}: ${res.text}`).toBe(true);
  }

  const after = await h.control('GET', `/accounts/${id}`);
  expect(after.body, 'the account changed after failed requests').toEqual(before.body);
  const listAfter = await h.control('GET', '/accounts');
  expect(listAfter.body, `the account list changed after failed requests: ${listAfter.text}`).toEqual(listBefore.body);
  const healthAfter = await h.control('GET', '/health');
  expect(healthAfter.body.pendingJobs, healthAfter.text).toBe(healthBefore.body.pendingJobs);
  // And what is still allowed works as before.
  await expectStatus(h.v2('POST', '/sub-accounts', { body: { reference: 'loja-nova', name: 'Nova' } }), 201);
});

test('random JSON bodies never produce a 5xx on any foundation write route', async () => {
  const h = await startHarness();
  const token = await h.token();
  const routes: [string, string, boolean][] = [
    ['POST', '/v2/projects', true],
    ['POST', '/v2/sub-accounts', true],
    ['POST', '/v2/auth', false],
    ['POST', '/_sandbox/accounts', false],
    ['PATCH', `/_sandbox/accounts/${DEFAULT.accountId}`, false],
    ['POST', `/_sandbox/accounts/${DEFAULT.accountId}/adjustments`, false],
    ['PUT', '/_sandbox/clock', false],
  ];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue(), async ([method, path, auth], value) => {
      const res = await h.api(method, path, { raw: JSON.stringify(value), contentType: 'application/json', ...(auth ? { token } : {}) });
      expect(res.status < 500, `${method} ${path} ${JSON.stringify(value)}: ${res.text}`).toBe(true);
    }),
    { numRuns: 300, seed: 20260310 },
  );
});
