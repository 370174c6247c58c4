// Bad input on the v1 routes (service document 8, issue 23): a 4xx in the service's envelope that names the field,
// never a 500, and nothing left behind (no customer, transaction, link, ledger entry or job).
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { newCustomer, v1call } from '../helpers/v1-calls';

const P = DEFAULT.projectId;
const long = (n: number) => 'x'.repeat(n);
const pix = { amount: 10, description: 'ok' };
const link = { projectId: P, name: 'L', amount: 10, paymentMethods: ['pix'] };
const wd = { amount: 5, pixKey: 'a@example.com', pixKeyType: 'email', holderName: 'A', holderDocument: '52998224725', holderDocumentType: 'cpf' };

interface Row {
  name: string;
  path: string;
  body: unknown | ((h: Harness) => Promise<unknown>);
  status: number;
  fields: string[];
  method?: string;
}

const ROWS: Row[] = [
  { name: 'pix: amount below 1', path: '/pix', body: { ...pix, amount: 0.99 }, status: 400, fields: ['amount'] },
  { name: 'pix: amount with 3 decimals', path: '/pix', body: { ...pix, amount: 1.001 }, status: 400, fields: ['amount'] },
  { name: 'pix: amount as a string', path: '/pix', body: { ...pix, amount: '10' }, status: 400, fields: ['amount'] },
  { name: 'pix: description missing', path: '/pix', body: { amount: 10 }, status: 400, fields: ['description'] },
  { name: 'pix: description of 256', path: '/pix', body: { ...pix, description: long(256) }, status: 400, fields: ['description'] },
  { name: 'pix: expiresIn 299', path: '/pix', body: { ...pix, expiresIn: 299 }, status: 400, fields: ['expiresIn'] },
  { name: 'pix: expiresIn 604801', path: '/pix', body: { ...pix, expiresIn: 604801 }, status: 400, fields: ['expiresIn'] },
  { name: 'pix: externalReference of 256', path: '/pix', body: { ...pix, externalReference: long(256) }, status: 400, fields: ['externalReference'] },
  { name: 'pix: customer and customerId', path: '/pix', body: async (h: Harness) => ({ ...pix, customerId: (await newCustomer(h)).id, customer: { name: 'A', document: '52998224725' } }), status: 400, fields: ['customer', 'customerId'] },
  { name: 'pix: unknown customerId', path: '/pix', body: { ...pix, customerId: '3c90c3cc-0d44-4b50-8888-8dd25736052a' }, status: 404, fields: [] },
  { name: 'pix: unknown projectId', path: '/pix', body: { ...pix, projectId: '3c90c3cc-0d44-4b50-8888-8dd25736052a' }, status: 404, fields: [] },
  { name: 'pix: CPF of 10 digits', path: '/pix', body: { ...pix, customer: { name: 'A', document: '1234567890' } }, status: 400, fields: ['customer.document'] },
  { name: 'pix: customer without name', path: '/pix', body: { ...pix, customer: { document: '52998224725' } }, status: 400, fields: ['customer.name'] },
  { name: 'pix: metadata an array', path: '/pix', body: { ...pix, metadata: [1] }, status: 400, fields: ['metadata'] },
  { name: 'static: amount below 1', path: '/pix/qrcode-static', body: { ...pix, amount: 0 }, status: 400, fields: ['amount'] },
  { name: 'static: expiresIn 299', path: '/pix/qrcode-static', body: { ...pix, expiresIn: 299 }, status: 400, fields: ['expiresIn'] },
  { name: 'static: unknown projectId', path: '/pix/qrcode-static', body: { ...pix, projectId: 'nope' }, status: 404, fields: [] },
  { name: 'customer: CNPJ with punctuation', path: '/customers', body: { name: 'A', document: '11.222.333/0001-81' }, status: 400, fields: ['document'] },
  { name: 'customer: name of 256', path: '/customers', body: { name: long(256), document: '52998224725' }, status: 400, fields: ['name'] },
  { name: 'customer: email not an email', path: '/customers', body: { name: 'A', document: '52998224725', email: 'nope' }, status: 400, fields: ['email'] },
  { name: 'customer: phone of 21', path: '/customers', body: { name: 'A', document: '52998224725', phone: long(21) }, status: 400, fields: ['phone'] },
  { name: 'customer: a known document (409)', path: '/customers', body: async (h: Harness) => (await newCustomer(h, '52998224725')) && { name: 'B', document: '52998224725' }, status: 409, fields: [] },
  { name: 'project: name of 256', path: '/projects', body: { name: long(256) }, status: 400, fields: ['name'] },
  { name: 'project: color not hex', path: '/projects', body: { name: 'P', color: 'blue' }, status: 400, fields: ['color'] },
  { name: 'project: a taken name (409)', path: '/projects', body: { name: 'Loja Online' }, status: 409, fields: [] },
  { name: 'charge: method outside the three', path: '/charges', body: { ...link, paymentMethods: ['pix', 'crypto'] }, status: 400, fields: ['paymentMethods[1]'] },
  { name: 'charge: no method', path: '/charges', body: { ...link, paymentMethods: [] }, status: 400, fields: ['paymentMethods'] },
  { name: 'charge: expiresAt in the past', path: '/charges', body: { ...link, expiresAt: '2026-03-10T11:59:59Z' }, status: 400, fields: ['expiresAt'] },
  { name: 'charge: expiresAt not a date', path: '/charges', body: { ...link, expiresAt: 'tomorrow' }, status: 400, fields: ['expiresAt'] },
  { name: 'charge: unknown projectId', path: '/charges', body: { ...link, projectId: 'nope' }, status: 404, fields: [] },
  { name: 'charge: projectId missing', path: '/charges', body: { name: 'L', amount: 10, paymentMethods: ['pix'] }, status: 400, fields: ['projectId'] },
  { name: 'charge: unknown customerId', path: '/charges', body: { ...link, customerId: 'nope' }, status: 404, fields: [] },
  { name: 'charge: amount below 1', path: '/charges', body: { ...link, amount: 0.5 }, status: 400, fields: ['amount'] },
  { name: 'charge: description of 256', path: '/charges', body: { ...link, description: long(256) }, status: 400, fields: ['description'] },
  { name: 'withdrawal: half of the PIX fields', path: '/withdrawals', body: { amount: 5, pixKey: 'a@example.com', pixKeyType: 'email' }, status: 400, fields: ['holderName', 'holderDocument', 'holderDocumentType'] },
  { name: 'withdrawal: neither bankAccountId nor PIX fields', path: '/withdrawals', body: { amount: 5 }, status: 400, fields: ['bankAccountId'] },
  { name: 'withdrawal: bankAccountId and PIX fields', path: '/withdrawals', body: { ...wd, bankAccountId: 'b1' }, status: 400, fields: ['pixKey', 'pixKeyType', 'holderName', 'holderDocument', 'holderDocumentType'] },
  { name: 'withdrawal: unknown bankAccountId', path: '/withdrawals', body: { amount: 5, bankAccountId: 'nope' }, status: 404, fields: [] },
  { name: 'withdrawal: holder CPF with a letter', path: '/withdrawals', body: { ...wd, holderDocument: '1234567890A' }, status: 400, fields: ['holderDocument'] },
  { name: 'withdrawal: amount below 1', path: '/withdrawals', body: { ...wd, amount: 0.5 }, status: 400, fields: ['amount'] },
  { name: 'withdrawal: more than the balance', path: '/withdrawals', body: { ...wd, amount: 5000 }, status: 400, fields: [] },
  { name: 'refund: reason of 256', path: '/transactions/x/refund', body: { reason: long(256) }, status: 400, fields: ['reason'] },
  { name: 'refund: unknown transaction', path: '/transactions/3c90c3cc-0d44-4b50-8888-8dd25736052a/refund', body: {}, status: 404, fields: [] },
  { name: 'customers: limit 101', method: 'GET', path: '/customers?limit=101', body: undefined, status: 400, fields: ['limit'] },
  { name: 'projects: page 0', method: 'GET', path: '/projects?page=0', body: undefined, status: 400, fields: ['page'] },
  { name: 'charges: limit 0', method: 'GET', path: '/charges?limit=0', body: undefined, status: 400, fields: ['limit'] },
  { name: 'charges: status unknown', method: 'GET', path: '/charges?status=open', body: undefined, status: 400, fields: ['status'] },
  { name: 'a body that is not JSON', path: '/pix', body: '{"amount": 10,', status: 400, fields: [] },
];

const stateOf = (h: Harness) => JSON.stringify({ accounts: h.sb.deps.store.raw.accounts, jobs: h.sb.deps.store.raw.jobs });

test.each(ROWS)('$name: $status naming [$fields], nothing changes', async (row) => {
  const h = await startHarness();
  const body = typeof row.body === 'function' ? await row.body(h) : row.body;
  const before = stateOf(h);
  const res =
    typeof body === 'string'
      ? await h.api('POST', `/v1${row.path}`, { raw: body, contentType: 'application/json', headers: { 'x-api-key': DEFAULT.apiKey } })
      : await v1call(h, row.method ?? 'POST', row.path, body);
  expect(res.status, res.text).toBe(row.status);
  expect(res.body, 'the service envelope').toMatchObject({ statusCode: row.status, error: expect.any(String), message: expect.any(String), timestamp: expect.any(String) });
  if (row.fields.length) expect(res.body.details.fields.map((f: { field: string }) => f.field).sort(), res.text).toEqual([...row.fields].sort());
  expect(stateOf(h), 'a refused request changes nothing').toBe(before);
});
