// POST /v2/auth (service-api.md 2.1, 4.1, 5; sandbox.md 2.3): real JWTs on the sandbox clock, the small error body.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, T0 } from '../helpers/harness';
import { at, expectAuthError, expectEnvelope, expectStatus } from './support';

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

test('the token is a JWT that verifies against /.well-known/jwks.json at the sandbox clock', async () => {
  const h = await startHarness();
  const auth = await h.api('POST', '/v2/auth', { body: GOOD });
  expect(auth.status, auth.text).toBe(200);
  const jwksRes = await h.api<JSONWebKeySet>('GET', '/.well-known/jwks.json');
  expect(jwksRes.status, jwksRes.text).toBe(200);
  const clock = await h.control('GET', '/clock');
  expect(clock.status, clock.text).toBe(200);

  const token: string = auth.body.access_token;
  const header = decodeProtectedHeader(token);
  expect(header.typ, JSON.stringify(header)).toBe('JWT');
  expect(jwksRes.body.keys.map((k) => k.kid), jwksRes.text).toContain(header.kid);
  expect(jwksRes.body.keys.every((k) => !('d' in k)), 'the JWKS must not publish the private key').toBe(true);

  const jwks = createLocalJWKSet(jwksRes.body);
  const { payload } = await jwtVerify(token, jwks, { currentDate: new Date(clock.body.now) });
  expect(payload.sub, JSON.stringify(payload)).toBe(DEFAULT.full.id);
  expect(payload.iat, JSON.stringify(payload)).toBe(Date.parse(T0) / 1000);
  expect(payload.exp! - payload.iat!, JSON.stringify(payload)).toBe(300);
  // At the sandbox clock + 300 s the same token no longer verifies: its expiry is on the sandbox clock, not the wall's.
  await expect(jwtVerify(token, jwks, { currentDate: new Date(Date.parse(clock.body.now) + 300_000) })).rejects.toThrow(/exp/);
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

test('a token still works 299 seconds after issue and gets 401 at 300 seconds', async () => {
  const h = await startHarness();
  const token = await h.token();
  await expectStatus(h.advance(299), 200);
  const before = await h.api('GET', '/v2/account', { token });
  expect(before.status, before.text).toBe(200);
  await expectStatus(h.advance(1), 200);
  const after = await h.api('GET', '/v2/account', { token });
  expectEnvelope(after, 401, 'UNAUTHORIZED', at(300));
  expect(after.body.message, after.text).toMatch(/expired/);
});

test('a token never used before gets 401 once the clock has moved 300 seconds', async () => {
  const h = await startHarness();
  const token = await h.token();
  await expectStatus(h.advance(300), 200);
  const res = await h.api('GET', '/v2/account', { token });
  expectEnvelope(res, 401, 'UNAUTHORIZED', at(300));
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
