// Documents as the service takes them (sandbox.md 13, 14): a CPF or CNPJ of the right shape is accepted on every face
// whatever its check digits (the service's hosted sandbox takes the PHP SDK suite's 12345678900), with a
// Sandbox-Warning header that names the field and the digits a real one would have; another length, a letter or
// punctuation is still a 400 naming the field, and changes nothing.
import { afterEach, expect, test } from 'vitest';
import { DEFAULT, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { apiPix, cobBody, TXID } from '../helpers/api-pix';

let h: Harness;
afterEach(async () => {
  await h?.sb.close();
});

const v1 = (path: string, body: unknown) => h.api('POST', `/v1${path}`, { body, headers: { 'x-api-key': DEFAULT.apiKey } });
const holder = (doc: string) => ({ amount: 5, pixKey: 'ana@example.com', pixKeyType: 'email', holderName: 'Ana', holderDocument: doc, holderDocumentType: doc.length === 11 ? 'cpf' : 'cnpj' });

/** Where a client sends a payer's or holder's document, on each face: how to send `doc` there, and the answer's field. */
const PLACES: [string, (doc: string) => Promise<ApiResponse>, string, number][] = [
  ['v2 POST /v2/pix customer.document', (doc) => h.v2('POST', '/pix', { body: { amount: 10, description: 'x', customer: { name: 'Ana', document: doc } } }), 'customer.document', 201],
  ['v2 POST /v2/withdrawals holderDocument', (doc) => h.v2('POST', '/withdrawals', { body: holder(doc) }), 'holderDocument', 201],
  ['v1 POST /v1/pix customer.document', (doc) => v1('/pix', { amount: 10, description: 'x', customer: { name: 'Ana', document: doc } }), 'document', 201],
  ['v1 POST /v1/customers document', (doc) => v1('/customers', { name: 'Ana', document: doc }), 'document', 201],
  ['v1 POST /v1/withdrawals holderDocument', (doc) => v1('/withdrawals', holder(doc)), 'holderDocument', 201],
  ['API Pix PUT /cob devedor', (doc) => apiPix(h, 'PUT', `/cob/${TXID}`, { body: cobBody({ devedor: { [doc.length === 11 ? 'cpf' : 'cnpj']: doc, nome: 'Ana' } }) }), 'devedor', 201],
];

test.each(PLACES.flatMap(([place, send, field, status]) => [
  [place, '12345678900', '09 (12345678909)', send, field, status],
  [place, '11222333000180', '81 (11222333000181)', send, field, status],
] as const))('%s takes %s with wrong check digits, and a warning naming the real ones', async (_place, doc, real, send, field, status) => {
  h = await startHarness();
  const res = await send(doc);
  expect(res.status, res.text).toBe(status);
  const warning = res.headers.get('sandbox-warning') ?? '';
  expect(warning).toContain(`${field}`);
  expect(warning).toContain(`"${doc}" is not a real`);
  expect(warning).toContain(`check digits would be ${real}`);
});

test.each(PLACES.flatMap(([place, send]) => [
  [place, '1234567890', send],
  [place, '1234567890A', send],
  [place, '123.456.789-09', send],
] as const))('%s refuses %s (length, letter or punctuation) with a 400 naming the field, changing nothing', async (_place, doc, send) => {
  h = await startHarness();
  const before = (await h.control('GET', `/accounts/${DEFAULT.accountId}`)).text;
  const res = await send(doc);
  expect(res.status, res.text).toBe(400);
  expect(res.text).toMatch(/document|devedor/i);
  expect((await h.control('GET', `/accounts/${DEFAULT.accountId}`)).text).toBe(before);
});

test('a real document gets no warning', async () => {
  h = await startHarness();
  const res = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x', customer: { name: 'Ana', document: '52998224725' } } });
  expect(res.status, res.text).toBe(201);
  expect(res.headers.get('sandbox-warning')).toBeNull();
});
