// POST /v2/auth (service-api.md 2.1, 4.1, 5; sandbox.md 2.3, 4.6): real JWTs that live 300 s of real time, the small
// error body.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterEach, expect, test, vi } from 'vitest';
import { DEFAULT, startHarness, T0 } from '../helpers/harness';
import { expectAuthError, expectEnvelope, expectStatus } from './support';

const GOOD = { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret };

test('issues a Bearer token that lives 300 seconds', async () => {
  const h = await startHarness();
  const res = await h.api('POST', '/v2/auth', { body: GOOD });
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body).sort(), res.text).toEqual(['access_token', 'expires_in', 'token_type']);
  expect(res.body.token_type, res.text).toBe('Bearer');
  expect(res.body.expires_in, res.text).toBe(300);
  expect(res.body.access_token, res.text).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
});

test('the token is a JWT that verifies against /.well-known/jwks.json in real time', async () => {
  const h = await startHarness();
  const before = Math.floor(Date.now() / 1000);
  const auth = await h.api('POST', '/v2/auth', { body: GOOD });
  expect(auth.status, auth.text).toBe(200);
  const jwksRes = await h.api<JSONWebKeySet>('GET', '/.well-known/jwks.json');
  expect(jwksRes.status, jwksRes.text).toBe(200);

  const token: string = auth.body.access_token;
  const header = decodeProtectedHeader(token);
  expect(header.typ, JSON.stringify(header)).toBe('JWT');
  expect(jwksRes.body.keys.map((k) => k.kid), jwksRes.text).toContain(header.kid);
  expect(jwksRes.body.keys.every((k) => !('d' in k)), 'the JWKS must not publish the private key').toBe(true);

  const jwks = createLocalJWKSet(jwksRes.body);
  const { payload } = await jwtVerify(token, jwks);
  expect(payload.sub, JSON.stringify(payload)).toBe(DEFAULT.full.id);
  // Issued in real time (the harness's clock is frozen at T0, years away): what any JWT library checks it against.
  expect(payload.iat! >= before && payload.iat! <= Math.ceil(Date.now() / 1000), JSON.stringify(payload)).toBe(true);
  expect(payload.iat, JSON.stringify(payload)).not.toBe(Date.parse(T0) / 1000);
  expect(payload.exp! - payload.iat!, JSON.stringify(payload)).toBe(300);
  await expect(jwtVerify(token, jwks, { currentDate: new Date((payload.exp! + 1) * 1000) })).rejects.toThrow(/exp/);
});

test.each([
  ['client_secret missing', { client_id: DEFAULT.full.clientId }],
  ['client_id missing', { client_secret: DEFAULT.full.clientSecret }],
  ['both missing', {}],
  ['client_id empty', { client_id: '', client_secret: DEFAULT.full.clientSecret }],
  ['client_secret not a string', { client_id: DEFAULT.full.clientId, client_secret: 12345 }],
])('answers 400 with the small {error, message} body when %s', async (_label, body) => {
  const h = await startHarness();
  const res = await h.api('POST', '/v2/auth', { body });
  expectAuthError(res, 400);
});

test('answers 400 with the small body when the body is not JSON', async () => {
  const h = await startHarness();
  const res = await h.api('POST', '/v2/auth', { raw: '{"client_id":', contentType: 'application/json' });
  expectAuthError(res, 400);
});

test.each([
  ['a wrong secret', { client_id: DEFAULT.full.clientId, client_secret: 'not-the-secret' }],
  ['a secret of another credential', { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.pixOnly.clientSecret }],
  ['an unknown client_id', { client_id: 'mp_test_nobody', client_secret: DEFAULT.full.clientSecret }],
])('answers 401 with the small {error, message} body for %s', async (_label, body) => {
  const h = await startHarness();
  const res = await h.api('POST', '/v2/auth', { body });
  expectAuthError(res, 401);
});

test.each(['loja-centro', 'principal'])('answers 400 with the small body when X-Sub-Account is sent (%s)', async (value) => {
  const h = await startHarness();
  const res = await h.api('POST', '/v2/auth', { body: GOOD, headers: { 'x-sub-account': value } });
  expectAuthError(res, 400);
  expect(res.body.message, res.text).toMatch(/X-Sub-Account/);
});

afterEach(() => {
  vi.useRealTimers();
});

test('a token still works 299 seconds of real time after issue and gets 401 at 300 seconds', async () => {
  const h = await startHarness();
  // Real time is moved with a faked Date (no sleep); the sandbox clock stays frozen at T0 all along.
  vi.useFakeTimers({ toFake: ['Date'] });
  const issued = Date.now();
  const token = await h.token();
  vi.setSystemTime(issued + 299_000);
  const before = await h.api('GET', '/v2/account', { token });
  expect(before.status, before.text).toBe(200);
  vi.setSystemTime(Math.floor(issued / 1000) * 1000 + 300_000);
  const after = await h.api('GET', '/v2/account', { token });
  expectEnvelope(after, 401, 'UNAUTHORIZED', T0);
  expect(after.body.message, after.text).toMatch(/expired \(tokens live 300 s of real time/);
});

test('a jump of the sandbox clock by a day expires no token', async () => {
  const h = await startHarness();
  const token = await h.token();
  await expectStatus(h.advance(86_400), 200);
  const res = await h.api('GET', '/v2/account', { token });
  expect(res.status, res.text).toBe(200);
});

test.each([
  ['no Authorization header', undefined],
  ['a Basic scheme', 'Basic bXBfdGVzdDpzZWNyZXQ='],
  ['a token that is not a JWT', 'Bearer not-a-jwt'],
])('answers 401 in the envelope for %s', async (_label, authorization) => {
  const h = await startHarness();
  const res = await h.api('GET', '/v2/account', { headers: authorization ? { authorization } : {} });
  expectEnvelope(res, 401, 'UNAUTHORIZED');
});

test('a token signed by another sandbox is refused with 401', async () => {
  const h = await startHarness();
  const other = await startHarness();
  const foreign = await other.token();
  const res = await h.api('GET', '/v2/account', { token: foreign });
  expectEnvelope(res, 401, 'UNAUTHORIZED');
});

test('a token whose payload was altered is refused with 401', async () => {
  const h = await startHarness();
  const [head, payload, sig] = (await h.token()).split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  const forged = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString('base64url');
  const res = await h.api('GET', '/v2/account', { token: `${head}.${forged}.${sig}` });
  expectEnvelope(res, 401, 'UNAUTHORIZED');
});
