// Recipe: node:test (node --test). One sandbox and one tenant for this file, started in process on a free port.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReceiver, startSandbox } from 'pix-sandbox/testing';

let sandbox;
let receiver;

before(async () => {
  receiver = await startReceiver(); // your webhook endpoint, on 127.0.0.1 and a free port
  sandbox = await startSandbox({ account: { name: 'Minha Loja', webhooks: [{ url: receiver.url, secret: receiver.secret }] } });
});

after(async () => {
  await sandbox?.stop();
  await receiver?.close();
});

test('a paid charge sends a signed payment_completed', async () => {
  // Your app creates a charge through the public API, with the tenant's credentials.
  const token = await sandbox.token(); // POST /v2/auth with client_id / client_secret
  const res = await fetch(`${sandbox.v2Url}/pix`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 25.9, description: 'Pedido 42' }),
  });
  assert.equal(res.status, 201);
  const charge = await res.json();

  // The customer pays: a control call does what the bank would.
  await sandbox.control.transactions.pay(charge.id, { payerName: 'Ana Souza' });

  // Your endpoint gets the webhook, signed over the exact bytes.
  const hook = await receiver.next('payment_completed', { timeoutMs: 5000 });
  assert.equal(hook.signatureValid, true);
  assert.equal(hook.body.data.transactionId, charge.id);
});
