// Restart time and RSS at 1M (and with --3m, 3M) stored charges (sandbox.md 6.1), seeded by the generator
// test/store/big-data.test.ts uses (bench/seed-file.mjs), not by HTTP calls: `node bench/big-data.mjs [--3m] [--rounds N]`
// after `npm run build`. Each size is restarted N times (3 by default), the sizes taking turns, so that a busy spell
// of a shared machine falls on both; a row gives every restart and their median, and the ratio of the medians. One
// RSS reading per size. Prints a JSON line a size and writes them, with the load average before and after, to
// bench/results/big-data.json.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { restartMs, rssAfterGc, sampleCharge, seedFile } from './storage.mjs';

/** A heap with room for twice the charges a file of `bytes` holds (600 bytes of file and 2,048 of budget a charge, the
 * budget three quarters of the heap), at most three quarters of this machine's memory: no start runs near its limit. */
const heapFor = (bytes) => [`--max-old-space-size=${Math.min(Math.ceil((2 * Math.ceil(bytes / 600) * 2048) / 0.75 / 1048576), Math.floor((totalmem() * 0.75) / 1048576))}`];

const sizes = process.argv.includes('--3m') ? [1_000_000, 3_000_000] : [1_000_000];
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = join(tmpdir(), `pix-sandbox-big-data-bench-${process.pid}`);
mkdirSync(dir, { recursive: true });
const results = { date: new Date().toISOString(), node: process.version, loadBefore: loadavg().map((l) => +l.toFixed(1)), rows: [] };
try {
  const sample = await sampleCharge(dir);
  const empty = seedFile(dir, sample, 0);
  const rssEmpty = await rssAfterGc(['--data', empty], 4772);
  const seeded = sizes.map((n) => {
    const t0 = performance.now();
    const file = seedFile(dir, sample, n);
    return { n, file, seedMs: Math.round(performance.now() - t0), bytes: statSync(file).size, restarts: [] };
  });
  for (let round = 0; round < rounds; round++) for (const s of seeded) s.restarts.push(Math.round(await restartMs(s.file, 4773, heapFor(s.bytes))));
  for (const s of seeded) {
    const rss = await rssAfterGc(['--data', s.file], 4774, heapFor(s.bytes));
    const row = { charges: s.n, fileBytes: s.bytes, seedMs: s.seedMs, restartsMs: s.restarts, restartMs: median(s.restarts), rssBytes: rss, rssPerCharge: Math.round((rss - rssEmpty) / s.n) };
    results.rows.push(row);
    console.log(JSON.stringify(row));
    rmSync(s.file, { force: true });
  }
  if (results.rows.length === 2) console.log(`restart ratio ${(results.rows[1].restartMs / results.rows[0].restartMs).toFixed(2)} (medians)`);
  results.loadAfter = loadavg().map((l) => +l.toFixed(1));
  writeFileSync(new URL('results/big-data.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
