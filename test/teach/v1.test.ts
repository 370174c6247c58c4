// Sixty-odd wrong requests to the v1 face (the SDKs' dialect) and what each answer says (sandbox.md 14), lenient
// and under --strict. One sandbox per mode for the table: each case is one request judged by its own answer.
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { expectEnvelopeAnswer, label, type Wrong } from './table';

const TX = '00000000-0000-4000-8000-000000000000';
let n = 0;
const pix = (over: Record<string, unknown>) => ({ amount: 10, description: 'x', ...over });
// Each customer its own document (one per account); wrong check digits are taken, as the service takes them.
const customer = (over: Record<string, unknown>) => ({ name: 'Ana', document: String(30_000_000_000 + ++n), ...over });
const project = (over: Record<string, unknown>) => ({ name: `Typo ${++n}`, ...over });
const typo = (path: string, body: unknown, field: string, suggestion?: string, status = 201): Wrong => ({ kind: 'typo', method: 'POST', path, body, field, suggestion, status });

// prettier-ignore
const TYPOS: Wrong[] = [
  typo('/v1/pix', { amount: 10, descripton: 'y' }, 'descripton', 'description', 400), // description is required
  typo('/v1/pix', pix({ descripton: 'y' }), 'descripton', 'description'),
  typo('/v1/pix', pix({ expiresInn: 600 }), 'expiresInn', 'expiresIn'),
  typo('/v1/pix', pix({ expires_in: 600 }), 'expires_in', 'expiresIn'),
  typo('/v1/pix', pix({ externalRef: 'r' }), 'externalRef'),
  typo('/v1/pix', pix({ externalReferance: 'r' }), 'externalReferance', 'externalReference'),
  typo('/v1/pix', pix({ customerID: 'c' }), 'customerID', 'customerId'),
  typo('/v1/pix', pix({ projectid: DEFAULT.projectId }), 'projectid', 'projectId'),
  typo('/v1/pix', pix({ metadta: {} }), 'metadta', 'metadata'),
  typo('/v1/pix', pix({ costumer: { name: 'Ana' } }), 'costumer', 'customer'),
  typo('/v1/pix', pix({ customer: customer({ documnet: '12345678909' }) }), 'customer.documnet', 'customer.document'),
  typo('/v1/pix', pix({ customer: customer({ emial: 'a@b.co' }) }), 'customer.emial', 'customer.email'),
  typo('/v1/pix', pix({ customer: customer({ fone: '11999999999' }) }), 'customer.fone'), // two steps from phone, too far for four letters
  typo('/v1/pix', pix({ qqqqqq: 1 }), 'qqqqqq'),
  typo('/v1/pix/qrcode-static', pix({ descriptio: 'y' }), 'descriptio', 'description'),
  typo('/v1/pix/qrcode-static', pix({ expiresIm: 600 }), 'expiresIm', 'expiresIn'),
  typo('/v1/customers', customer({ emal: 'a@b.co' }), 'emal', 'email'),
  typo('/v1/customers', customer({ phone_number: '1' }), 'phone_number'),
  typo('/v1/customers', customer({ nome: 'Ana' }), 'nome', 'name'),
  typo('/v1/projects', project({ colr: '#123456' }), 'colr', 'color'),
  typo('/v1/projects', project({ logo_url: 'https://example.com/l.png' }), 'logo_url', 'logoUrl'),
  typo('/v1/projects', project({ descriptoin: 'd' }), 'descriptoin', 'description'),
];

