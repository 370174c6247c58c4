// The request log (sandbox.md 14): what is recorded, masked and capped, how it is read (filters, paging, bad input),
// and that it is bounded, per tenant and cleared by reset.
import { connect } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { apiPix, basic, cobBody, pixToken, TXID } from '../helpers/api-pix';
import { createRequestLog, type KeptEntry } from '../../src/services/request-log';
import { startSandbox, type TestSandbox } from '../../src/testing';

let h: Harness;
let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await h?.sb.close();
  await sandbox?.stop();
  sandbox = undefined;
});

const MASK = '[masked]';
const log = async (query = '', account: string = DEFAULT.accountId) => {
  const res = await h.control('GET', `/accounts/${account}/requests${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { items: any[]; nextCursor: string | null; limit: number };
};
const newest = async (query = '') => (await log(query)).items[0];
const charge = (over: Record<string, unknown> = {}, headers: Record<string, string> = {}) => h.v2('POST', '/pix', { body: { amount: 10, description: 'x', ...over }, headers });

describe('an entry', () => {
  test('records a v2 create: face, method, path, status, times, credential, trace id, both bodies and the id it made', async () => {
    h = await startHarness();
    const res = await charge();
    expect(res.status, res.text).toBe(201);
    const e = await newest('?path=/v2/pix');
    expect(e).toMatchObject({ face: 'v2', method: 'POST', path: '/v2/pix', query: '', status: 201, accountId: DEFAULT.accountId, credentialId: DEFAULT.full.id, idempotencyKey: null, replayed: false, warnings: [] });
    expect(e.at).toBe('2026-03-10T12:00:00.000Z'); // the frozen sandbox clock
    expect(Date.parse(e.wallAt)).toBeGreaterThan(Date.parse('2026-01-01')); // real time is not the frozen clock... unless the test runs then
    expect(e.durationMs).toBeGreaterThanOrEqual(0);
    expect(e.traceId).toBe(res.headers.get('x-trace-id'));
    expect(e.traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.request).toMatchObject({ contentType: 'application/json', body: { amount: 10, description: 'x' } });
    expect(e.answer.body.id).toBe(res.body.id);
    expect(e.ids).toContain(res.body.id);
    const one = await h.control('GET', `/requests/${e.id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(e);
  });

  test('records the v1 API key id and the API Pix credential', async () => {
    h = await startHarness();
    const v1 = await h.api('GET', '/v1/account', { headers: { 'x-api-key': DEFAULT.apiKey } });
    const account = (await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body;
    expect((await newest('?face=v1')).credentialId).toBe(account.apiKeys[0].id);
    expect((await newest('?face=v1')).status).toBe(v1.status);
    const cob = await apiPix(h, 'PUT', `/cob/${TXID}`, { body: cobBody() });
    expect(cob.status, cob.text).toBe(201);
    const e = await newest('?face=api-pix&method=put');
    expect(e).toMatchObject({ method: 'PUT', status: 201, credentialId: DEFAULT.full.id });
    expect(e.ids).toContain(TXID);
  });

  test('flags an idempotent replay and keeps the key', async () => {
    h = await startHarness();
    const first = await charge({}, { 'idempotency-key': 'order-0001' });
    const again = await charge({}, { 'idempotency-key': 'order-0001' });
    expect(again.headers.get('idempotent-replayed'), again.text).toBe('true');
    const [second, one] = (await log('?path=/v2/pix')).items;
    expect(second).toMatchObject({ idempotencyKey: 'order-0001', replayed: true, status: 201 });
    expect(one).toMatchObject({ idempotencyKey: 'order-0001', replayed: false });
    expect(second.ids).toContain(first.body.id);
  });

  test("records the request's warnings", async () => {
    h = await startHarness();
    const res = await charge({ customer: { name: 'Ana', document: '12345678900' } });
    expect(res.status, res.text).toBe(201);
    const e = await newest('?path=/v2/pix');
    expect(e.warnings).toHaveLength(1);
    expect(e.warnings[0]).toBe(res.headers.get('sandbox-warning'));
  });

  test('records a refused request with its error, and a 5xx', async () => {
    const hooks = { failWrite: null as null | { kind: 'request'; n: number } };
    h = await startHarness({ testHooks: hooks });
    expect((await charge({ amount: -1 })).status).toBe(400);
    expect(await newest('?status=400')).toMatchObject({ status: 400, request: { body: { amount: -1 } } });
    hooks.failWrite = { kind: 'request', n: 1 };
    const failed = await charge();
    hooks.failWrite = null;
    expect(failed.status, failed.text).toBe(500);
    const e = await newest('?status=5xx');
    expect(e).toMatchObject({ status: 500, path: '/v2/pix', ids: [] });
  });

  test('records a request the doors refuse before any route, with the answer the app gave it', async () => {
    h = await startHarness();
    const res = await h.sb.app.request(`http://evil.example/v2/account`, { headers: { authorization: `Bearer ${await h.token()}` } });
    expect(res.status).toBe(421);
    const e = await newest('?path=/v2/account');
    expect(e).toMatchObject({ status: 421, method: 'GET', face: 'v2', accountId: DEFAULT.accountId, traceId: res.headers.get('x-trace-id') });
    expect(e.answer.body.details.code).toBe('HOST_NOT_ALLOWED');
  });

  test('a request with no credential the sandbox knows goes to the sandbox-wide log', async () => {
    h = await startHarness();
    expect((await h.api('GET', '/v2/account')).status).toBe(401);
    expect((await log('?path=/v2/account')).items).toHaveLength(0);
    const all = await h.control('GET', '/requests?path=/v2/account');
    expect(all.body.items[0]).toMatchObject({ status: 401, accountId: null, credentialId: null });
  });

  test.each([
    ['/v2', 'v2'],
    ['/v2/no-such-route', 'v2'],
    ['/v1', 'v1'],
    ['/v1/no-such-route', 'v1'],
    ['/api-pix/no-such-route', 'api-pix'],
    ['/v2x/account', null],
    ['/v3/pix', null],
    ['/v', null],
    ['/vv/', null],
  ])('a request to %s is logged on face %s', async (path, face) => {
    h = await startHarness();
    await h.api('GET', path);
    const items = (await h.control('GET', '/requests?limit=1000')).body.items as { path: string; face: string }[];
    const found = items.filter((e) => e.path === path);
    expect(found.map((e) => e.face)).toEqual(face === null ? [] : [face]);
  });

  test('control API requests are logged apart, and under the account their path names', async () => {
    h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
    const mine = await newest('?face=control');
    expect(mine).toMatchObject({ face: 'control', method: 'PATCH', path: `/_sandbox/accounts/${DEFAULT.accountId}`, status: 200 });
    const wide = await h.control('GET', '/requests?face=control&method=PATCH');
    expect(wide.body.items[0].id).toBe(mine.id);
    // Reading the log does not log itself.
    expect((await h.control('GET', '/requests?path=/_sandbox/requests')).body.items).toHaveLength(0);
  });
});

