// Retention of transactions while creates go on (issue 39, sandbox.md 6.1): `npm run bench:retention [-- --quick]`.
// A data file holds 100,000 settled charges (seeded as bench/storage.mjs seeds them, not by HTTP calls) on a sandbox
// with --retain-transactions 1d. POST /v2/pix is measured alone, then again while the clock moves two days and the
// sweep deletes the 100,000 (the load stops when health says they are gone): the sweep's time, and create p99 during
// it against alone (target <= 2x). Writes bench/results/retention.{json,md}; npm run bench folds the row in.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { sampleCharge, seedFile } from './storage.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const CREDENTIAL = { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' };
const quick = process.argv.includes('--quick');
const N = quick ? 20_000 : 100_000;
const PORT = 4781;
const base = `http://127.0.0.1:${PORT}`;
// A week of life: the charges made while measuring are still pending after the two days the clock moves, so the
// move itself expires none of them (its cost would fall on the creates measured beside the sweep).
const body = JSON.stringify({ amount: 25.9, description: 'Benchmark charge', externalReference: 'bench', expiresIn: 604800 });

const dir = join(tmpdir(), `pix-sandbox-retention-bench-${process.pid}`);
mkdirSync(dir, { recursive: true });
let server;
try {
  const file = seedFile(dir, await sampleCharge(dir), N); // cancelled charges, last changed now: settled
  server = spawn(process.execPath, ['bench/storage-server.mjs', String(PORT), '--data', file, '--retain-transactions', '1d'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  server.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  server.stderr.resume();
  while (!out.includes('ready')) {
    if (server.exitCode !== null) throw new Error(`the sandbox exited with ${server.exitCode}`);
    await delay(20);
  }
  const health = async () => (await fetch(`${base}/_sandbox/health`)).json();
  const auth = (await (await fetch(`${base}/v2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CREDENTIAL) })).json()).access_token;
  const load = (duration) =>
    autocannon({ url: `${base}/v2/pix`, method: 'POST', headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, body, connections: 10, duration });
  const figures = (r) => ({ reqPerSec: Math.round(r.requests.average), requests: r.requests.total, p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx });

  await load(quick ? 1 : 2); // warm-up (JIT), not measured
  const alone = figures(await load(quick ? 3 : 8));
  const recordsBefore = (await health()).records;
  console.log(`creates alone: ${alone.reqPerSec} req/s, p99 ${alone.p99Ms} ms; records ${recordsBefore}`);

  // The sweep: the clock moves two days (retention runs after every clock move), creates go on until N are deleted.
  const during = load(600);
  await delay(500);
  const t0 = performance.now();
  const moved = await fetch(`${base}/_sandbox/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 2 * 86_400 }) });
  if (!moved.ok) throw new Error(`clock advance: ${moved.status} ${await moved.text()}`);
  let h;
  for (;;) {
    h = await health();
    if (h.retention.deleted.transactions >= N && h.retention.lastRun) break;
    if (performance.now() - t0 > 300_000) throw new Error(`after 300 s the sweep had deleted ${h.retention.deleted.transactions} of ${N}`);
    await delay(250); // not faster: health finds the oldest record with a for..in per account, a pass over a big one
  }
  const sweepMs = h.retention.lastRun.ms; // the sweep's own time: the poll above sees its end within 250 ms and a health call
  during.stop();
  const beside = figures(await during);
  const stats = await new Promise((resolve) => {
    server.stdout.on('data', () => /stats (.*)/.test(out) && resolve(JSON.parse(/stats (.*)/.exec(out)[1])));
    process.kill(-server.pid, 'SIGTERM');
  });
  const ratio = +(beside.p99Ms / alone.p99Ms).toFixed(2);
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    deleted: h.retention.deleted.transactions,
    sweepMs,
    seenAfterMs: Math.round(performance.now() - t0),
    recordsBefore,
    recordsAfter: h.records,
    alone,
    duringSweep: beside,
    p99Ratio: ratio,
    eventLoopDelayMaxMs: stats.eventLoopDelayMaxMs,
    met: ratio <= 2 && beside.non2xx === 0,
  };
  console.log(JSON.stringify(result));
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/retention.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    join(ROOT, 'bench/results/retention.md'),
    [
      `# Retention of transactions (${result.date}, Node ${result.node})`,
      '',
      `${result.deleted} settled transactions deleted in ${(sweepMs / 1000).toFixed(1)} s (seen done by a poll every 250 ms after ${(result.seenAfterMs / 1000).toFixed(1)} s) while POST /v2/pix went on at 10 connections; records ${recordsBefore} -> ${result.recordsAfter}.`,
      '',
      '| POST /v2/pix | req/s | p50 ms | p99 ms | non-2xx |',
      '|---|---|---|---|---|',
      ...[['alone', alone], ['during the sweep', beside]].map(([k, v]) => `| ${k} | ${v.reqPerSec} | ${v.p50Ms} | ${v.p99Ms} | ${v.non2xx} |`),
      '',
      `p99 during / alone: **${ratio}** (target <= 2); longest event-loop pause ${result.eventLoopDelayMaxMs} ms.`,
      '',
    ].join('\n'),
  );
} finally {
  if (server && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
