// Every v1 route answers the shapes of the service's SDKs (sandbox.md 12): the Node SDK's interfaces and the PHP
// SDK's fixtures, kept as data in ./sdk-shapes.ts. Each row makes the answer through the HTTP surface, sending what
// the SDKs send, and checks its fields: every required one present, none outside the SDK's (or the PHP fixture's).
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { newCustomer, newLink, v1call, v1ok } from '../helpers/v1-calls';
import { NODE_SDK, PHP_FIXTURE_KEYS, PHP_REQUESTS, type Shape } from './sdk-shapes';

const keysOf = (o: object) => Object.keys(o).sort();

function expectShape(body: Record<string, unknown>, shape: Shape, label: string) {
  const allowed = new Set([...shape.required, ...shape.optional]);
  expect(shape.required.filter((k) => !(k in body)), `${label}: required fields missing from ${JSON.stringify(body)}`).toEqual([]);
  expect(Object.keys(body).filter((k) => !allowed.has(k)), `${label}: fields the SDK does not have`).toEqual([]);
}

interface Row {
  route: string;
  shape: Shape;
  /** The PHP fixture whose keys the answer has exactly, when every optional field is given. */
  fixture?: keyof typeof PHP_FIXTURE_KEYS;
  make: (h: Harness) => Promise<any>;
  /** Checks of nested objects. */
  inner?: (body: any) => void;
}

const ROWS: Row[] = [
  { route: 'POST /v1/customers', shape: NODE_SDK.Customer, fixture: 'customers/create/201', make: (h) => v1ok(h, '/customers', PHP_REQUESTS.customer) },
  {
    route: 'GET /v1/customers',
    shape: NODE_SDK.PaginatedResponse,
    fixture: 'list/200',
    make: async (h) => (await v1ok(h, '/customers', PHP_REQUESTS.customer)) && (await v1call(h, 'GET', '/customers?page=1&limit=20&search=jo%C3%A3o')).body,
    inner: (b) => b.items.forEach((c: any) => expectShape(c, NODE_SDK.Customer, 'customer item')),
  },
  { route: 'POST /v1/projects', shape: NODE_SDK.Project, fixture: 'projects/create/201', make: (h) => v1ok(h, '/projects', PHP_REQUESTS.project) },
  {
    route: 'GET /v1/projects',
    shape: NODE_SDK.PaginatedResponse,
    fixture: 'list/200',
    make: async (h) => (await v1call(h, 'GET', '/projects?sortBy=name&sortOrder=asc')).body,
    inner: (b) => b.items.forEach((p: any) => expectShape(p, NODE_SDK.Project, 'project item')),
  },
  // The PHP fixture of a dynamic PIX charge also carries qrCodeBase64 (a data URI of a PNG).
  {
    route: 'POST /v1/pix',
    shape: { required: NODE_SDK.PixCharge.required, optional: [...NODE_SDK.PixCharge.optional, 'qrCodeBase64'] },
    fixture: 'pix/dynamic/create/201',
    make: (h) => v1ok(h, '/pix', PHP_REQUESTS.pixWithCustomer),
  },
  { route: 'POST /v1/pix/qrcode-static', shape: NODE_SDK.StaticQrCode, make: (h) => v1ok(h, '/pix/qrcode-static', PHP_REQUESTS.staticPix) },
  {
    route: 'POST /v1/charges',
    shape: NODE_SDK.Charge,
    fixture: 'charges/create/201',
    make: async (h) => newLink(h, { ...PHP_REQUESTS.charge, customerId: (await newCustomer(h)).id, description: 'Acesso anual', expiresAt: '2026-12-31T23:59:59Z', maxInstallments: 6 }),
  },
  {
    route: 'GET /v1/charges',
    shape: NODE_SDK.PaginatedResponse,
    fixture: 'list/200',
    make: async (h) => (await newLink(h)) && (await v1call(h, 'GET', `/charges?status=active&projectId=${DEFAULT.projectId}`)).body,
    inner: (b) => b.items.forEach((l: any) => expectShape(l, NODE_SDK.Charge, 'charge item')),
  },
  { route: 'GET /v1/charges/{id}', shape: NODE_SDK.Charge, make: async (h) => (await v1call(h, 'GET', `/charges/${(await newLink(h)).id}`)).body },
  {
    route: 'GET /v1/transactions/{id}',
    shape: NODE_SDK.Transaction,
    fixture: 'transactions/get/200',
    // Every field at once: a paid charge has paidAt, a pending one pixCopyPaste and expiresAt; both show on the fixture.
    make: async (h) => {
      const pix = await v1ok(h, '/pix', { ...PHP_REQUESTS.pixWithCustomer, projectId: DEFAULT.projectId, metadata: { orderId: '12345' } });
      const pending = (await v1call(h, 'GET', `/transactions/${pix.id}`)).body;
      await h.control('POST', `/transactions/${pix.id}/pay`);
      const paid = (await v1call(h, 'GET', `/transactions/${pix.id}`)).body;
      return { ...pending, ...paid };
    },
  },
  {
    route: 'POST /v1/transactions/{id}/refund',
    shape: NODE_SDK.RequestRefund,
    make: async (h) => {
      const pix = await v1ok(h, '/pix', PHP_REQUESTS.pixWithCustomer);
      await h.control('POST', `/transactions/${pix.id}/pay`);
      return v1ok(h, `/transactions/${pix.id}/refund`, { reason: 'devolução' });
    },
  },
  {
    route: 'GET /v1/account',
    shape: NODE_SDK.AccountInfo,
    make: async (h) => (await v1call(h, 'GET', '/account')).body,
    inner: (b) => {
      expectShape(b.account, NODE_SDK.AccountDetail, 'account');
      expectShape(b.balance, NODE_SDK.BalanceDetail, 'balance');
      expect(b.company).toBeNull();
    },
  },
  {
    route: 'GET /v1/balance-blocks',
    shape: NODE_SDK.BalanceBlocksList,
    make: async (h) => {
      const pix = await v1ok(h, '/pix', PHP_REQUESTS.pixWithCustomer);
      await h.control('POST', `/transactions/${pix.id}/pay`);
      await h.control('POST', `/transactions/${pix.id}/block`, { reason: 'MED' });
      return (await v1call(h, 'GET', '/balance-blocks?status=awaiting_response')).body;
    },
    inner: (b) => {
      expect(b.items).toHaveLength(1);
      b.items.forEach((x: any) => expectShape(x, NODE_SDK.BalanceBlock, 'block'));
    },
  },
  { route: 'POST /v1/withdrawals (PIX fields)', shape: NODE_SDK.Withdrawal, fixture: 'withdrawals/create/201', make: (h) => v1ok(h, '/withdrawals', PHP_REQUESTS.withdrawalPix) },
  {
    route: 'POST /v1/withdrawals (bankAccountId)',
    shape: NODE_SDK.Withdrawal,
    fixture: 'withdrawals/create/201',
    make: async (h) => {
      await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { bankAccounts: [{ id: 'bank-0001', bank: '341', agency: '0001', account: '12345-6', holderName: 'Loja Exemplo', holderDocument: '11222333000181' }] });
      return v1ok(h, '/withdrawals', { ...PHP_REQUESTS.withdrawalBank, bankAccountId: 'bank-0001' });
    },
  },
  { route: 'GET /v1/metrics', shape: { required: PHP_FIXTURE_KEYS['metrics/list/200'], optional: [] }, fixture: 'metrics/list/200', make: async (h) => (await v1call(h, 'GET', '/metrics')).body },
];

