// Over a real socket a request always has a body stream, which in-process app.request() does not: these are the
// cases only a real port shows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { DEFAULT } from '../helpers/harness';
import { PAGE_CSP } from '../../src/wire/middleware/doors';

let sb: Sandbox;
let url: string;
let token: string;

beforeAll(async () => {
  sb = await createSandbox({ log: () => {}, freezeClock: true });
  url = await sb.listen({ port: 0 });
  const res = await fetch(`${url}/v2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }) });
  token = ((await res.json()) as { access_token: string }).access_token;
});
afterAll(() => sb.close());

describe('on a real port', () => {
  test('a control action POST without a body or content type works', async () => {
    const created = await fetch(`${url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 10, description: 'x' }) });
    const { id } = (await created.json()) as { id: string };
    const paid = await fetch(`${url}/_sandbox/transactions/${id}/pay`, { method: 'POST' });
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(((await paid.json()) as { status: string }).status).toBe('completed');
  });

  test('a POST /v2/pix without a body lists the missing fields (400), with or without a content type', async () => {
    for (const headers of [{}, { 'content-type': 'application/json' }] as Record<string, string>[]) {
      const res = await fetch(`${url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers } });
      const body = (await res.json()) as { details: { code: string; fields: { field: string }[] } };
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body.details.fields.map((f) => f.field)).toEqual(['amount', 'description']);
    }
  });

  test('a body that is not JSON is 415 and a broken JSON body 400, never a 500', async () => {
    const text = await fetch(`${url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body: 'amount=10' });
    expect(text.status).toBe(415);
    const broken = await fetch(`${url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"amount":' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { details: { code: string } }).details.code).toBe('MALFORMED_JSON');
  });
});

// On a real port X-Trace-Id goes on Node's response (app.ts) and a create's answer is a plain Response (sendIdempotent):
// every answer still carries the trace id beside the route's own headers, and an error body names the same id.
describe('answer headers on a real port', () => {
  const auth = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  test('a create carries X-Trace-Id, Location and its content type; its replay says so too', async () => {
    const headers = { ...auth(), 'Idempotency-Key': 'real-port-headers-1' };
    const body = JSON.stringify({ amount: 10, description: 'x' });
    const created = await fetch(`${url}/v2/pix`, { method: 'POST', headers, body });
    const { id } = (await created.json()) as { id: string };
    expect(created.status).toBe(201);
    expect(created.headers.get('x-trace-id')).toMatch(uuidPattern);
    expect(created.headers.get('location')).toBe(`/v2/transactions/${id}`);
    expect(created.headers.get('content-type')).toBe('application/json');
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    expect(created.headers.get('content-security-policy')).toBe(PAGE_CSP);
    const replay = await fetch(`${url}/v2/pix`, { method: 'POST', headers, body });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('location')).toBe(`/v2/transactions/${id}`);
    expect(replay.headers.get('x-trace-id')).toMatch(uuidPattern);
    expect(replay.headers.get('x-trace-id')).not.toBe(created.headers.get('x-trace-id'));
  });

  test.each([
    ['a read', 'GET', '/v2/account', undefined, 200],
    ['a missing route', 'GET', '/v2/nowhere', undefined, 404],
    ['a refused create', 'POST', '/v2/pix', {}, 400],
    ['a create whose route sets Location itself', 'POST', '/v2/projects', { name: 'Headers', color: '#1A73E8' }, 201],
    ['a page', 'GET', '/', undefined, 200],
  ] as const)('%s carries X-Trace-Id and the page headers (%s %s answers %s)', async (_, method, path, body, status) => {
    const res = await fetch(`${url}${path}`, { method, headers: auth(), ...(body ? { body: JSON.stringify(body) } : {}) });
    expect(res.status).toBe(status);
    const traceId = res.headers.get('x-trace-id');
    expect(traceId).toMatch(uuidPattern);
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    if (status === 201) expect(res.headers.get('location')).toMatch(/^\/v2\/projects\//);
    if (status >= 400) expect(((await res.json()) as { traceId?: string }).traceId).toBe(traceId);
  });
});

// The declared headers are validated from node's parsed headers on a real port (wire/middleware/headers.ts): the
// same answers as in process.
describe('declared headers on a real port', () => {
  const post = (headers: Record<string, string>) =>
    fetch(`${url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ amount: 10, description: 'x' }) });

  test.each([
    ['an Idempotency-Key of 7 characters', { 'Idempotency-Key': 'short-1' }, 400, 'Idempotency-Key'],
    ['an Idempotency-Key of 256 characters', { 'Idempotency-Key': 'k'.repeat(256) }, 400, 'Idempotency-Key'],
    ['an Idempotency-Key in lower case', { 'idempotency-key': 'order-lower-case-1' }, 201, null],
    ['an X-Sub-Account that is not a reference', { 'X-Sub-Account': 'Loja Centro!' }, 400, 'X-Sub-Account'],
    ['X-Sub-Account: loja-centro', { 'X-Sub-Account': 'loja-centro' }, 201, null],
    ['X-Sub-Account: principal', { 'X-Sub-Account': 'principal' }, 201, null],
  ] as const)('%s answers %s', async (_, headers, status, field) => {
    const res = await post(headers);
    const body = (await res.json()) as { details?: { fields?: { field: string }[] } };
    expect(res.status, JSON.stringify(body)).toBe(status);
    if (field) expect(body.details?.fields?.map((f) => f.field)).toEqual([field]);
  });

  test('the same Idempotency-Key replays the first answer', async () => {
    const first = await post({ 'Idempotency-Key': 'order-real-port-1' });
    const again = await post({ 'Idempotency-Key': 'order-real-port-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
  });
});

describe('BR Code location host', () => {
  test('a public host that cannot stand in a BR Code is refused at start with a message that says what to give', async () => {
    await expect(createSandbox({ log: () => {}, publicHost: 'localhost:4747' })).rejects.toThrow(/dotted host/);
    await expect(createSandbox({ log: () => {}, publicHost: 'https://pix.example.test' })).rejects.toThrow(/publicHost/);
  });

  test('without publicHost, charges point at pix-sandbox.test (not the listen address), and the sandbox serves that path', async () => {
    const created = await fetch(`${url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 10, description: 'x' }) });
    const { pixCopyPaste, id } = (await created.json()) as { pixCopyPaste: string; id: string };
    expect(pixCopyPaste).toContain(`pix-sandbox.test/pix/qr/${id}`);
    expect(pixCopyPaste).not.toContain(url.replace('http://', ''));
    const location = await fetch(`${url}/pix/qr/${id}`, { headers: { accept: 'application/json' } });
    expect(((await location.json()) as { status: string }).status).toBe('ATIVA');
  });

  test('a LAN publicHost with a port (a workshop phone) is written as given', async () => {
    const lan = await createSandbox({ log: () => {}, freezeClock: true, publicHost: '192.168.0.10:4747' });
    const lanUrl = await lan.listen({ port: 0 });
    try {
      const auth = await fetch(`${lanUrl}/v2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }) });
      const bearer = ((await auth.json()) as { access_token: string }).access_token;
      const created = await fetch(`${lanUrl}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 10, description: 'x' }) });
      const { pixCopyPaste, id } = (await created.json()) as { pixCopyPaste: string; id: string };
      expect(pixCopyPaste).toContain(`192.168.0.10:4747/pix/qr/${id}`);
    } finally {
      await lan.close();
    }
  });
});

describe('the request log on a real port', () => {
  // Over a socket the log takes the answer from @hono/node-server's own record and a JSON body from the body
  // middleware, without waiting: what it keeps must be what was sent and answered.
  const entries = async (query: string) => ((await (await fetch(`${url}/_sandbox/accounts/${DEFAULT.accountId}/requests${query}`)).json()) as { items: any[] }).items;
  const wide = async (query: string) => ((await (await fetch(`${url}/_sandbox/requests${query}`)).json()) as { items: any[] }).items;

  test('a create keeps its body as sent and its answer, a read has no body, a 415 keeps the size of what it refused', async () => {
    const sent = '{"amount": 12.5, "description": "over a socket"}';
    const created = await fetch(`${url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: sent });
    const answer = await created.text();
    const { id } = JSON.parse(answer) as { id: string };
    const read = await fetch(`${url}/v2/transactions/${id}`, { headers: { authorization: `Bearer ${token}` } });
    const refused = await fetch(`${url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body: 'amount=10' });
    expect([created.status, read.status, refused.status]).toEqual([201, 200, 415]);
    const [r, g, c] = await entries('?path=/v2/&limit=3');
    expect(c).toMatchObject({ method: 'POST', status: 201, ids: [id], traceId: created.headers.get('x-trace-id'), request: { contentType: 'application/json', size: Buffer.byteLength(sent), body: JSON.parse(sent) } });
    expect(c.answer).toEqual({ contentType: 'application/json', size: Buffer.byteLength(answer), body: JSON.parse(answer) });
    expect(g).toMatchObject({ method: 'GET', path: `/v2/transactions/${id}`, status: 200, ids: [], traceId: read.headers.get('x-trace-id'), request: null, answer: { contentType: 'application/json', body: { id, status: 'pending' } } });
    expect(r).toMatchObject({ status: 415, request: { contentType: 'text/plain', size: 9, omitted: 'not JSON' } });
  });

  test('a request with a token the sandbox never issued goes to the sandbox-wide log, as it was answered', async () => {
    const res = await fetch(`${url}/v2/account`, { headers: { authorization: 'Bearer not-a-token' } });
    expect(res.status).toBe(401);
    const [e] = await wide('?path=/v2/account&limit=1');
    expect(e).toMatchObject({ accountId: null, credentialId: null, status: 401, traceId: res.headers.get('x-trace-id'), answer: { body: { statusCode: 401, details: { code: 'UNAUTHORIZED' } } } });
  });
});
