// Type-checked in a consumer project (test/package/consumer.test.ts) against the packed package's .d.ts files:
// every public entry, and types that are precise (a wrong call is an error, so nothing is `any`).
import { createSandbox, VERSION, verifyWebhookSignature, type Sandbox, type SandboxOptions } from 'pix-sandbox';
import {
  connect,
  SandboxApiError,
  startReceiver,
  startSandbox,
  type Account,
  type Delivery,
  type ReceivedWebhook,
  type SandboxClient,
  type TestSandbox,
  type Transaction,
} from 'pix-sandbox/testing';

const options: SandboxOptions = { seed: 1, freezeClock: true, webhookTimeoutMs: 200, log: () => {} };
const sandbox: Sandbox = await createSandbox(options);
const url: string = await sandbox.listen({ port: 0 });
const version: string = VERSION;
const valid: boolean = verifyWebhookSignature('{}', 'sha256=00', 'whsec_x');

const receiver = await startReceiver({ secret: 'whsec_consumer_1' });
const sb: TestSandbox = await startSandbox({ account: { balance: 10.5, webhooks: [{ url: receiver.url, secret: receiver.secret }] } });
const accountId: string = sb.accountId;
const clientId: string = sb.credentials.clientId;
const clientSecret: string = sb.credentials.clientSecret;
const token: string = await sb.token();
const account: Account = await sb.control.accounts.get(accountId);
const available: number = account.balances[0]!.available.amount;
const tx: Transaction = await sb.control.transactions.pay('some-id', { payerName: 'Ana' });
const status: string = tx.status;
const paidAt: string | undefined = tx.paidAt; // the optional fields are typed (absent, never null)
const e2eId: string | undefined = tx.e2eId;
void [paidAt, e2eId];
const deliveries: Delivery[] = (await sb.control.deliveries.list(accountId, { state: 'succeeded' })).items;
const responseBody: string | undefined = deliveries[0]?.attempts[0]?.responseBody; // typed too
void responseBody;
const hook: ReceivedWebhook = await receiver.next('payment_completed', { timeoutMs: 1000 });
const raw: string = hook.rawBody;
const signed: boolean = hook.signatureValid;
const other: SandboxClient = connect(url, { adminToken: 'x' });
await other.settle({ timeoutMs: 1000 });
await sb.advance(60);
await sb.freeze(new Date());
try {
  await other.health();
} catch (err) {
  if (err instanceof SandboxApiError) {
    const code: string = err.code;
    const statusCode: number = err.status;
    void [code, statusCode];
  }
}

// @ts-expect-error amount is BRL as a number
await sb.control.adjustments.create(accountId, { amount: '10' });
// @ts-expect-error an event kind that does not exist
await receiver.next('payment_done');
// @ts-expect-error environment is 'sandbox' or 'production'
await startSandbox({ account: { environment: 'staging' } });
// @ts-expect-error permissions are a closed list
await sb.control.credentials.create(accountId, { permissions: ['PIX:EVERYTHING'] });
// @ts-expect-error the clock advances by a number of seconds
await sb.advance('60');

await sb.stop();
await receiver.close();
await sandbox.close();
void [version, valid, clientId, clientSecret, token, available, status, deliveries, raw, signed];
