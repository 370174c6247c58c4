// The Dockerfile builds an image that runs the sandbox as a non-root user on 0.0.0.0 and reports healthy, tried with
// podman on a stand-in Node base (no registry is reachable here). Without podman (and runc) the test skips and says
// so, unless CONTAINER_REQUIRED=1 (.ci/run), where it fails. Prints the image size and the time from `podman run` to
// the first passing health check: figures for docs/configuration.md, not assertions. An app container reaches the
// sandbox at https://api.pague.dev as compose's network aliases make it (podman's networks here have no DNS, so
// aliases cannot resolve: with host networking, --add-host gives the names 127.0.0.1, where the sandbox's container
// serves 443). The test removes the images its build made (the build stage's too), and only those.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  /** Every image id (intermediate ones too) before this test built anything: what it may not remove. */
  let before = new Set<string>();
  // Listing can fail while another build removes an image (podman reads each one): try again, a few times.
  const allImages = async (): Promise<Set<string>> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return new Set((await podman(env, ['images', '-a', '-q', '--no-trunc'])).split('\n').filter(Boolean));
      } catch (err) {
        if (attempt === 5) throw err;
      }
    }
  };

  beforeAll(async () => {
    if (!(await podman(env, ['image', 'exists', base]).then(() => true, () => false))) await standInBase(env, dir, base);
    before = await allImages();
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
    await podman(env, ['rm', '-f', '-t', '2', container, `${container}-https`, `${container}-names`]).catch(() => '');
    await podman(env, ['rmi', '-f', image]).catch(() => '');
    await removeOwnImages();
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  /**
   * The images this run's build left untagged (its build stage, the layers of both stages): newest first, so a
   * child goes before its parent, and without -f, so an image another build uses meanwhile stays.
   */
  async function removeOwnImages() {
    const made = [...(await allImages())].filter((id) => !before.has(id));
    const created = await Promise.all(made.map(async (id) => [id, (await podman(env, ['image', 'inspect', '--format', '{{.Created.Unix}}', id]).catch(() => '0')).trim()] as const));
    for (const [id] of created.sort((a, b) => Number(b[1]) - Number(a[1]))) await podman(env, ['rmi', id]).catch(() => '');
  }

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
    const banner = await podman(env, ['logs', container]);
    expect(banner).toContain(`pix-sandbox listening on http://0.0.0.0:${port}`);
    // The addresses that reach it, not 0.0.0.0 (SANDBOX_CONTAINER=1); the secrets warning once, about the container.
    expect(banner.split('\n').slice(1).join('\n'), banner).not.toContain('0.0.0.0');
    expect(banner).toContain(`  v2 API      http://localhost:${port}/v2`);
    expect(banner).toMatch(new RegExp(`containers {2}on its network: http://[^:]+:${port}`));
    expect(banner).not.toContain('  phones ');
    expect(banner.split('\n').filter((l) => l.includes('WARNING')), banner).toEqual([expect.stringContaining("no admin token: whoever reaches this container's port")]);
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
    const ca = await podman(env, ['exec', name, 'cat', '/ca/ca.pem']);
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(`https://127.0.0.1:${httpsPort}/_sandbox/health`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject),
    );
    expect(status).toBe(200);
  });

  test('an app container reaches it at https://api.pague.dev and https://api-gateway.pague.dev, trusting its CA from a shared volume', async () => {
    const name = `${container}-names`;
    // The shared volume: a directory the sandbox (user node) writes its CA to, mounted read-only in the app.
    const ca = join(dir, 'ca');
    mkdirSync(ca);
    chownSync(ca, 1000, 1000);
    // Host networking: 443 of this machine's loopback, which the user node may take with NET_BIND_SERVICE (compose
    // gives it the sysctl instead, in the container's own network).
    await runUntilHealthy(name, ['-e', 'HOST=127.0.0.1', '-e', `PORT=${await freePort()}`, '--cap-add', 'NET_BIND_SERVICE', '-v', `${ca}:/ca`]);
    // Healthy is the health route answering, which can come before podman has the banner printed after every listener.
    const banner = '  service TLS port 443 serves https://api.pague.dev, https://api-gateway.pague.dev by the name each client asks for';
    let logs = '';
    for (const until = Date.now() + 10_000; !logs.includes(banner) && Date.now() < until; ) logs = await podman(env, ['logs', name]);
    expect(logs).toContain(banner);
    expect(readFileSync(join(ca, 'ca-bundle.pem'), 'utf8')).toContain(readFileSync(join(ca, 'ca.pem'), 'utf8').trim());
    // The app of compose.yaml's unmodified-app, with its environment, in a container of the stand-in Node base.
    const out = await podman(env, [
      'run', ...PODMAN_FLAGS, '--rm', '--network', 'host',
      '--add-host', 'api.pague.dev:127.0.0.1', '--add-host', 'api-gateway.pague.dev:127.0.0.1',
      '-v', `${ca}:/ca:ro`, '-v', `${join(ROOT, 'examples/compose')}:/app:ro`, '-w', '/app',
      '-e', 'PDEV_API_KEY=mp_test_sandbox_api_key_0001', '-e', 'NODE_EXTRA_CA_CERTS=/ca/ca.pem',
      base, 'node', 'unmodified-app.mjs',
    ]);
    expect(out).toMatch(/^charge \S+ pending at https:\/\/api\.pague\.dev\/v1$/m);
    expect(out).toContain('token Bearer from https://api-gateway.pague.dev/v2');
  });
});
