// compose.yaml's app (examples/compose/app.mjs) does what the compose file promises, run here as plain processes with
// the environment compose gives it (the sandbox's service name replaced by the address of a CLI on a free port):
// it creates a charge once the sandbox answers, and logs the signed payment_completed after the charge is paid.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { CLI, http, ROOT } from '../foundation/process';

const compose = readFileSync(`${ROOT}compose.yaml`, 'utf8');
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** `KEY: value` lines of compose.yaml (comments dropped). */
function setting(key: string): string {
  const m = new RegExp(`^\\s+${key}: ([^\\s#]+)`, 'm').exec(compose);
  if (!m) throw new Error(`compose.yaml sets no ${key}`);
  return m[1]!;
}

/** Starts a process; `waitFor(re)` resolves with the first stdout match (bounded). */
function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const waitFor = (re: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${re} within 15 s:\n${out}`)), 15_000);
      const check = () => {
        const m = re.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        }
      };
      child.stdout!.on('data', check);
      check();
    });
  return { waitFor };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

test('the compose app waits for a healthy sandbox, and the sandbox delivers to the app service', () => {
  expect(compose).toMatch(/depends_on:\n\s+pix-sandbox:\n\s+condition: service_healthy/);
  expect(setting('SANDBOX_WEBHOOK_URL')).toBe('http://app:3000/webhooks');
  expect(setting('PIX_BASE_URL')).toBe('http://pix-sandbox:4747/v2');
});

test('the compose app creates a charge and logs its signed payment_completed once it is paid', async () => {
  const appPort = await freePort();
  const sandbox = start([CLI, '--port', '0', '--ready-json', '--webhook-url', setting('SANDBOX_WEBHOOK_URL').replace('app:3000', `127.0.0.1:${appPort}`)], {});
  const ready = JSON.parse((await sandbox.waitFor(/^\{.*\}$/m))[0]) as { v2Url: string; controlUrl: string };
  const app = start(['examples/compose/app.mjs'], {
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
