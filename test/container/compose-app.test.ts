// compose.yaml's app (examples/compose/app.mjs) does what the compose file promises, run here as plain processes with
// the environment compose gives it (the sandbox's service name replaced by the address of a CLI on a free port):
// it creates a charge once the sandbox answers, and logs the signed payment_completed after the charge is paid.
import { readFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { CLI, freePort, http, killLeftovers, ROOT, spawnNode } from '../foundation/process';

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
