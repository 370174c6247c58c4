// compose.yaml's app (examples/compose/app.mjs) does what the compose file promises, run here as plain processes with
// the environment compose gives it (the sandbox's service name replaced by the address of a CLI on a free port):
// it creates a charge once the sandbox answers, and logs the signed payment_completed after the charge is paid.
import { readFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { CLI, freePort, http, killLeftovers, ROOT, spawnNode } from '../foundation/process';
import { join } from 'node:path';

const compose = readFileSync(`${ROOT}compose.yaml`, 'utf8');
afterEach(killLeftovers);

/** `KEY: value` lines of compose.yaml (comments dropped). */
function setting(key: string): string {
  const m = new RegExp(`^\\s+${key}: ([^\\s#]+)`, 'm').exec(compose);
  if (!m) throw new Error(`compose.yaml sets no ${key}`);
  return m[1]!;
}

test('the compose app waits for a healthy sandbox, and the sandbox delivers to the app service', () => {
  expect(compose).toMatch(/depends_on:\n\s+pix-sandbox:\n\s+condition: service_healthy/);
  expect(setting('SANDBOX_WEBHOOK_URL')).toBe('http://app:3000/webhooks');
  expect(setting('PIX_BASE_URL')).toBe('http://pix-sandbox:4747/v2');
});

test('the compose app creates a charge and logs its signed payment_completed once it is paid', async () => {
  const appPort = await freePort();
  const sandbox = spawnNode([CLI, '--port', '0', '--ready-json', '--webhook-url', setting('SANDBOX_WEBHOOK_URL').replace('app:3000', `127.0.0.1:${appPort}`)], {});
  const ready = JSON.parse((await sandbox.waitFor(/^\{.*\}$/m))[0]) as { v2Url: string; controlUrl: string };
  const app = spawnNode(['examples/compose/app.mjs'], {
    PORT: String(appPort),
    PIX_BASE_URL: ready.v2Url,
    PIX_CLIENT_ID: setting('PIX_CLIENT_ID'),
    PIX_CLIENT_SECRET: setting('PIX_CLIENT_SECRET'),
    WEBHOOK_SECRET: setting('WEBHOOK_SECRET'),
  });
  const [, id] = await app.waitFor(/^charge (\S+) pending; pay it: curl -X POST http:\/\/127\.0\.0\.1:4747\/_sandbox\/transactions\/\1\/pay$/m);
  const paid = await http(ready.controlUrl, 'POST', `/transactions/${id}/pay`, { body: {} });
  expect(paid.status, paid.text).toBe(200);
  await app.waitFor(new RegExp(`^webhook payment_completed ${id} completed \\(signature valid\\)$`, 'm'));
});

test('the compose app waits for a sandbox that is not up yet (podman-compose starts both at once)', async () => {
  const [appPort, sandboxPort] = [await freePort(), await freePort()];
  const app = spawnNode(['examples/compose/app.mjs'], {
    PORT: String(appPort),
    PIX_BASE_URL: `http://127.0.0.1:${sandboxPort}/v2`,
    PIX_CLIENT_ID: setting('PIX_CLIENT_ID'),
    PIX_CLIENT_SECRET: setting('PIX_CLIENT_SECRET'),
    WEBHOOK_SECRET: setting('WEBHOOK_SECRET'),
  });
  await app.waitFor(/^waiting for the sandbox at /m);
  spawnNode([CLI, '--port', String(sandboxPort)], {});
  await app.waitFor(/^charge (\S+) pending; pay it: /m);
});

test("compose's unmodified-app reaches the sandbox by the service's names: aliases, 443 allowed, the CA shared", () => {
  expect(compose).toMatch(/aliases: \[api\.pague\.dev, api-gateway\.pague\.dev\]/);
  expect(compose).toContain('net.ipv4.ip_unprivileged_port_start=0');
  expect(compose).toMatch(/- pix-ca:\/ca #/);
  expect(compose).toMatch(/- pix-ca:\/ca:ro/);
  expect(setting('NODE_EXTRA_CA_CERTS')).toBe('/ca/ca.pem');
  expect(setting('SSL_CERT_FILE')).toBe('/ca/ca-bundle.pem');
});

// The app itself, naming nothing of the sandbox, run here under the register hook in place of compose's aliases
// (test/container/container.test.ts runs it in a container against the image's port 443).
test('the unmodified app creates a charge at https://api.pague.dev/v1 and takes a token at https://api-gateway.pague.dev/v2', async () => {
  const sandbox = spawnNode([CLI, '--port', '0', '--ready-json'], {});
  const ready = JSON.parse((await sandbox.waitFor(/^\{.*\}$/m))[0]) as { url: string };
  const app = spawnNode(['--import', join(CLI, '..', 'register.js'), 'examples/compose/unmodified-app.mjs'], { PIX_SANDBOX_URL: ready.url, PDEV_API_KEY: setting('PDEV_API_KEY') });
  await app.waitFor(/^charge \S+ pending at https:\/\/api\.pague\.dev\/v1$/m);
  await app.waitFor(/^token Bearer from https:\/\/api-gateway\.pague\.dev\/v2$/m);
});