test.each(ROWS)('$route answers the SDK shape', async (row) => {
  const h = await startHarness();
  const body = await row.make(h);
  expectShape(body, row.shape, row.route);
  if (row.fixture) expect(keysOf(body), `${row.route}: the keys of the PHP fixture ${row.fixture}`).toEqual([...PHP_FIXTURE_KEYS[row.fixture]].sort());
  row.inner?.(body);
});

test('an error answer is the SDKs\' ErrorResponse, naming the field', async () => {
  const h = await startHarness();
  const res = await v1call(h, 'POST', '/pix', { amount: 0.5, description: 'x' });
  expect(res.status).toBe(400);
  expectShape(res.body, NODE_SDK.ErrorResponse, 'error');
  expect(res.body.details.fields).toEqual([{ field: 'amount', message: 'must be at least 1' }]);
});

test('qrCodeBase64 is a PNG of the BR Code; document is masked, with documentType', async () => {
  const h = await startHarness();
  const pix = await v1ok(h, '/pix', PHP_REQUESTS.pixWithCustomer);
  expect(pix.qrCodeBase64).toMatch(/^data:image\/png;base64,/);
  expect(Buffer.from(pix.qrCodeBase64.split(',')[1], 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const customer = await v1ok(h, '/customers', { name: 'Padaria', document: '11222333000181' });
  expect(customer).toMatchObject({ documentType: 'cnpj', document: '112*********81' });
});
