// Sixty-odd wrong requests to the v2 face and what each answer says (sandbox.md 14), lenient and under --strict.
// One sandbox per mode for the whole table: each case is one request judged by its own answer, and what the lenient
// ones create (a charge, a project) is what an app making that typo would have made.
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { expectEnvelopeAnswer, label, warningsOf, type Wrong } from './table';

const TX = '00000000-0000-4000-8000-000000000000';
const pix = (over: Record<string, unknown>) => ({ amount: 10, description: 'x', ...over });
let n = 0;
const project = (over: Record<string, unknown>) => ({ name: `Typo ${++n}`, color: '#123456', ...over });
const sub = (over: Record<string, unknown>) => ({ reference: `typo-${++n}`, name: 'Typo', ...over });
const typo = (path: string, body: unknown, field: string, suggestion?: string, status = 201): Wrong => ({ kind: 'typo', method: 'POST', path, body, field, suggestion, status });

// prettier-ignore
const TYPOS: Wrong[] = [
  typo('/v2/pix', { amount: 10, descripton: 'x' }, 'descripton', 'description', 400), // description is required
  typo('/v2/pix', pix({ expiresInn: 600 }), 'expiresInn', 'expiresIn'),
  typo('/v2/pix', pix({ expires_in: 600 }), 'expires_in', 'expiresIn'),
  typo('/v2/pix', pix({ externalRefrence: 'r' }), 'externalRefrence', 'externalReference'),
  typo('/v2/pix', pix({ projectID: DEFAULT.projectId }), 'projectID', 'projectId'),
  typo('/v2/pix', pix({ pspCredentialID: DEFAULT.institutionUp }), 'pspCredentialID', 'pspCredentialId'),
  typo('/v2/pix', pix({ metdata: { a: 1 } }), 'metdata', 'metadata'),
  typo('/v2/pix', pix({ custmer: { name: 'Ana' } }), 'custmer', 'customer'),
  typo('/v2/pix', pix({ descripton: 'y' }), 'descripton', 'description'),
  typo('/v2/pix', pix({ amout: 11 }), 'amout', 'amount'),
  typo('/v2/pix', pix({ splits: [] }), 'splits', 'split'),
  typo('/v2/pix', pix({ zzzzzz: 1 }), 'zzzzzz'),
  typo('/v2/pix', pix({ customer: { name: 'Ana', nmae: 'Ana' } }), 'customer.nmae', 'customer.name'),
  typo('/v2/pix', pix({ customer: { documnet: '12345678909' } }), 'customer.documnet', 'customer.document'),
  typo('/v2/pix', pix({ customer: { emial: 'a@b.co' } }), 'customer.emial', 'customer.email'),
  typo('/v2/pix', pix({ customer: { phnoe: '11999999999' } }), 'customer.phnoe', 'customer.phone'),
  typo('/v2/pix', pix({ split: [{ subAccount: 'loja-centro', amount: 1, subAcount: 'x' }] }), 'split[0].subAcount', 'split[0].subAccount'),
  typo('/v2/projects', project({ descripton: 'd' }), 'descripton', 'description'),
  typo('/v2/projects', project({ logoURL: 'https://example.com/l.png' }), 'logoURL', 'logoUrl'),
  typo('/v2/projects', project({ colour: '#123456' }), 'colour', 'color'),
  typo('/v2/sub-accounts', sub({ nmae: 'x' }), 'nmae', 'name'),
  typo('/v2/sub-accounts', sub({ referense: 'x' }), 'referense', 'reference'),
];

