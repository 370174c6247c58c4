// A sandbox for the storage bench: `node bench/storage-server.mjs PORT (--data FILE [--compact-after BYTES] | --memory SEED_FILE)`.
// --memory loads the seed file's accounts into an in-memory sandbox (the same stored charges, no data file).
// Prints `ready` once listening; on SIGTERM prints `stats {json}` (event-loop delay, compaction) and exits.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createSandbox } from '../dist/index.js';

const args = process.argv.slice(2);
const port = Number(args[0]);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const dataFile = opt('--data');
const seed = opt('--memory');
const compactAfterBytes = opt('--compact-after') ? Number(opt('--compact-after')) : undefined;

const sb = await createSandbox({ dataFile, compactAfterBytes, log: (l) => process.stderr.write(`${l}\n`) });
if (seed) {
  const seeded = JSON.parse(readFileSync(seed, 'utf8'));
  for (const [id, account] of Object.entries(seeded.accounts)) Object.assign(sb.deps.store.raw.accounts[id].transactions, account.transactions);
}
globalThis.gc?.(); // with --expose-gc: RSS measured without the garbage of loading
await sb.listen({ port });
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
process.once('SIGTERM', async () => {
  delay.disable();
  const stats = { eventLoopDelayMaxMs: Math.round(delay.max / 1e6), eventLoopDelayP99Ms: Math.round(delay.percentile(99) / 1e6), compaction: sb.deps.store.compaction ?? null };
  process.stdout.write(`stats ${JSON.stringify(stats)}\n`);
  await sb.close();
  process.exit(0);
});
process.stdout.write('ready\n');
