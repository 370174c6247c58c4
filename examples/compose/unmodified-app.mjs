// An app that calls the service at its production URLs, as the official SDKs do (compose.yaml's unmodified-app; no
// dependencies). Nothing here names the sandbox: compose gives the sandbox the service's names as network aliases,
// and NODE_EXTRA_CA_CERTS trusts its CA. It creates a charge on the v1 API and takes a token on the v2 API.
const { PDEV_API_KEY } = process.env;

const charge = await untilAnswered(() =>
  call('https://api.pague.dev/v1/pix', { 'x-api-key': PDEV_API_KEY }, { amount: 49.9, description: 'Pedido 1' }),
);
console.log(`charge ${charge.id} ${charge.status} at https://api.pague.dev/v1`);
const token = await call('https://api-gateway.pague.dev/v2/auth', {}, { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' });
console.log(`token ${token.token_type} from https://api-gateway.pague.dev/v2`);

/** Retries for a minute while nothing answers yet (fetch rejects with TypeError): the sandbox may start after the app. */
async function untilAnswered(request) {
  for (let waited = 0; ; waited++) {
    try {
      return await request();
    } catch (err) {
      if (!(err instanceof TypeError) || waited >= 60) throw err;
      if (waited === 0) console.log(`waiting for https://api.pague.dev (${err.cause?.code ?? err.message})`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function call(url, headers, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}