// prettier-ignore
const OTHERS: Wrong[] = [
  { kind: 'type', method: 'POST', path: '/v2/pix', body: pix({ amount: '10' }), field: 'amount' },
  { kind: 'type', method: 'POST', path: '/v2/pix', body: pix({ description: 5 }), field: 'description' },
  { kind: 'type', method: 'POST', path: '/v2/pix', body: pix({ expiresIn: '600' }), field: 'expiresIn' },
  { kind: 'type', method: 'POST', path: '/v2/pix', body: pix({ customer: 'Ana' }), field: 'customer' },
  { kind: 'type', method: 'POST', path: '/v2/pix', body: pix({ customer: { email: 5 } }), field: 'customer.email' },
  { kind: 'type', method: 'POST', path: '/v2/pix', body: pix({ split: {} }), field: 'split' },
  { kind: 'type', method: 'POST', path: '/v2/pix', body: pix({ split: [{ subAccount: 'loja-centro', amount: 'a' }] }), field: 'split[0].amount' },
  { kind: 'type', method: 'POST', path: '/v2/pix', body: pix({ metadata: [] }), field: 'metadata' },
  { kind: 'type', method: 'POST', path: '/v2/projects', body: project({ name: 5 }), field: 'name' },
  { kind: 'type', method: 'POST', path: '/v2/projects', body: project({ color: 123 }), field: 'color' },
  { kind: 'type', method: 'POST', path: '/v2/sub-accounts', body: sub({ reference: 7 }), field: 'reference' },
  { kind: 'method', method: 'DELETE', path: '/v2/pix', allow: 'POST' },
  { kind: 'method', method: 'GET', path: '/v2/pix', allow: 'POST' },
  { kind: 'method', method: 'PUT', path: '/v2/account', allow: 'GET, HEAD' },
  { kind: 'method', method: 'POST', path: '/v2/account', allow: 'GET, HEAD' },
  { kind: 'method', method: 'GET', path: '/v2/auth', allow: 'POST' },
  { kind: 'method', method: 'PUT', path: '/v2/withdrawals', allow: 'POST' },
  { kind: 'method', method: 'DELETE', path: `/v2/transactions/${TX}`, allow: 'GET, HEAD' },
  { kind: 'method', method: 'GET', path: `/v2/transactions/${TX}/refund`, allow: 'POST' },
  { kind: 'path', method: 'POST', path: '/v2/pixx', suggestion: 'POST /v2/pix' },
  { kind: 'path', method: 'POST', path: '/v2/pi', suggestion: 'POST /v2/pix' },
  { kind: 'path', method: 'GET', path: '/v2/acount', suggestion: 'GET /v2/account' },
  { kind: 'path', method: 'GET', path: `/v2/transaction/${TX}`, suggestion: 'GET /v2/transactions/{id}' },
  { kind: 'path', method: 'POST', path: `/v2/transactions/${TX}/refnd`, suggestion: 'POST /v2/transactions/{id}/refund' },
  { kind: 'path', method: 'POST', path: '/v2/projets', suggestion: 'POST /v2/projects' },
  { kind: 'path', method: 'GET', path: '/v2/sub-acounts', suggestion: 'GET /v2/sub-accounts' },
  { kind: 'path', method: 'POST', path: '/v2/withdrawal', suggestion: 'POST /v2/withdrawals' },
  { kind: 'path', method: 'POST', path: '/v2/auht', suggestion: 'POST /v2/auth' },
  { kind: 'path', method: 'GET', path: '/v2/balance-block', suggestion: 'GET /v2/balance-blocks' },
  { kind: 'path', method: 'POST', path: '/v2/cob', suggestion: 'POST /api-pix/v2/cob' },
  { kind: 'path', method: 'POST', path: '/v3/pix', suggestion: 'POST /v2/pix' },
  { kind: 'credential', method: 'POST', path: '/v2/pix', headers: { 'x-api-key': DEFAULT.apiKey }, status: 401, says: 'v2 routes do not take X-API-Key' },
  { kind: 'credential', method: 'GET', path: '/v2/account', headers: { 'x-api-key': DEFAULT.apiKey }, status: 401, says: 'API keys are for the v1 face' },
  { kind: 'credential', method: 'GET', path: '/v2/account', headers: {}, status: 401, says: 'POST /v2/auth' },
];

const signed = (w: Wrong) => w.kind !== 'credential' && w.kind !== 'path';

describe.each([false, true])('v2, strict %s', (strict) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness({ strict });
    token = await h.token();
  });
  const cases = strict ? TYPOS : [...TYPOS, ...OTHERS];
  test.each(cases.map((w) => [label(w), w] as const))('%s', async (_label, w) => {
    const headers = w.kind === 'credential' ? w.headers : {};
    const body = 'body' in w ? { body: w.body } : w.method === 'GET' || w.method === 'HEAD' ? {} : { body: {} };
    const res = await h.api(w.method, w.path, { ...body, headers, ...(signed(w) ? { token } : {}) });
    expectEnvelopeAnswer(w, res, strict);
  });
});

test('the v2 table has at least 60 wrong requests', () => {
  expect(TYPOS.length * 2 + OTHERS.length).toBeGreaterThanOrEqual(60);
});

test('a request without unknown fields carries no Sandbox-Warning header', async () => {
  const h = await startHarness();
  const res = await h.v2('POST', '/pix', { body: pix({ customer: { name: 'Ana', document: '12345678909' }, expiresIn: 600 }) });
  expect(res.status, res.text).toBe(201);
  expect(res.headers.get('sandbox-warning'), res.text).toBeNull();
});

test('a strict tenant refuses an unknown field and changes nothing; a lenient one warns', async () => {
  const h = await startHarness();
  const list = async () => (await h.control('GET', `/accounts/${DEFAULT.accountId}/transactions`)).body;
  const before = await list();
  const on = await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { strict: true });
  expect(on.status, on.text).toBe(200);
  expect(on.body.strict).toBe(true);
  const refused = await h.v2('POST', '/pix', { body: pix({ expiresInn: 600 }) });
  expect(refused.status, refused.text).toBe(400);
  expect(refused.body.message).toContain('expiresInn is not a field of this request; did you mean "expiresIn"?');
  expect(await list(), 'a refused request made nothing').toEqual(before);
  await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { strict: false });
  const warned = await h.v2('POST', '/pix', { body: pix({ expiresInn: 600 }) });
  expect(warned.status, warned.text).toBe(201);
  expect(warningsOf(warned)).toBe('unknown field "expiresInn"; did you mean "expiresIn"?');
  expect(warned.body.expiresAt, 'the typo is ignored: the default expiry of a day').toBe('2026-03-11T12:00:00.000Z');
});
