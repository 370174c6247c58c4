// The app beside the sandbox in compose.yaml (no dependencies: node:22-slim runs it as is). It creates a charge
// through the v2 API once the sandbox answers (it waits for it), and receives the sandbox's webhooks on :3000/webhooks, checking
// each signature over the raw bytes. Pay the charge from the host with the command it prints.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const { PIX_BASE_URL, PIX_CLIENT_ID, PIX_CLIENT_SECRET, WEBHOOK_SECRET, PORT = '3000' } = process.env;

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const given = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
    const expected = Buffer.from(`sha256=${createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('hex')}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return res.writeHead(401).end();
    const event = JSON.parse(raw.toString('utf8'));
    console.log(`webhook ${event.event} ${event.data.transactionId} ${event.data.status} (signature valid)`);
    res.writeHead(200).end();
  });
}).listen(Number(PORT), '0.0.0.0', async () => {
  const auth = await untilAnswered(() => post('/auth', { client_id: PIX_CLIENT_ID, client_secret: PIX_CLIENT_SECRET }));
  const charge = await post('/pix', { amount: 49.9, description: 'Pedido 1' }, auth.access_token);
  console.log(`charge ${charge.id} ${charge.status}; pay it: curl -X POST http://127.0.0.1:4747/_sandbox/transactions/${charge.id}/pay`);
});

/**
 * Retries while the sandbox cannot be reached yet, for a minute: compose's `condition: service_healthy` holds the app
 * until the sandbox is healthy, but podman-compose ignores it and starts both at once.
 */
async function untilAnswered(call) {
  for (let waited = 0; ; waited++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof TypeError) || waited >= 60) throw err; // fetch rejects with TypeError when nothing answers
      if (waited === 0) console.log(`waiting for the sandbox at ${PIX_BASE_URL}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function post(path, body, token) {
  const res = await fetch(`${PIX_BASE_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}
