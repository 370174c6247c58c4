// startSandbox({ https: true }) (sandbox.md 8): the sandbox serves TLS with a leaf of the local CA, `sandbox.ca` is that
// CA's PEM (its file: `caPath`), and `sandbox.fetch` trusts it where the global fetch does not.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type TestSandbox } from '../../src/testing';

let sandbox: TestSandbox;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pix-sandbox-home-'));
  sandbox = await startSandbox({ https: true, home, log: () => {} });
});
afterAll(async () => {
  await sandbox?.stop();
  rmSync(home, { recursive: true, force: true });
});

test('the sandbox listens on https, and ca / caPath are the local CA made in its home', () => {
  expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(sandbox.v2Url).toBe(`${sandbox.url}/v2`);
  expect(sandbox.caPath).toBe(join(home, 'ca.pem'));
  expect(readFileSync(sandbox.caPath!, 'utf8')).toBe(sandbox.ca);
  expect(new X509Certificate(sandbox.ca!).ca).toBe(true);
});

test('sandbox.fetch and token() work over TLS; the global fetch, which does not trust the CA, is refused', async () => {
  const token = await sandbox.token();
  const res = await sandbox.fetch(`${sandbox.v2Url}/account`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(((await res.json()) as { account?: { id?: string } }).account?.id).toBe(sandbox.accountId);
  const posted = await sandbox.fetch(`${sandbox.v2Url}/pix`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 10, description: 'over TLS' }),
  });
  expect(posted.status).toBe(201);
  const err = await fetch(`${sandbox.url}/_sandbox/health`).catch((e: Error & { cause?: { code?: string } }) => e.cause?.code);
  expect(err).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
});

test('node:https given sandbox.ca as its ca is trusted', async () => {
  const status = await new Promise<number>((resolve, reject) =>
    request(`${sandbox.url}/_sandbox/health`, { ca: sandbox.ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end(),
  );
  expect(status).toBe(200);
});

test('while an interception is active, requests to the sandbox itself still go over TLS and are trusted', async () => {
  const interception = sandbox.intercept({ v2: 'https://api.example.test/v2' });
  try {
    expect((await sandbox.fetch(`${sandbox.url}/_sandbox/health`)).status).toBe(200);
    expect((await sandbox.control.clock.get()).frozen).toBe(false);
  } finally {
    interception.restore();
  }
});
