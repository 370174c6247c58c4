// The request log masks what a secret is, not how it was spelt (sandbox.md 11, 14), on a real port: a body's names
// are judged as JSON.parse reads them (`"client_\u0073ecret"` is client_secret), in any case and at any depth, in
// what was sent and what was answered; answers that hand out tokens (the workshop's console links, a tenant's
// secrets and keys, a certificate's private key, access tokens) are logged without them. Each test looks for the
// secret's own text anywhere in the entry as the log gives it out.
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { basic } from '../helpers/api-pix';
import { joinAs } from '../helpers/workshop';

const MASK = '[masked]';
let h: Harness;
afterEach(async () => {
  await h?.sb.close();
});

/** The entry of an answer, as GET /_sandbox/requests/{traceId} gives it out. */
async function entryOf(res: ApiResponse) {
  const got = await h.control('GET', `/requests/${res.headers.get('x-trace-id')}`);
  expect(got.status, got.text).toBe(200);
  return got.body;
}
/** The entry's text holds none of `secrets`. */
function expectNone(entry: unknown, secrets: string[]) {
  const text = JSON.stringify(entry);
  for (const secret of secrets) expect(text, `the entry holds ${secret}`).not.toContain(secret);
}

/** A tenant with a credential whose secret has no word a quick look would take for one. */
async function tenant() {
  const res = await h.control('POST', '/accounts', { name: 'Masks', credentials: [{ clientId: 'app-masks', clientSecret: 'hunter2hunter2' }] });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe('a name is judged as JSON reads it', () => {
  test('POST /v2/auth {"client_id":…,"client_\\u0073ecret":…}: the secret and the token it answers are masked', async () => {
    h = await startHarness({}, 'port');
    await tenant();
    const res = await h.api('POST', '/v2/auth', { raw: '{"client_id":"app-masks","client_\\u0073ecret":"hunter2hunter2"}', contentType: 'application/json' });
    expect(res.status, res.text).toBe(200);
    const entry = await entryOf(res);
    expect(entry.request.body).toEqual({ client_id: 'app-masks', client_secret: MASK });
    expect(entry.answer.body.access_token).toBe(MASK);
    expectNone(entry, ['hunter2hunter2', res.body.access_token]);
  });

  test('a webhook "\\u0073ecret" given in a tenant spec is masked where it was sent and where it is answered', async () => {
    h = await startHarness({}, 'port');
    const res = await h.api('POST', '/_sandbox/accounts', { raw: '{"name":"W","webhooks":[{"url":"https://example.com/h","\\u0073ecret":"abcdefgh12345678"}]}', contentType: 'application/json' });
    expect(res.status, res.text).toBe(201);
    const entry = await entryOf(res);
    expect(entry.request.body.webhooks[0].secret).toBe(MASK);
    expect(entry.answer.body.webhooks[0].secret).toBe(MASK);
    expectNone(entry, ['abcdefgh12345678']);
  });

  test.each([
    ['upper case', '{"CLIENT_SECRET":"hunter2hunter2"}'],
    ['camel case, deep in a list', '{"a":{"b":[{"c":{"ClientSecret":"hunter2hunter2"}}]}}'],
    ['a token escaped whole', '{"\\u0061\\u0063\\u0063\\u0065\\u0073\\u0073_\\u0074\\u006f\\u006b\\u0065\\u006e":"hunter2hunter2"}'],
    ['a password', '{"user":{"Password":"hunter2hunter2"}}'],
    ['a private key escaped in its value', '{"pem":"-----BEGIN \\u0050RIVATE KEY-----\\nhunter2hunter2\\n-----END PRIVATE KEY-----"}'],
  ])('%s: masked in a body sent to a face', async (_label, raw) => {
    h = await startHarness({}, 'port');
    const res = await h.api('POST', '/v2/pix', { raw, contentType: 'application/json', token: await h.token() });
    expect(res.status, res.text).toBe(400);
    const entry = await entryOf(res);
    expect(JSON.stringify(entry.request.body)).toContain(MASK);
    expectNone(entry, ['hunter2hunter2']);
  });

  test('a query parameter is judged by its decoded name: ?%74oken=… and ?attendee=… are masked', async () => {
    h = await startHarness({}, 'port');
    const res = await h.api('GET', `/_sandbox/accounts/${DEFAULT.accountId}/transactions?%74oken=hunter2hunter2&attendee=hunter3hunter3&limit=1`);
    expect(res.status, res.text).toBe(200);
    const entry = await entryOf(res);
    expect(entry.query).toBe(`?%74oken=${MASK}&attendee=${MASK}&limit=1`);
    expectNone(entry, ['hunter2hunter2', 'hunter3hunter3']);
  });
});

describe('answers that hand out secrets are logged without them', () => {
  test('GET, POST and PATCH /_sandbox/workshop: no attendee console or view token anywhere in their entries', async () => {
    h = await startHarness({ workshop: true }, 'port');
    const opened = await h.control('POST', '/workshop');
    expect(opened.status, opened.text).toBe(200);
    const ana = await joinAs(h, 'Ana');
    const bia = await joinAs(h, 'Bia');
    const tokens = [ana.consoleToken, ana.viewToken, bia.consoleToken, bia.viewToken];
    for (const res of [await h.control('GET', '/workshop'), await h.control('PATCH', '/workshop', { open: false }), await h.control('POST', '/workshop')]) {
      expect(res.status, res.text).toBe(200);
      expect(res.text, 'the answer itself hands the tokens out').toContain(ana.consoleToken);
      const entry = await entryOf(res);
      expect(entry.answer.body.attendees.map((a: { consoleUrl: string }) => a.consoleUrl.split('?')[1])).toEqual([`attendee=${MASK}`, `attendee=${MASK}`]);
      expectNone(entry, tokens);
    }
  });

  test("POST /_sandbox/accounts: the credentials' secrets and API keys it was given and answers, any key's spelling", async () => {
    h = await startHarness({}, 'port');
    const raw = '{"name":"K","credentials":[{"clientId":"app-keys-1","clientS\\u0065cret":"hunter2hunter2"}],"apiKeys":[{"k\\u0065y":"mp_test_my_own_key_0001"}]}';
    const res = await h.api('POST', '/_sandbox/accounts', { raw, contentType: 'application/json' });
    expect(res.status, res.text).toBe(201);
    const entry = await entryOf(res);
    expect(entry.request.body.apiKeys[0].key).toBe(MASK);
    expect(entry.answer.body.apiKeys[0].key).toBe(MASK);
    expectNone(entry, ['hunter2hunter2', 'my_own_key_0001', ...res.body.webhooks.map((w: { secret: string }) => w.secret)]);
  });

  test("a client certificate's private key, and the API Pix token's access_token", async () => {
    h = await startHarness({}, 'port');
    const cert = await h.control('POST', `/accounts/${DEFAULT.accountId}/client-certificates`, {});
    expect(cert.status, cert.text).toBe(201);
    const certEntry = await entryOf(cert);
    expect(certEntry.answer.body.key).toBe(MASK);
    expectNone(certEntry, ['PRIVATE KEY', cert.body.key.split('\n')[1]]);
    const token = await h.api('POST', '/api-pix/oauth/token', { raw: 'grant_type=client_credentials', contentType: 'application/x-www-form-urlencoded', headers: { authorization: basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret) } });
    expect(token.status, token.text).toBe(200);
    const tokenEntry = await entryOf(token);
    expect(tokenEntry.answer.body.access_token).toBe(MASK);
    expectNone(tokenEntry, [token.body.access_token, DEFAULT.full.clientSecret]);
  });

  test('a Pix key and an ordinary body stay as they were sent', async () => {
    h = await startHarness({}, 'port');
    const body = { amount: 10, pixKey: 'ana@example.com', pixKeyType: 'email', holderName: 'Ana', holderDocument: '52998224725', holderDocumentType: 'cpf' };
    const res = await h.api('POST', '/v2/withdrawals', { body, token: await h.token() });
    expect(res.status, res.text).toBe(201);
    const entry = await entryOf(res);
    expect(entry.request.body).toEqual(body);
    expect(JSON.stringify(entry.answer.body)).not.toContain(MASK);
  });
});
