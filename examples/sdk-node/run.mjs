// The service's official Node SDK (@pague-dev/sdk-node), unmodified, against a sandbox: its base URL
// https://api.pague.dev/v1 is hard-coded, so this sends that host's requests to the sandbox by wrapping fetch.
// Run it with a sandbox started by `npm start`:  SANDBOX_URL=http://127.0.0.1:4747 node examples/sdk-node/run.mjs
// (PAGUE_SDK names another module path for the SDK, such as a build of its source.)
const SANDBOX_URL = process.env.SANDBOX_URL ?? 'http://127.0.0.1:4747';
const SERVICE = 'https://api.pague.dev';

const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return realFetch(url.startsWith(`${SERVICE}/`) ? SANDBOX_URL + url.slice(SERVICE.length) : input, init);
};

const { Pdev } = await import(process.env.PAGUE_SDK ?? '@pague-dev/sdk-node');
const pdev = new Pdev(process.env.PDEV_API_KEY ?? 'mp_test_sandbox_api_key_0001');

const results = {};
const call = async (name, promise) => {
  const { data, error } = await promise;
  results[name] = error ? { error } : { data };
  if (error) throw new Error(`${name}: ${error.statusCode} ${error.message}`);
  return data;
};

const customer = await call('customers.create', pdev.customers.create({ name: 'João da Silva', document: process.env.CUSTOMER_DOCUMENT ?? '12345678909', email: 'joao@example.com' }));
await call('customers.list', pdev.customers.list({ search: 'joão' }));
const project = await call('projects.create', pdev.projects.create({ name: `Loja ${Date.now()}`, color: '#3B82F6' }));
await call('projects.list', pdev.projects.list({ sortBy: 'name', sortOrder: 'asc' }));
const pix = await call('pix.create', pdev.pix.create({ amount: 150.75, description: 'Pedido 12345', customerId: customer.id, projectId: project.id }));
await call('transactions.get', pdev.transactions.get(pix.id));
const link = await call('charges.create', pdev.charges.create({ projectId: project.id, name: 'Produto Premium', amount: 99.9, paymentMethods: ['pix', 'credit_card'] }));
await call('charges.list', pdev.charges.list({ status: 'active', projectId: project.id }));
await call('charges.get', pdev.charges.get(link.id));

console.log(JSON.stringify(results));