// prettier-ignore
const OTHERS: Wrong[] = [
  { kind: 'type', method: 'POST', path: '/v1/pix', body: pix({ amount: '10' }), field: 'amount' },
  { kind: 'type', method: 'POST', path: '/v1/pix', body: pix({ description: 1 }), field: 'description' },
  { kind: 'type', method: 'POST', path: '/v1/pix', body: pix({ expiresIn: 'soon' }), field: 'expiresIn' },
  { kind: 'type', method: 'POST', path: '/v1/pix', body: pix({ customer: 'Ana' }), field: 'customer' },
  { kind: 'type', method: 'POST', path: '/v1/pix', body: pix({ customer: { name: 5, document: '12345678909' } }), field: 'customer.name' },
  { kind: 'type', method: 'POST', path: '/v1/pix', body: pix({ metadata: 'x' }), field: 'metadata' },
  { kind: 'type', method: 'POST', path: '/v1/customers', body: customer({ document: 123 }), field: 'document' },
  { kind: 'type', method: 'POST', path: '/v1/customers', body: customer({ email: true }), field: 'email' },
  { kind: 'type', method: 'POST', path: '/v1/projects', body: { name: ['x'] }, field: 'name' },
  { kind: 'type', method: 'POST', path: '/v1/withdrawals', body: { amount: 'ten' }, field: 'amount' },
  { kind: 'method', method: 'GET', path: '/v1/pix', allow: 'POST' },
  { kind: 'method', method: 'DELETE', path: '/v1/pix', allow: 'POST' },
  { kind: 'method', method: 'PUT', path: '/v1/customers', allow: 'GET, HEAD, POST' },
  { kind: 'method', method: 'DELETE', path: '/v1/projects', allow: 'GET, HEAD, POST' },
  { kind: 'method', method: 'POST', path: '/v1/account', allow: 'GET, HEAD' },
  { kind: 'method', method: 'GET', path: '/v1/withdrawals', allow: 'POST' },
  { kind: 'method', method: 'PATCH', path: `/v1/transactions/${TX}`, allow: 'GET, HEAD' },
  { kind: 'method', method: 'GET', path: '/v1/pix/qrcode-static', allow: 'POST' },
  { kind: 'path', method: 'POST', path: '/v1/pixx', suggestion: 'POST /v1/pix' },
  { kind: 'path', method: 'POST', path: '/v1/customer', suggestion: 'POST /v1/customers' },
  { kind: 'path', method: 'GET', path: '/v1/costumers', suggestion: 'GET /v1/customers' },
  { kind: 'path', method: 'POST', path: '/v1/project', suggestion: 'POST /v1/projects' },
  { kind: 'path', method: 'GET', path: '/v1/acount', suggestion: 'GET /v1/account' },
  { kind: 'path', method: 'GET', path: `/v1/transaction/${TX}`, suggestion: 'GET /v1/transactions/{id}' },
  { kind: 'path', method: 'POST', path: '/v1/pix/qrcode-statc', suggestion: 'POST /v1/pix/qrcode-static' },
  { kind: 'path', method: 'POST', path: '/v1/charge', suggestion: 'POST /v1/charges' },
  { kind: 'path', method: 'POST', path: '/v1/withdrawl', suggestion: 'POST /v1/withdrawals' },
  { kind: 'path', method: 'GET', path: '/v1/metric', suggestion: 'GET /v1/metrics' },
  { kind: 'credential', method: 'POST', path: '/v1/pix', headers: { authorization: 'Bearer abc.def.ghi' }, status: 401, says: 'v1 routes do not take bearer tokens' },
  { kind: 'credential', method: 'GET', path: '/v1/account', headers: { authorization: 'Bearer abc.def.ghi' }, status: 401, says: "X-API-Key: <key>" },
  { kind: 'credential', method: 'GET', path: '/v1/account', headers: { 'x-api-key': 'sk_live_nope_nope' }, status: 401, says: 'This is not an API key' },
  { kind: 'credential', method: 'GET', path: '/v1/account', headers: { 'x-api-key': 'mp_test_nope_nope_nope' }, status: 401, says: 'Unknown API key' },
];

const keyed = (w: Wrong) => w.kind !== 'credential';

describe.each([false, true])('v1, strict %s', (strict) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ strict });
  });
  const cases = strict ? TYPOS : [...TYPOS, ...OTHERS];
  test.each(cases.map((w) => [label(w), w] as const))('%s', async (_label, w) => {
    const headers = w.kind === 'credential' ? w.headers : keyed(w) ? { 'x-api-key': DEFAULT.apiKey } : {};
    const body = 'body' in w ? { body: w.body } : w.method === 'GET' || w.method === 'HEAD' ? {} : { body: {} };
    expectEnvelopeAnswer(w, await h.api(w.method, w.path, { ...body, headers }), strict);
  });
});

test('the v1 table has at least 60 wrong requests', () => {
  expect(TYPOS.length * 2 + OTHERS.length).toBeGreaterThanOrEqual(60);
});
