// node bench/fold.mjs [REF] [--rounds N] [--charges N] [--duration S]: what folding the data file costs the requests
// that arrive meanwhile, this build (dist/) against another commit's (default HEAD, built as bench/ab.mjs does), in
// alternating rounds in one run. Each round and side: POST /v2/pix (10 connections) on a copy of a data file with
// N stored charges (default 100,000), once steady (no fold) and once with a fold always running (a threshold of one
// byte). Prints, per side, the medians: p99 steady and during folds, their ratio (target <= 2), req/s, the longest
// event-loop delay while folding and the fold's longest synchronous stretch (target <= 10 ms, sandbox.md 10).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRef } from './processes.mjs';
import { postPixOn, sampleCharge, seedFile } from './storage.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const ref = args[0] && !args[0].startsWith('--') ? args[0] : 'HEAD';
const rounds = Number(opt('rounds', 3));
const charges = Number(opt('charges', 100000));
const duration = Number(opt('duration', 5));
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const oldDir = buildRef(ref);
const dir = mkdtempSync(join(tmpdir(), 'pix-fold-bench-'));
const seeded = seedFile(dir, await sampleCharge(dir), charges);
const sides = [
  { name: 'old', dir: oldDir, rows: [] },
  { name: 'new', dir: ROOT, rows: [] },
];
const run = async (side, extra) => {
  const copy = join(dir, `${side.name}.json`);
  copyFileSync(seeded, copy);
  const got = await postPixOn(side.dir, copy, extra, side.name === 'old' ? 4881 : 4882, duration);
  for (const x of ['', '.journal', '.journal.old', '.lock', '.tmp']) rmSync(`${copy}${x}`, { force: true });
  return got;
};
for (let i = 0; i < rounds; i++) {
  for (const side of i % 2 ? [...sides].reverse() : sides) {
    const steady = await run(side, ['--compact-after', String(1e12)]);
    const folding = await run(side, ['--compact-after', '1']);
    const row = {
      steadyP99: steady.result.p99Ms,
      foldP99: folding.result.p99Ms,
      ratio: folding.result.p99Ms / steady.result.p99Ms,
      steadyRps: steady.result.reqPerSec,
      foldRps: folding.result.reqPerSec,
      folds: folding.stats.compaction?.runs ?? 0,
      longestSliceMs: folding.stats.compaction?.lastLongestSliceMs ?? null,
      loopDelayMaxMs: folding.stats.eventLoopDelayMaxMs,
      steadyLoopDelayMaxMs: steady.stats.eventLoopDelayMaxMs,
    };
    side.rows.push(row);
    console.log(`round ${i + 1} ${side.name}: ${JSON.stringify(row)}`);
  }
}
rmSync(dir, { recursive: true, force: true });
rmSync(oldDir, { recursive: true, force: true });

console.log(`\n${charges} stored charges, this build (new) against ${ref} (old), ${rounds} alternating rounds, medians:`);
for (const key of Object.keys(sides[0].rows[0])) {
  const [o, n] = sides.map((s) => median(s.rows.map((r) => r[key])));
  console.log(`${key}: old ${+o.toFixed?.(2) || o}, new ${+n.toFixed?.(2) || n}`);
}
