// What the register hook costs a Node start (sandbox.md 13): `node -e 0` against `node --import dist/register.js -e 0`,
// in alternating pairs (the order turned each pair): wall time of each spawn to its exit, and the child's own CPU time
// until its code runs (process.cpuUsage(), less swayed by other load); the figure is the difference of the medians
// (goal: within 20 ms). A third run imports an empty module: what `--import` itself costs, hook or not. PIX_SANDBOX_URL
// names a port nobody answers on: the hook must not care at start. `--pairs=N` (default 41); bench/results/register.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const REGISTER = `${ROOT}dist/register.js`;
if (!existsSync(REGISTER)) throw new Error(`${REGISTER} does not exist: build first (npm run bench:register does)`);
const pairs = Number(process.argv.find((a) => a.startsWith('--pairs='))?.slice(8) ?? 41);
const env = { PATH: process.env.PATH, PIX_SANDBOX_URL: 'http://127.0.0.1:1' };

const EMPTY = join(mkdtempSync(join(tmpdir(), 'bench-register-')), 'empty.mjs');
writeFileSync(EMPTY, '');
const CODE = ['-e', 'const u = process.cpuUsage(); process.stdout.write(String(u.user + u.system))'];
const KINDS = { plain: [], hooked: ['--import', REGISTER], emptyImport: ['--import', EMPTY] };

/** [wall ms spawn to exit, the child's CPU ms until its code ran] */
function once(kind) {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, [...KINDS[kind], ...CODE], { env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`node ${KINDS[kind].join(' ')} exited ${res.status}: ${res.stderr}`);
  return [performance.now() - t0, Number(res.stdout) / 1000];
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const runs = { plain: [], hooked: [], emptyImport: [] };
for (const kind of Object.keys(runs)) once(kind); // warm the file cache
for (let i = 0; i < pairs; i++) {
  const order = Object.keys(runs);
  if (i % 2) order.reverse();
  for (const kind of order) runs[kind].push(once(kind));
}
const round = (x) => Math.round(x * 10) / 10;
const wall = (kind) => median(runs[kind].map(([w]) => w));
const cpu = (kind) => median(runs[kind].map(([, c]) => c));
const result = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  pairs,
  loadAverage: round(loadavg()[0]),
  wallMs: { plain: round(wall('plain')), hooked: round(wall('hooked')), emptyImport: round(wall('emptyImport')) },
  cpuMs: { plain: round(cpu('plain')), hooked: round(cpu('hooked')), emptyImport: round(cpu('emptyImport')) },
  costWallMs: round(wall('hooked') - wall('plain')),
  costCpuMs: round(cpu('hooked') - cpu('plain')),
  goalMs: 20,
};
mkdirSync(`${ROOT}bench/results`, { recursive: true });
writeFileSync(`${ROOT}bench/results/register.json`, `${JSON.stringify(result, null, 2)}\n`);
const { wallMs: w, cpuMs: c } = result;
console.log(`wall, spawn to exit: node -e 0 ${w.plain} ms, with the hook ${w.hooked} ms (+${result.costWallMs}), an empty --import ${w.emptyImport} ms`);
console.log(`CPU until the code runs: node -e 0 ${c.plain} ms, with the hook ${c.hooked} ms (+${result.costCpuMs}), an empty --import ${c.emptyImport} ms`);
console.log(`${pairs} rounds, load average ${result.loadAverage}; goal: within ${result.goalMs} ms`);