describe('secrets never enter the log', () => {
  test('Authorization, X-API-Key and X-Sandbox-Token headers are masked', async () => {
    h = await startHarness();
    await charge();
    const token = (await h.api('POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } })).body.access_token;
    await h.api('GET', '/v2/account', { token });
    expect((await newest('?path=/v2/account')).headers.authorization).toBe(MASK);
    await h.api('GET', '/v1/account', { headers: { 'x-api-key': DEFAULT.apiKey } });
    expect((await newest('?face=v1')).headers['x-api-key']).toBe(MASK);
    // A token nobody holds is a 401, logged under no account: in the sandbox-wide log.
    expect((await h.api('GET', `/_sandbox/accounts/${DEFAULT.accountId}`, { headers: { 'x-sandbox-token': 'not-needed-here' } })).status).toBe(401);
    expect((await h.control('GET', '/requests?face=control&status=401')).body.items[0].headers['x-sandbox-token']).toBe(MASK);
    const text = JSON.stringify((await log('?limit=1000')).items);
    expect(text).not.toContain(token);
    expect(text).not.toContain(DEFAULT.apiKey);
  });

  test('each entry keeps the headers its own request sent, when the requests before it sent the same, fewer, more or others', async () => {
    h = await startHarness();
    const sent: Record<string, string>[] = [
      { accept: 'application/json', 'user-agent': 'app/1' },
      { accept: 'application/json', 'user-agent': 'app/1' },
      { accept: 'application/json' },
      { accept: 'application/json', 'user-agent': 'app/2' },
      { accept: 'application/json', 'user-agent': 'app/2', 'idempotency-key': 'k-0' },
      { 'user-agent': 'app/2', 'idempotency-key': 'k-0' },
      {},
      { accept: 'text/plain', 'user-agent': 'app/1', 'idempotency-key': 'k-1' },
      { accept: 'text/plain', 'user-agent': 'app/1', 'idempotency-key': 'k-2' },
    ];
    const token = await h.token(); // one token: no request of its own between them
    for (const headers of sent) expect((await h.api('GET', '/v2/account', { token, headers })).status).toBe(200);
    const kept = (await log(`?path=/v2/account&limit=${sent.length}`)).items.reverse().map((e) => e.headers);
    expect(kept).toEqual(sent.map((headers) => ({ authorization: MASK, ...headers })));
  });

  test('client_secret of POST /v2/auth and the access_token it answers are masked; the entry is the credential\'s', async () => {
    h = await startHarness();
    const res = await h.api('POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
    const e = await newest('?path=/v2/auth');
    expect(e.credentialId).toBe(DEFAULT.full.id);
    expect(e.request.body).toEqual({ client_id: DEFAULT.full.clientId, client_secret: MASK });
    expect(e.answer.body.access_token).toBe(MASK);
    expect(JSON.stringify(e)).not.toContain(res.body.access_token);
    expect(JSON.stringify(e)).not.toContain(DEFAULT.full.clientSecret);
  });

  test('the API Pix token request (HTTP Basic, form body) keeps neither the secret nor the token', async () => {
    h = await startHarness();
    const token = await pixToken(h);
    const e = await newest('?path=/api-pix/oauth');
    expect(e).toMatchObject({ status: 200, credentialId: DEFAULT.full.id, headers: { authorization: MASK } });
    expect(e.request).toMatchObject({ contentType: 'application/x-www-form-urlencoded', omitted: 'not JSON' });
    expect(e.request.body).toBeUndefined();
    expect(e.answer.body.access_token).toBe(MASK);
    const text = JSON.stringify(e);
    expect(text).not.toContain(token);
    expect(text).not.toContain(basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret).slice(6));
  });

  test('webhook secrets, credential secrets, API keys and certificate keys in control bodies are masked', async () => {
    h = await startHarness();
    const created = await h.control('POST', '/accounts', {
      name: 'Loja',
      webhooks: [{ url: 'http://127.0.0.1:3000/hooks', secret: 'whsec_my_own_secret' }],
      apiKeys: [{ key: 'mp_test_my_own_key_0001' }],
      credentials: [{ clientId: 'mp_test_mine', clientSecret: 'my-client-secret-1' }],
    });
    expect(created.status, created.text).toBe(201);
    const e = (await log('?face=control', created.body.id)).items[0];
    expect(e.request.body.webhooks[0]).toEqual({ url: 'http://127.0.0.1:3000/hooks', secret: MASK });
    expect(e.request.body.apiKeys[0].key).toBe(MASK);
    expect(e.request.body.credentials[0].clientSecret).toBe(MASK);
    expect(e.answer.body.webhooks[0].secret).toBe(MASK);
    expect(e.answer.body.apiKeys[0].key).toBe(MASK);
    expect(e.answer.body.credentials[0].clientSecret).toBe(MASK);
    expect(e.answer.body.credentials[0].clientId).toBe('mp_test_mine'); // a client id is no secret
    const text = JSON.stringify(e);
    for (const secret of ['whsec_my_own_secret', 'mp_test_my_own_key_0001', 'my-client-secret-1', created.body.webhooks[0].secret]) expect(text).not.toContain(secret);
  });

  test('a private key in any body is masked', async () => {
    h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { name: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----' });
    const e = await newest('?face=control&method=PATCH');
    expect(e.request.body.name).toBe(MASK);
  });

  test('a secret in the query is masked', async () => {
    h = await startHarness();
    await h.api('GET', '/v2/account?token=abc123&x=1');
    const wide = await h.control('GET', '/requests?path=/v2/account');
    expect(wide.body.items[0].query).toBe(`?token=${MASK}&x=1`);
  });
});

describe('bodies', () => {
  test('a body that is not JSON is logged as its size and type', async () => {
    h = await startHarness();
    const res = await h.api('POST', '/v2/pix', { raw: 'amount=10', contentType: 'text/plain', token: await h.token() });
    expect(res.status).toBe(415);
    expect((await newest('?path=/v2/pix')).request).toEqual({ contentType: 'text/plain', size: 9, omitted: 'not JSON' });
  });

  test('broken JSON is logged as its size, never as broken text', async () => {
    h = await startHarness();
    await h.api('POST', '/v2/pix', { raw: '{"amount": 10,', contentType: 'application/json', token: await h.token() });
    expect((await newest('?path=/v2/pix')).request).toEqual({ contentType: 'application/json', size: 14, omitted: 'not valid JSON' });
  });

  test('a body over the cap is logged as its size and type', async () => {
    h = await startHarness();
    const description = 'x'.repeat(70 * 1024);
    await charge({ description });
    const e = await newest('?path=/v2/pix');
    expect(e.request).toMatchObject({ contentType: 'application/json', omitted: 'over the 64 KB cap' });
    expect(e.request.size).toBeGreaterThan(70 * 1024);
    expect(JSON.stringify(e)).not.toContain('x'.repeat(1000));
  });

  test('a GET has no request body', async () => {
    h = await startHarness();
    await h.v2('GET', '/account');
    expect((await newest('?path=/v2/account')).request).toBeNull();
  });
});

describe('reading the log', () => {
  test('filters by status class, exact status, failed, method, path prefix, face and since', async () => {
    h = await startHarness();
    await charge();
    await charge({ amount: -1 });
    await h.v2('GET', '/account');
    await h.advance(60);
    await charge();
    const paths = async (q: string) => (await log(q)).items.map((e) => `${e.method} ${e.path} ${e.status}`);
    expect(await paths('?face=v2&status=4xx')).toEqual(['POST /v2/pix 400']);
    expect(await paths('?face=v2&status=failed')).toEqual(['POST /v2/pix 400']);
    expect(await paths('?path=/v2/pix&status=201')).toEqual(['POST /v2/pix 201', 'POST /v2/pix 201']);
    expect(await paths('?face=v2&method=get&path=/v2/acc')).toEqual(['GET /v2/account 200']);
    expect(await paths('?path=/v2/pix&since=2026-03-10T12:00:30Z')).toEqual(['POST /v2/pix 201']);
    expect((await h.control('GET', '/requests?face=control')).body.items.map((e: { path: string }) => e.path)).toEqual(['/_sandbox/clock/advance']);
  });

  test('pages newest first with a cursor', async () => {
    h = await startHarness();
    for (let i = 1; i <= 5; i++) await charge({ description: `n${i}` });
    const first = await log('?path=/v2/pix&limit=2');
    expect(first.items.map((e) => e.request.body.description)).toEqual(['n5', 'n4']);
    const second = await log(`?path=/v2/pix&limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((e) => e.request.body.description)).toEqual(['n3', 'n2']);
    const third = await log(`?path=/v2/pix&limit=2&cursor=${second.nextCursor}`);
    expect(third.items.map((e) => e.request.body.description)).toEqual(['n1']);
    expect(third.nextCursor).toBeNull();
  });

  test.each([
    ['status', '?status=4x', 'status'],
    ['status', '?status=600', 'status'],
    ['method', '?method=FETCH', 'method'],
    ['path', '?path=v2/pix', 'path'],
    ['face', '?face=v3', 'face'],
    ['since', '?since=yesterday', 'since'],
    ['a negative limit', '?limit=-1', 'limit'],
    ['a huge limit', '?limit=100000', 'limit'],
    ['a zero limit', '?limit=0', 'limit'],
    ['cursor', '?cursor=abc', 'cursor'],
  ])('a bad %s (%s) is a 400 naming the parameter', async (_what, query, field) => {
    h = await startHarness();
    const res = await h.control('GET', `/accounts/${DEFAULT.accountId}/requests${query}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field), res.text).toContain(field);
  });

  test('an unknown account is a 404, an unknown entry too', async () => {
    h = await startHarness();
    const res = await h.control('GET', '/accounts/nobody/requests');
    expect(res.status, res.text).toBe(404);
    expect((await h.control('GET', '/requests/req_999999')).status).toBe(404);
  });
});

describe('bounds and lifetime', () => {
  test('keeps the last N per account (--request-log N); older entries are gone, by id too', async () => {
    h = await startHarness({ requestLog: 3 });
    for (let i = 1; i <= 5; i++) await h.api('GET', '/v1/account', { headers: { 'x-api-key': DEFAULT.apiKey } });
    const { items } = await log('?limit=1000');
    expect(items).toHaveLength(3);
    const oldest = Number(items[2].id.slice(4));
    expect((await h.control('GET', `/requests/req_${oldest - 1}`)).status).toBe(404);
    expect(h.sb.deps.requestLog.held()).toBeLessThanOrEqual(3 + 3); // the account's ring and the sandbox-wide one
  });

  test('answers are kept as sent while the ring turns: texts of other scripts, their sizes in bytes, a polled one shared', async () => {
    h = await startHarness({ requestLog: 8 });
    const sent: { id: string; text: string }[] = [];
    // Long and short answers, so that the ring's bytes fill more than one chunk of its arena (16 KB, then 32 KB...).
    for (let i = 0; i < 40; i++) {
      const res = await charge({ description: `Café nº ${i} — São João ${'ç'.repeat((i * 7) % 200)}` });
      expect(res.status, res.text).toBe(201);
      sent.push({ id: res.body.id, text: res.text });
    }
    const polled = await h.v2('GET', `/transactions/${sent[39]!.id}`);
    await h.v2('GET', `/transactions/${sent[39]!.id}`);
    // The ring also holds the token requests the harness makes: what it keeps of each path is looked at apart.
    const reads = (await log('?path=/v2/transactions/')).items;
    expect(reads).toHaveLength(2);
    for (const e of reads) expect(e.answer).toEqual({ contentType: 'application/json', size: Buffer.byteLength(polled.text), body: JSON.parse(polled.text) });
    const creates = (await log('?path=/v2/pix')).items;
    expect(creates.length).toBeGreaterThanOrEqual(2);
    for (const [k, e] of creates.entries()) {
      const { text } = sent[39 - k]!;
      expect(e.answer).toEqual({ contentType: 'application/json', size: Buffer.byteLength(text), body: JSON.parse(text) });
      expect(e.request.body.description).toMatch(/^Café nº \d+ — São João ç*$/);
    }
  });

  test("a turning ring writes its answers into chunks it freed, never over an answer it still holds", () => {
    const allocated = vi.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      const ring = createRequestLog(30);
      const texts: string[] = [];
      // Answers of 1 to 40 KB (a third of them multi-byte), so that chunks fill at every size up to 256 KB.
      for (let i = 0; i < 300; i++) {
        const text = JSON.stringify({ i, pad: (i % 3 ? 'x' : 'ção—').repeat(200 + ((i * 997) % 10_000)) });
        texts.push(text);
        const seq = ring.nextSeq();
        ring.record({ seq, head: { face: 'v2', method: 'POST', path: '/v2/pix', query: '', accountId: null, credentialId: null, headers: [], warnings: [] }, status: 201, tenths: 1, idempotencyKey: null, replayed: false, request: { kind: 'none' }, answer: text, ids: [] }, 0, 0, true);
        const held = ring.list(null, {}, { limit: 30 }).items.map((e) => (e.answer as { text: string }).text);
        expect(held).toEqual(texts.slice(-30).reverse());
      }
      // Without reuse every chunk of 256 KB would be new: 300 answers of 20 KB on average fill about 25.
      expect(allocated.mock.calls.length).toBeLessThan(10);
    } finally {
      allocated.mockRestore();
    }
  });

  test.each([1, 2, 3, 1000])('a ring of %i keeps a polled answer once: the same path and answer share its bytes, a change is kept anew', (capacity) => {
    const allocated = vi.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      const ring = createRequestLog(capacity);
      const answerOf = (version: number) => JSON.stringify({ id: 'tx_1', version, pad: 'ç'.repeat(10_000) });
      // 600 polls of one resource (21 KB an answer) that changes now and then, and a read of another path between.
      const kept: { path: string; text: string }[] = [];
      for (let i = 0; i < 600; i++) {
        const path = i % 100 === 50 ? '/v2/account' : '/v2/transactions/tx_1';
        const text = answerOf(path === '/v2/account' ? -1 : Math.floor(i / 150));
        kept.push({ path, text });
        // A head of its own each time (as an app alternating between requests gets): the path tells a resource polled.
        ring.record({ seq: ring.nextSeq(), head: { face: 'v2', method: 'GET', path, query: '', accountId: null, credentialId: null, headers: [], warnings: [] }, status: 200, tenths: 1, idempotencyKey: null, replayed: false, request: { kind: 'none' }, answer: text, ids: [] }, 0, 0, true);
        // Every answer the ring holds reads back as sent, the newest (not yet settled) and the shared ones alike.
        if (i % 37 === 0 || i > 590) {
          const held = ring.list(null, {}, { limit: capacity }).items.map((e) => ({ path: e.path, text: (e.answer as { text: string }).text }));
          expect(held).toEqual(kept.slice(-capacity).reverse());
        }
      }
      // Kept anew each time, 600 answers of 21 KB would fill some fifty chunks of 256 KB; shared, a few hold them.
      expect(allocated.mock.calls.length).toBeLessThanOrEqual(capacity === 1 ? 0 : 4);
    } finally {
      allocated.mockRestore();
    }
  });

  test("every entry's trace id is its answer's X-Trace-Id, a UUID ending in the entry's number, and finds it", async () => {
    h = await startHarness();
    const sent: string[] = [];
    for (let i = 0; i < 40; i++) sent.push((await h.v2('GET', '/account')).headers.get('x-trace-id')!);
    const entries = (await log('?path=/v2/account&limit=40')).items.reverse();
    expect(entries.map((e) => e.traceId)).toEqual(sent);
    for (const [i, e] of entries.entries()) {
      expect(sent[i]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(`req_${Number.parseInt(sent[i]!.slice(24), 16)}`).toBe(e.id);
    }
    // A trace id finds its entry, as its id does.
    const found = await h.control('GET', `/requests/${sent[3]}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual((await h.control('GET', `/requests/${entries[3]!.id}`)).body);
    // The random part is the sandbox's own: another sandbox's trace ids differ from the first request on, and are
    // not found here.
    const other = await startHarness();
    try {
      const foreign = (await other.v2('GET', '/account')).headers.get('x-trace-id')!;
      expect(foreign.slice(0, 24)).not.toBe(sent[0]!.slice(0, 24));
      expect((await h.control('GET', `/requests/${foreign}`)).status).toBe(404);
    } finally {
      await other.sb.close();
    }
  });

  test('--request-log 0 turns it off', async () => {
    h = await startHarness({ requestLog: 0 });
    await charge();
    expect((await log()).items).toEqual([]);
    expect(h.sb.deps.requestLog.held()).toBe(0);
  });

  test('reset clears it', async () => {
    h = await startHarness();
    await charge();
    const before = await newest('?path=/v2/pix');
    await h.control('POST', '/reset');
    expect((await log('?path=/v2/pix')).items).toEqual([]);
    expect((await h.control('GET', `/requests/${before.id}`)).status).toBe(404);
  });

  test('deleting an account forgets its entries', async () => {
    h = await startHarness();
    const created = await h.control('POST', '/accounts', { name: 'Outra', credentials: [{ clientId: 'mp_test_other', clientSecret: 'other-secret-1' }] });
    const token = await h.token('mp_test_other', 'other-secret-1');
    await h.api('GET', '/v2/account', { token });
    const e = (await log('?face=v2', created.body.id)).items[0];
    expect(e.path).toBe('/v2/account');
    expect((await h.control('DELETE', `/accounts/${created.body.id}`)).status).toBe(200);
    expect((await h.control('GET', `/requests/${e.id}`)).status).toBe(404);
  });

  test("one tenant's requests are never in another's log", async () => {
    h = await startHarness();
    const other = await h.control('POST', '/accounts', { name: 'Outra', credentials: [{ clientId: 'mp_test_other', clientSecret: 'other-secret-1' }] });
    const token = await h.token('mp_test_other', 'other-secret-1');
    const mine = await charge();
    await h.api('GET', `/v2/transactions/${mine.body.id}`, { token }); // the other tenant asks for my charge: 404
    const theirs = (await log('?face=v2', other.body.id)).items;
    expect(theirs.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([`GET /v2/transactions/${mine.body.id} 404`, 'POST /v2/auth 200']);
    expect(JSON.stringify(theirs)).not.toContain('"description":"x"');
    const ours = (await log('?face=v2&limit=1000')).items;
    expect(ours.every((e) => e.accountId === DEFAULT.accountId)).toBe(true);
    expect(ours.some((e) => e.path.startsWith('/v2/transactions/'))).toBe(false);
  });
});

// Requests answered in one turn of the event loop (pipelined on one connection), and answered out of order.
describe('entries in the order requests were answered', () => {
  /**
   * Raw HTTP requests written at once on one connection (the last asks for `connection: close`), so that Node hands
   * them to the app in one turn; what came back.
   */
  const pipelined = (url: URL, sent: string[]) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(sent.join('')));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  const entryOf = (seq: number, accountId: string | null): KeptEntry => ({
    seq,
    head: { face: 'v2', method: 'GET', path: '/v2/account', query: '', accountId, credentialId: null, headers: [], warnings: [] },
    status: 200,
    tenths: 1,
    idempotencyKey: null,
    replayed: false,
    request: { kind: 'none' },
    answer: '{}',
    ids: [],
  });

  test('a request answered after later ones (a write waiting for the disk) is found by its id, and paging walks every entry once', () => {
    const ring = createRequestLog(10);
    for (const seq of [1, 2, 4, 3, 6, 5]) ring.record(entryOf(seq, 'acc'), 0, 0, false);
    for (let seq = 1; seq <= 6; seq++) expect(ring.get(`req_${seq}`)?.seq).toBe(seq);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = ring.list('acc', {}, { limit: 1, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.items.map((e) => e.seq));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual([5, 6, 3, 4, 2, 1]);
  });

  test('on a real port, requests answered in one turn are each logged once, found by their trace id, before the app reads the log', async () => {
    sandbox = await startSandbox({ log: () => {} });
    const token = await sandbox.token();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const made = await fetch(`${sandbox.v2Url}/pix`, { method: 'POST', headers, body: JSON.stringify({ amount: 10, description: 'x' }) });
    const { id } = (await made.json()) as { id: string };
    // Pipelined on one connection, so that Node hands them to the app in one turn: reads of a charge and of one that
    // is not there, charges made, and requests refused before any guard knew who sent them (kept after a wait).
    const url = new URL(sandbox.v2Url);
    const requestOf = (method: string, path: string, auth: string, body = '') =>
      `${method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: ${auth}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const sent = [
      ...Array.from({ length: 10 }, () => requestOf('GET', `/v2/transactions/${id}`, `Bearer ${token}`)),
      ...Array.from({ length: 3 }, () => requestOf('GET', '/v2/transactions/tx_not_there', `Bearer ${token}`)),
      ...Array.from({ length: 3 }, (_, i) => requestOf('POST', '/v2/pix', `Bearer ${token}`, JSON.stringify({ amount: 1 + i, description: 'x' }))),
      ...Array.from({ length: 3 }, () => requestOf('GET', `/v2/transactions/${id}`, 'Bearer not-a-token')),
    ];
    // The last asks the sandbox to close the connection once it has answered it.
    sent.push(requestOf('GET', `/v2/transactions/${id}`, `Bearer ${token}`).replace('\r\n', '\r\nconnection: close\r\n'));
    const received = await pipelined(url, sent);
    const answers = [...received.matchAll(/HTTP\/1\.1 (\d{3})[^]*?\r\nx-trace-id: (\S+)\r\n/gi)].map((m) => ({ status: Number(m[1]), traceId: m[2]! }));
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(200), ...Array(3).fill(404), ...Array(3).fill(201), ...Array(3).fill(401), 200]);
    const entries = await Promise.all(answers.map((a) => sandbox!.control.requests.get(a.traceId)));
    expect(entries.map((e) => [e.status, e.traceId])).toEqual(answers.map((a) => [a.status, a.traceId]));
    expect(new Set(entries.map((e) => e.id)).size).toBe(sent.length);
    // Each once in its account's log: the charge made first, then the 17 sent with the token.
    const own = await sandbox.requests({ limit: 100, path: '/v2/' });
    expect(own.filter((e) => e.path !== '/v2/auth')).toHaveLength(18);
    // And an answer's entry is there as soon as the app has the answer.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${sandbox.v2Url}/transactions/${id}`, { headers });
      expect((await sandbox.control.requests.get(res.headers.get('x-trace-id')!)).status).toBe(200);
    }
  });
  test('on a real port, a control request that moves the clock comes after the entries answered before it in the turn', async () => {
    sandbox = await startSandbox({ log: () => {} });
    const token = await sandbox.token();
    const made = await fetch(`${sandbox.v2Url}/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 10, description: 'x' }) });
    const { id } = (await made.json()) as { id: string };
    const url = new URL(sandbox.v2Url);
    const head = `host: ${url.host}\r\ncontent-type: application/json\r\n`;
    const read = `GET /v2/transactions/${id} HTTP/1.1\r\n${head}authorization: Bearer ${token}\r\n\r\n`;
    const advance = JSON.stringify({ seconds: 86_400 });
    // Pipelined, so that Node hands all three to the app in one turn: a read, a day's advance, a read.
    const sent = [read, `POST /_sandbox/clock/advance HTTP/1.1\r\n${head}content-length: ${advance.length}\r\n\r\n${advance}`, read.replace('\r\n', '\r\nconnection: close\r\n')];
    const received = await pipelined(url, sent);
    const traceIds = [...received.matchAll(/\r\nx-trace-id: (\S+)\r\n/gi)].map((m) => m[1]!);
    const [before, moved, after] = await Promise.all(traceIds.map((traceId) => sandbox!.control.requests.get(traceId)));
    const day = 86_400_000;
    // Each on the clock as it was when it was answered: the first read a day before the second.
    expect([before!.status, moved!.path, after!.status]).toEqual([200, '/_sandbox/clock/advance', 200]);
    expect(Date.parse(after!.at) - Date.parse(before!.at)).toBeGreaterThanOrEqual(day);
    expect(Date.parse(after!.at) - Date.parse(before!.at)).toBeLessThan(day + 60_000);
  });
});
