// What the register hook costs a Node start (sandbox.md 13): a plain `node app.cjs` against the same app under the
// hook in each of its forms, `--require dist/register.cjs` (what `pix-sandbox env` puts in NODE_OPTIONS; the goal row)
// and `--import dist/register.js`, and under an `--import` of an empty module (what `--import` itself costs, hook or
// not), in rounds whose order turns each time: wall time of each spawn to its exit, and the child's own CPU time until
// the app's first line runs (process.cpuUsage(), less swayed by other load); the figure is the difference of the
// medians (goal: within 20 ms). The app is a file, not `-e` (which loads crypto and stream before the code runs, and
// so would hide part of the hook's cost). PIX_SANDBOX_URL names a port nobody answers on: the hook must not care at
// start. `--pairs=N` (default 41); bench/results/register.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const REGISTER = `${ROOT}dist/register.js`;
const REGISTER_CJS = `${ROOT}dist/register.cjs`;
for (const file of [REGISTER, REGISTER_CJS]) if (!existsSync(file)) throw new Error(`${file} does not exist: build first (npm run bench:register does)`);
const pairs = Number(process.argv.find((a) => a.startsWith('--pairs='))?.slice(8) ?? 41);
const env = { PATH: process.env.PATH, PIX_SANDBOX_URL: 'http://127.0.0.1:1' };

const dir = mkdtempSync(join(tmpdir(), 'bench-register-'));
const EMPTY = join(dir, 'empty.mjs');
writeFileSync(EMPTY, '');
const APP = join(dir, 'app.cjs');
writeFileSync(APP, 'const u = process.cpuUsage(); process.stdout.write(String(u.user + u.system));\n');
const KINDS = { plain: [], required: ['--require', REGISTER_CJS], imported: ['--import', REGISTER], emptyImport: ['--import', EMPTY] };

/** [wall ms spawn to exit, the child's CPU ms until its code ran] */
function once(kind) {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, [...KINDS[kind], APP], { env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`node ${KINDS[kind].join(' ')} exited ${res.status}: ${res.stderr}`);
  return [performance.now() - t0, Number(res.stdout) / 1000];
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const runs = Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, []]));
for (const kind of Object.keys(runs)) once(kind); // warm the file cache
for (let i = 0; i < pairs; i++) {
  const order = Object.keys(runs);
  if (i % 2) order.reverse();
  for (const kind of order) runs[kind].push(once(kind));
}
const round = (x) => Math.round(x * 10) / 10;
const wall = (kind) => median(runs[kind].map(([w]) => w));
const cpu = (kind) => median(runs[kind].map(([, c]) => c));
const each = (f) => Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, round(f(kind))]));
const result = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  pairs,
  loadAverage: round(loadavg()[0]),
  wallMs: each(wall),
  cpuMs: each(cpu),
  // The goal: the form env prints.
  costCpuMs: round(cpu('required') - cpu('plain')),
  costWallMs: round(wall('required') - wall('plain')),
  importCostCpuMs: round(cpu('imported') - cpu('plain')),
  goalMs: 20,
};
mkdirSync(`${ROOT}bench/results`, { recursive: true });
writeFileSync(`${ROOT}bench/results/register.json`, `${JSON.stringify(result, null, 2)}\n`);
const { wallMs: w, cpuMs: c } = result;
console.log(`CPU until the app runs: node app.cjs ${c.plain} ms, --require register.cjs ${c.required} ms (+${result.costCpuMs}), --import register.js ${c.imported} ms (+${result.importCostCpuMs}), an empty --import ${c.emptyImport} ms`);
console.log(`wall, spawn to exit: node app.cjs ${w.plain} ms, --require ${w.required} ms (+${result.costWallMs}), --import ${w.imported} ms, an empty --import ${w.emptyImport} ms`);
console.log(`${pairs} rounds, load average ${result.loadAverage}; goal: within ${result.goalMs} ms (--require, the form env prints)`);
