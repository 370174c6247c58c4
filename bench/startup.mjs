// node bench/startup.mjs [--runs N]: spawn to first answer of the built CLI (`node dist/cli.js`, GET /_sandbox/health)
// against the bare Hono + jose server (bench/bare-server.mjs, GET /health), started alternately in one run so that the
// shared machine's load falls on both alike; then, on the sandbox, what the first request does not wait for and the
// first call of the face loads: the time from the first health answer to the first `POST /v2/auth` answered (the v2
// group, the schema library, jose). Writes bench/results/startup.json. Build first (npm run build).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { start, stop, waitUntilAnswering } from './processes.mjs';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] || 15);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const credentials = JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' });

const bare = [];
const sandbox = [];
const firstV2 = [];
for (let i = 0; i < runs; i++) {
  let t0 = performance.now();
  let child = start(process.execPath, ['bench/bare-server.mjs'], { PORT: '4781' });
  bare.push(await waitUntilAnswering('http://127.0.0.1:4781/health', child, t0));
  await stop(child);

  t0 = performance.now();
  child = start(process.execPath, ['dist/cli.js', '--port', '4782']);
  sandbox.push(await waitUntilAnswering('http://127.0.0.1:4782/_sandbox/health', child, t0));
  const t1 = performance.now();
  const res = await fetch('http://127.0.0.1:4782/v2/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: credentials });
  if (res.status !== 200) throw new Error(`POST /v2/auth answered ${res.status}: ${await res.text()}`);
  firstV2.push(performance.now() - t1);
  await stop(child);
}

const fixed = (n) => +n.toFixed(1);
const results = {
  date: new Date().toISOString(),
  node: process.version,
  loadavg: loadavg().map((l) => +l.toFixed(1)),
  runs,
  bareMs: fixed(median(bare)),
  sandboxMs: fixed(median(sandbox)),
  ratio: +(median(sandbox) / median(bare)).toFixed(2),
  firstV2AfterHealthMs: fixed(median(firstV2)),
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/startup.json', `${JSON.stringify(results, null, 2)}\n`);
console.log(`spawn to first answer: sandbox ${results.sandboxMs} ms, bare Hono + jose ${results.bareMs} ms, ratio ${results.ratio} (target <= 0.85)`);
console.log(`first POST /v2/auth after the first health answer: ${results.firstV2AfterHealthMs} ms (load average ${results.loadavg.join(' ')})`);
