// Restart time and RSS at 1M (and with --3m, 3M) stored charges (issue 39, sandbox.md 6.1), seeded by the generator
// test/store/big-data.test.ts uses (bench/seed-file.mjs), not by HTTP calls: `node bench/big-data.mjs [--3m]` after
// `npm run build`. One restart and one RSS reading per size (each takes seconds to a minute); prints a JSON line a size
// and writes them, with the load average before and after, to bench/results/big-data.json.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { restartMs, rssAfterGc, sampleCharge, seedFile } from './storage.mjs';

/** A heap with room for twice the charges a file of `bytes` holds (600 bytes of file and 2,048 of budget a charge, the
 * budget three quarters of the heap), at most three quarters of this machine's memory: no start runs near its limit. */
const heapFor = (bytes) => [`--max-old-space-size=${Math.min(Math.ceil((2 * Math.ceil(bytes / 600) * 2048) / 0.75 / 1048576), Math.floor((totalmem() * 0.75) / 1048576))}`];

const sizes = process.argv.includes('--3m') ? [1_000_000, 3_000_000] : [1_000_000];
const dir = join(tmpdir(), `pix-sandbox-big-data-bench-${process.pid}`);
mkdirSync(dir, { recursive: true });
const results = { date: new Date().toISOString(), node: process.version, loadBefore: loadavg().map((l) => +l.toFixed(1)), rows: [] };
try {
  const sample = await sampleCharge(dir);
  const empty = seedFile(dir, sample, 0);
  const rssEmpty = await rssAfterGc(['--data', empty], 4772);
  for (const n of sizes) {
    const t0 = performance.now();
    const file = seedFile(dir, sample, n);
    const seedMs = Math.round(performance.now() - t0);
    const bytes = statSync(file).size;
    const restart = Math.round(await restartMs(file, 4773, heapFor(bytes)));
    const rss = await rssAfterGc(['--data', file], 4774, heapFor(bytes));
    const row = { charges: n, fileBytes: bytes, seedMs, restartMs: restart, rssBytes: rss, rssPerCharge: Math.round((rss - rssEmpty) / n) };
    results.rows.push(row);
    console.log(JSON.stringify(row));
    rmSync(file, { force: true });
  }
  results.loadAfter = loadavg().map((l) => +l.toFixed(1));
  writeFileSync(new URL('results/big-data.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
