// The Dockerfile builds an image that runs the sandbox as a non-root user on 0.0.0.0 and reports healthy, tried with
// podman on a stand-in Node base (no registry is reachable here). Without podman (and runc) the test skips and says
// so, unless CONTAINER_REQUIRED=1 (.ci/run), where it fails. Prints the image size and the time from `podman run` to
// the first passing health check: figures for docs/configuration.md, not assertions.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, http, ROOT } from '../foundation/process';
import { podman, PODMAN_FLAGS, podmanEnv, standInBase } from './podman';

const required = process.env.CONTAINER_REQUIRED === '1';

function noPodman(): boolean {
  try {
    execFileSync('podman', ['--version'], { stdio: 'ignore' });
    execFileSync('runc', ['--version'], { stdio: 'ignore' });
    return false;
  } catch {
    const why = 'podman or runc is not installed (apt-get install podman runc)';
    if (required) throw new Error(`CONTAINER_REQUIRED=1 but ${why}.`);
    console.log(`[container] skipping test/container/container.test.ts: ${why}.`);
    return true;
  }
}

describe.skipIf(noPodman())('the container image (Dockerfile)', () => {
  const id = `${process.pid}-${Date.now().toString(36)}`;
  // Kept between runs (one per Node version), so podman's layer cache makes the next build quick.
  const base = `localhost/pix-sandbox-standin-node:${process.version}`;
  const image = `localhost/pix-sandbox:test-${id}`;
  const container = `pix-sandbox-test-${id}`;
  const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-container-'));
  const env = podmanEnv(dir);
  let port = 0;
  let healthyAfterMs = 0;

  beforeAll(async () => {
    if (!(await podman(env, ['image', 'exists', base]).then(() => true, () => false))) await standInBase(env, dir, base);
    // The host's npm cache as the build's: npm ci takes what it already has instead of downloading it again.
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    const started = Date.now();
    await podman(env, ['build', ...PODMAN_FLAGS, '--network', 'host', '--format', 'docker', '--build-arg', `NODE_IMAGE=${base}`, '--volume', `${npmCache}:/root/.npm`, '-t', image, ROOT], 600_000);
    console.log(`[container] image built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    port = await freePort();
    healthyAfterMs = await runUntilHealthy(container, ['-e', `PORT=${port}`, '-e', 'SANDBOX_DATA=/data/state.json']);
  }, 900_000);

  /** `podman run -d`, then the image's own health check until it passes; returns the milliseconds that took. */
  async function runUntilHealthy(name: string, args: string[]): Promise<number> {
    const run = Date.now();
    await podman(env, ['run', ...PODMAN_FLAGS, '--network', 'host', '-d', '--name', name, ...args, image]);
    // Podman runs health checks from systemd timers, which this machine lacks: run the check as the timer would.
    for (;;) {
      try {
        await podman(env, ['healthcheck', 'run', name]);
        return Date.now() - run;
      } catch (err) {
        if (Date.now() - run > 60_000) throw new Error(`not healthy within 60 s: ${(err as Error).message}\n${await podman(env, ['logs', name]).catch(() => '')}`);
      }
    }
  }

  afterAll(async () => {
    await podman(env, ['rm', '-f', '-t', '2', container, `${container}-https`]).catch(() => '');
    await podman(env, ['rmi', '-f', image]).catch(() => '');
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('reports healthy and answers the API on 0.0.0.0 and the PORT it was given', async () => {
    const bytes = Number((await podman(env, ['image', 'inspect', '--format', '{{.Size}}', image])).trim());
    const baseBytes = Number((await podman(env, ['image', 'inspect', '--format', '{{.Size}}', base])).trim());
    console.log(`[container] image ${(bytes / 1e6).toFixed(1)} MB (stand-in base ${(baseBytes / 1e6).toFixed(1)} MB, the sandbox's layers ${((bytes - baseBytes) / 1e6).toFixed(1)} MB); podman run to healthy ${healthyAfterMs} ms`);
    const status = (await podman(env, ['inspect', '--format', '{{.State.Health.Status}}', container])).trim();
    expect(status).toBe('healthy');
    const health = await http(`http://127.0.0.1:${port}`, 'GET', '/_sandbox/health');
    expect(health.status, health.text).toBe(200);
    expect(health.body.persistent, health.text).toBe(true);
    const auth = await http(`http://127.0.0.1:${port}`, 'POST', '/v2/auth', { body: { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' } });
    expect(auth.status, auth.text).toBe(200);
    expect(await podman(env, ['logs', container])).toContain(`pix-sandbox listening on http://0.0.0.0:${port}`);
  });

  test('runs as the unprivileged user node and keeps --data state in the /data volume', async () => {
    expect((await podman(env, ['exec', container, 'id', '-u'])).trim()).toBe('1000');
    const inspected = JSON.parse(await podman(env, ['image', 'inspect', image]))[0];
    expect(inspected.Config.User).toBe('node');
    expect(Object.keys(inspected.Config.Volumes ?? {})).toEqual(['/data']);
    const healthcheck = inspected.Healthcheck ?? inspected.Config.Healthcheck; // podman puts it beside Config
    expect(healthcheck?.Test?.join(' '), JSON.stringify(inspected)).toContain('/app/dist/healthcheck.mjs');
    expect(await podman(env, ['exec', container, 'ls', '/data'])).toContain('state.json');
  });

  test('with SANDBOX_HTTPS=1 it is healthy over TLS, with a certificate its local CA signed', async () => {
    const httpsPort = await freePort();
    const name = `${container}-https`;
    await runUntilHealthy(name, ['-e', `PORT=${httpsPort}`, '-e', 'SANDBOX_HTTPS=1']);
    const ca = await podman(env, ['exec', name, 'cat', '/home/node/.pix-sandbox/ca.pem']);
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(`https://127.0.0.1:${httpsPort}/_sandbox/health`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject),
    );
    expect(status).toBe(200);
  });
});
