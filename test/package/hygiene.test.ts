// Package hygiene (sandbox.md 8): installing the packed tarball runs no install script anywhere in its dependency
// tree, and the run-time `dependencies` are exactly the packages dist/ imports at run time (a library is bundled or
// depended on, never both). Reads the dist/ that `npm test` builds before vitest.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT } from '../foundation/process';

const STEP_MS = 180_000;
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'] as const;

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, maxBuffer: 32 * 1024 * 1024, timeout: STEP_MS }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: `${stdout}\n${stderr}` }));
  });
}

let dir = '';
let installed = '';

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/cli.js'))) throw new Error("dist/ is not built: run 'node scripts/build.mjs' (npm test does this before vitest)");
  dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-hygiene-'));
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
  expect(pack.code, pack.out).toBe(0);
  const tarball = (JSON.parse(pack.out.slice(0, pack.out.lastIndexOf(']') + 1)) as { filename: string }[])[0]!.filename;
  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-consumer', private: true }));
  // Nothing but the tarball: every package in node_modules is there because of pix-sandbox.
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], app);
  expect(install.code, install.out).toBe(0);
  installed = join(app, 'node_modules');
}, STEP_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every package.json of an installed tree (nested node_modules and scopes included). */
function packagesUnder(nodeModules: string): { name: string; dir: string; manifest: { scripts?: Record<string, string> } }[] {
  const found: ReturnType<typeof packagesUnder> = [];
  if (!existsSync(nodeModules)) return found;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((s) => join(nodeModules, entry, s)) : [join(nodeModules, entry)];
    for (const d of dirs) {
      const manifestPath = join(d, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      found.push({ name: manifest.name, dir: d, manifest });
      found.push(...packagesUnder(join(d, 'node_modules')));
    }
  }
  return found;
}

test('a fresh install of the tarball holds no package with an install script (nor a binding.gyp, which npm builds on install)', () => {
  const packages = packagesUnder(installed);
  expect(packages.map((p) => p.name)).toContain('pix-sandbox');
  const withScripts = packages
    .filter((p) => INSTALL_SCRIPTS.some((s) => p.manifest.scripts?.[s]) || existsSync(join(p.dir, 'binding.gyp')))
    .map((p) => `${p.name}: ${JSON.stringify(p.manifest.scripts)}`);
  expect(withScripts).toEqual([]);
});

test("the run-time dependencies are exactly the packages dist/ imports (static and dynamic), no more, no fewer", async () => {
  const dist = join(installed, 'pix-sandbox/dist');
  const manifest = JSON.parse(readFileSync(join(installed, 'pix-sandbox/package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const imported = new Set<string>();
  // esbuild follows every import and require() of the entries and their chunks; a bare one that is not Node's own
  // names a package that must be installed at run time.
  await build({
    entryPoints: ['cli.js', 'index.js', 'testing.js'].map((f) => join(dist, f)),
    bundle: true,
    write: false,
    splitting: true,
    format: 'esm',
    platform: 'node',
    outdir: join(dir, 'scan'),
    logLevel: 'error',
    plugins: [
      {
        name: 'bare-imports',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            const bare = args.path.startsWith('node:') || builtinModules.includes(args.path) ? undefined : args.path;
            if (bare) imported.add(bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0]!);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies ?? {}).sort());
}, STEP_MS);
