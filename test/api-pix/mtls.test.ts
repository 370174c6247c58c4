// --https --mtls (sandbox.md 9), on a real port: /api-pix/v2 requires a client certificate signed by the local CA and
// issued to the token's account (POST /_sandbox/accounts/{id}/client-certificates); the token endpoint, the payload
// locations and the other faces ask none. Without --mtls no certificate is asked at all.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { readCliConfig as parseCli } from '../../src/config';
import { DEFAULT } from '../helpers/harness';
import { basic } from '../helpers/api-pix';

let sb: Sandbox;
let home: string;
let url: string;

interface Answer {
  status: number;
  body: any;
}

function call(method: string, path: string, opts: { headers?: Record<string, string>; body?: string; cert?: { certificate: string; key: string } } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers: opts.headers, ca: sb.ca!.pem, ...(opts.cert ? { cert: opts.cert.certificate, key: opts.cert.key } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function certificateFor(accountId: string) {
  const res = await call('POST', `/_sandbox/accounts/${accountId}/client-certificates`);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { certificate: string; key: string; commonName: string; ca: string };
}

async function token() {
  const res = await call('POST', '/api-pix/oauth/token', {
    headers: { authorization: basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token as string;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pix-sandbox-mtls-'));
  sb = await createSandbox({ https: true, mtls: true, home, log: () => {} });
  url = await sb.listen({ port: 0 });
});
afterAll(async () => {
  await sb?.close();
  rmSync(home, { recursive: true, force: true });
});

const list = '/api-pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z';

test('without a client certificate /api-pix/v2 answers a 401 problem that says how to get one; the token and /v2 need none', async () => {
  const res = await call('GET', list, { headers: { authorization: `Bearer ${await token()}` } });
  expect(res.status).toBe(401);
  expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/NaoAutenticado');
  expect(res.body.detail).toContain('/client-certificates');
  const v2 = await call('POST', '/v2/auth', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }) });
  expect(v2.status).toBe(200);
});

test("with the account's certificate it is served; another account's certificate is 401 naming it", async () => {
  const mine = await certificateFor(DEFAULT.accountId);
  expect(mine.commonName).toBe(DEFAULT.accountId);
  expect(mine.ca).toBe(sb.ca!.pem);
  const ok = await call('GET', list, { headers: { authorization: `Bearer ${await token()}` }, cert: mine });
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  const other = await call('POST', '/_sandbox/accounts', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Outra' }) });
  expect(other.status, JSON.stringify(other.body)).toBe(201);
  const foreign = await call('GET', list, { headers: { authorization: `Bearer ${await token()}` }, cert: await certificateFor(other.body.id) });
  expect(foreign.status).toBe(401);
  expect(foreign.body.detail).toContain(other.body.id);
});

test('a certificate for an unknown account is a 404; --mtls without --https is refused at start', async () => {
  expect((await call('POST', '/_sandbox/accounts/00000000-0000-4000-8000-000000000000/client-certificates')).status).toBe(404);
  expect(parseCli(['--mtls'], {})).toMatchObject({ error: expect.stringContaining('--https') });
  expect(parseCli(['--https', '--mtls'], {})).toMatchObject({ options: { https: true, mtls: true } });
});
