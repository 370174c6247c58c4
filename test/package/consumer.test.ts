// The package as a user gets it (sandbox.md 7): `npm pack` into a temporary directory, a consumer project that
// installs the tarball (plus typescript, vitest, @types/node and jest from the registry or npm's cache), then:
// the tarball's file list, type-checks of a consumer file under NodeNext (ESM and CommonJS) and Bundler with
// skipLibCheck off, the three runner recipes of examples/, and `npx pix-sandbox` from the installed package.
// One install for the whole file (beforeAll); it reads the dist/ that `npm test` builds before vitest.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../foundation/process';

const INSTALL_MS = 240_000;
const STEP_MS = 180_000; // generous: two cores shared with other suites make one tsc run take 10 s to 100 s
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };

/** The parent's environment less what a test runner sets for itself (vitest's own variables would leak into the child). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('VITEST') && !k.startsWith('SANDBOX_') && !['NODE_OPTIONS', 'NODE_ENV', 'TEST', 'PORT', 'HOST', 'FORCE_COLOR'].includes(k)) env[k] = v;
  return { ...env, NO_COLOR: '1', ...extra };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: cleanEnv(env), maxBuffer: 32 * 1024 * 1024, timeout: STEP_MS }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: unknown }).code as number | null) ?? 1 : 0, stdout, stderr }),
    );
  });
}
const output = (r: Run) => `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;

let dir = '';
let app = '';
let packed: { filename: string; size: number; entryCount: number; files: { path: string }[] };

const COMPILER = { target: 'ES2022', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] };

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/testing.d.ts'))) throw new Error("dist/ is not built: run 'node scripts/build.mjs' (npm test does this before vitest)");
  dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-consumer-'));
  // --ignore-scripts: `prepare` would build again; npm test has just built dist/.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
  expect(pack.code, output(pack)).toBe(0);
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;

  app = join(dir, 'app');
  mkdirSync(join(app, 'test'), { recursive: true });
  mkdirSync(join(app, 'cjs'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  cpSync(join(ROOT, 'examples/vitest/charge.test.ts'), join(app, 'test/charge.vitest.test.ts'));
  cpSync(join(ROOT, 'examples/node-test/charge.test.mjs'), join(app, 'test/charge.node.test.mjs'));
  cpSync(join(ROOT, 'examples/jest/charge.test.mjs'), join(app, 'test/charge.jest.test.mjs'));
  cpSync(join(ROOT, 'examples/types/esm.ts'), join(app, 'esm.ts'));
  cpSync(join(ROOT, 'examples/types/cjs.ts'), join(app, 'cjs/cjs.ts'));
  writeFileSync(join(app, 'cjs/package.json'), JSON.stringify({ type: 'commonjs' }));
  const tsconfig = (file: string, module: string, moduleResolution: string, files: string[]) =>
    writeFileSync(join(app, file), JSON.stringify({ compilerOptions: { ...COMPILER, module, moduleResolution }, files }));
  // Under NodeNext each file's format follows its nearest package.json, so one program checks the ES module
  // consumer, the CommonJS one (cjs/, import()) and the vitest recipe (with vitest's own types).
  tsconfig('tsconfig.nodenext.json', 'NodeNext', 'NodeNext', ['esm.ts', 'cjs/cjs.ts', 'test/charge.vitest.test.ts']);
  tsconfig('tsconfig.bundler.json', 'ESNext', 'Bundler', ['esm.ts']);

  const tools = [`typescript@${pkg.devDependencies.typescript}`, `vitest@${pkg.devDependencies.vitest}`, `@types/node@${pkg.devDependencies['@types/node']}`, 'jest@30'];
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed.filename), ...tools], app);
  expect(install.code, output(install)).toBe(0);
}, INSTALL_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
}, STEP_MS);

describe.concurrent('the packed package', () => {
  test('holds only what runs and types: dist JS and .d.ts, the pages\' assets, fixtures, README, LICENSE, package.json', () => {
    const paths = packed.files.map((f) => f.path).sort();
    // Chunks: chunk-<hash>.js shared by the entries, <module>-<hash>.js loaded on demand (tls-<hash>.js under --https).
    expect(paths.filter((p) => !/^dist\/[a-z]+-[A-Z0-9]+\.js$/.test(p))).toEqual([
      'LICENSE',
      'README.md',
      ...readdirSync('src/pages/assets').map((f) => `dist/assets/${f}`),
      // Browser files of devDependencies, with their licences, copied by scripts/build.mjs (no run-time dependency).
      'dist/assets/vendor/jsqr/LICENSE',
      'dist/assets/vendor/jsqr/dist/jsQR.js',
      'dist/assets/vendor/swagger-ui-dist/LICENSE',
      'dist/assets/vendor/swagger-ui-dist/NOTICE',
      'dist/assets/vendor/swagger-ui-dist/swagger-ui-bundle.js',
      'dist/assets/vendor/swagger-ui-dist/swagger-ui.css',
      'dist/cli.js',
      'dist/fold-worker.js',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/qr-worker.js',
      'dist/register.cjs',
      'dist/register.js',
      'dist/send-worker.js',
      'dist/testing.d.ts',
      'dist/testing.js',
      'fixtures/default.json',
      'package.json',
    ]);
    for (const p of paths) expect(p).not.toMatch(/^(test|bench|\.ci|src|scripts|examples|node_modules)\/|\.map$|\.ts$(?<!\.d\.ts)/);
    // The declarations stand alone: no import of a .ts source, of src/, or of a relative module at all.
    for (const file of ['index.d.ts', 'testing.d.ts']) {
      const text = readFileSync(join(app, 'node_modules/pix-sandbox/dist', file), 'utf8');
      expect(text, file).not.toMatch(/from ['"]\.|\.ts['"]|src\//);
      // ... nor of a package: the bundle carries its libraries, so the types must not need them installed.
      expect(text, file).not.toMatch(/^import .* from ['"][^'"]+['"];?$/m);
      // And nothing public is typed `any` (comments aside).
      expect(text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''), file).not.toMatch(/\bany\b/);
    }
  });

  test.each([
    ['NodeNext (an ES module package, and a CommonJS one using import())', 'tsconfig.nodenext.json'],
    ['Bundler', 'tsconfig.bundler.json'],
  ])('type-checks a consumer under %s (ES2022, strict, skipLibCheck false)', async (_name, project) => {
    const tsc = await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', project], app);
    expect(tsc.code, output(tsc)).toBe(0);
  }, STEP_MS);

  test('the vitest recipe passes', async () => {
    const res = await run(process.execPath, [join(app, 'node_modules/vitest/vitest.mjs'), 'run', 'test/charge.vitest.test.ts'], app);
    expect(res.code, output(res)).toBe(0);
    expect(res.stdout).toMatch(/Tests\s+1 passed \(1\)/);
  }, STEP_MS);

  test('the node:test recipe passes', async () => {
    const res = await run(process.execPath, ['--test', 'test/charge.node.test.mjs'], app);
    expect(res.code, output(res)).toBe(0);
    expect(res.stdout).toMatch(/^# pass 1$/m);
  }, STEP_MS);

  test('the jest recipe passes (ES module, --experimental-vm-modules)', async () => {
    const res = await run(process.execPath, ['--experimental-vm-modules', join(app, 'node_modules/jest/bin/jest.js'), 'test/charge.jest.test.mjs'], app);
    expect(res.code, output(res)).toBe(0);
    expect(res.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
  }, STEP_MS);

  test('jest loads the package afresh for each test file: the recipe run as four files in one process leaves no thread behind per file', async () => {
    // Each file's sandbox starts the QR thread (a create) and the delivery thread (its webhook); both end when it
    // stops. Before, each file left both behind, idle, until jest exited.
    mkdirSync(join(app, 'many'), { recursive: true });
    const recipe = readFileSync(join(app, 'test/charge.jest.test.mjs'), 'utf8');
    const count = "\nimport { readdirSync as tasks } from 'node:fs';\nafterAll(() => console.log(`threads: ${tasks('/proc/self/task').length}`));\n";
    for (let i = 1; i <= 4; i++) writeFileSync(join(app, `many/f${i}.test.mjs`), recipe + count);
    const res = await run(process.execPath, ['--experimental-vm-modules', join(app, 'node_modules/jest/bin/jest.js'), '--runInBand', 'many/'], app);
    expect(res.code, output(res)).toBe(0);
    if (process.platform !== 'linux') return; // the count reads /proc
    const counts = [...(res.stdout + res.stderr).matchAll(/threads: (\d+)/g)].map((m) => Number(m[1]));
    expect(counts, output(res)).toHaveLength(4);
    // A file counts after its sandbox stopped; the two threads of the last one may still be ending.
    expect(Math.max(...counts) - Math.min(...counts), counts.join(', ')).toBeLessThanOrEqual(2);
  }, STEP_MS);

  test('npx pix-sandbox --version prints the version, offline', async () => {
    const res = await run('npx', ['--offline', 'pix-sandbox', '--version'], app);
    expect(res.code, output(res)).toBe(0);
    expect(res.stdout).toBe(`${pkg.version}\n`);
  }, STEP_MS);

  test('npx pix-sandbox --port 0 starts offline: banner, health, the docs page assets from swagger-ui-dist, the console and its assets', async () => {
    // Its own process group, so the SIGTERM reaches node behind npx.
    const child = spawn('npx', ['--offline', 'pix-sandbox', '--port', '0'], { cwd: app, env: cleanEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within 30 s\nstdout: ${out}\nstderr: ${err}`)), 30_000);
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const m = /pix-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\n[\s\S]*webhook/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code} before its banner\nstdout: ${out}\nstderr: ${err}`)));
      });
      expect(out).toContain(`  version     ${pkg.version}\n`);
      expect(out).toContain('client_id=mp_test_');
      const health = (await (await fetch(`${url}/_sandbox/health`)).json()) as { status: string; version: string };
      expect(health).toMatchObject({ status: 'ok', version: pkg.version });
      const css = await fetch(`${url}/docs/assets/swagger-ui.css`);
      expect(css.status).toBe(200);
      expect((await css.text()).length).toBeGreaterThan(1000);
      // The pages read their own assets, jsQR and the docs UI from dist/assets: all there in an installed package.
      for (const path of ['/', '/pay', '/assets/site.css', '/assets/console.js', '/assets/vendor/jsqr.js']) {
        const res = await fetch(`${url}${path}`);
        expect(res.status, path).toBe(200);
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
      }
    }
  }, STEP_MS);
});
