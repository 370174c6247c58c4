// The recipes of examples/{python,php,go} run as a user runs them, against the built CLI (dist/cli.js, which each
// starts with --port 0 --ready-json; Python with --https, trusting the CA the ready line names). A missing toolchain
// skips its recipe and says so, unless RECIPES_REQUIRED=1 (.ci/run sets it after installing python3-pytest, php-cli,
// php-curl and golang-go from Debian), where it fails.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CLI, ROOT } from '../foundation/process';

const required = process.env.RECIPES_REQUIRED === '1';
// The local CA of the recipe that runs over --https is made here, not in the user's ~/.pix-sandbox.
const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-recipes-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Recipe {
  name: string;
  /** A command that succeeds only when the toolchain is there, and what to install when it is not. */
  probe: [string, string[]];
  install: string;
  run: [string, string[]];
  /** What the runner prints when every check ran and passed (a recipe that silently ran nothing fails). */
  passed: RegExp;
  env?: Record<string, string>;
}

/**
 * The Python the README's `python3 -m pytest` runs: the `python3` on PATH (a pyenv or venv one, say) when it has pytest,
 * else Debian's, which .ci/run gives python3-pytest.
 */
const python = ['python3', '/usr/bin/python3'].find((exe) => {
  try {
    execFileSync(exe, ['-c', 'import pytest'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}) ?? 'python3';

const recipes: Recipe[] = [
  {
    name: 'python',
    probe: [python, ['-c', 'import pytest']],
    install: 'apt-get install python3-pytest, or pip install pytest for the python3 on PATH',
    run: [python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider']],
    passed: /^5 passed/m,
    env: { PYTHONDONTWRITEBYTECODE: '1' },
  },
  {
    name: 'php',
    probe: ['php', ['-r', 'exit(extension_loaded("curl") && PHP_VERSION_ID >= 80200 ? 0 : 1);']],
    install: 'apt-get install php-cli php-curl (PHP 8.2 or newer)',
    run: ['php', ['charges_test.php']],
    passed: /^ok - the magic CPF paid the charge\nall passed$/m,
  },
  {
    name: 'go',
    probe: ['go', ['version']],
    install: 'apt-get install golang-go',
    run: ['go', ['test', '-count=1', '-v', './...']],
    passed: /^--- PASS: TestTheMagicCPF[\s\S]*^ok\s+example\.com\/shop/m,
    // Standard library only: nothing may be downloaded, not even a newer toolchain.
    env: { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' },
  },
];

/** True when the recipe's toolchain is missing here (and it may skip); says why once. */
function missing(recipe: Recipe): boolean {
  try {
    execFileSync(recipe.probe[0], recipe.probe[1], { stdio: 'ignore' });
    return false;
  } catch {
    const why = `\`${recipe.probe[0]} ${recipe.probe[1].join(' ')}\` failed (${recipe.install})`;
    if (required) throw new Error(`RECIPES_REQUIRED=1 but the ${recipe.name} toolchain is missing: ${why}.`);
    console.log(`[recipes] skipping examples/${recipe.name}: ${why}.`);
    return true;
  }
}

for (const recipe of recipes) {
  describe.skipIf(missing(recipe))(`examples/${recipe.name}`, () => {
    test('passes against the built sandbox it starts with --port 0 --ready-json', { timeout: 120_000 }, async () => {
      const cwd = join(ROOT, 'examples', recipe.name);
      const env = { ...process.env, ...recipe.env, PIX_SANDBOX_CLI: CLI, PIX_SANDBOX_HOME: home };
      const result = await new Promise<{ code: number; out: string }>((resolve) => {
        execFile(recipe.run[0], recipe.run[1], { cwd, env, timeout: 110_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: `${stdout}\n${stderr}` }),
        );
      });
      expect(result.code, result.out).toBe(0);
      expect(result.out).toMatch(recipe.passed);
    });
  });
}
