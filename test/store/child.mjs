// A sandbox on a data file in a child process, for the lock and crash tests: `node child.mjs FILE COMPACT_AFTER_BYTES`.
// Prints `ready <url>` once listening; every store log line goes to stdout too (compaction start/end). CHILD_OPTIONS
// (JSON) adds options of createSandbox (the retention crash test gives retainTransactions).
import { createSandbox } from '../../dist/index.js';

const [file, compact] = process.argv.slice(2);
try {
  const sb = await createSandbox({ dataFile: file, compactAfterBytes: Number(compact ?? 8388608), log: (l) => process.stdout.write(`${l}\n`), clockStart: '2026-03-10T12:00:00.000Z', freezeClock: true, ...JSON.parse(process.env.CHILD_OPTIONS ?? '{}') });
  const url = await sb.listen({ port: 0 });
  process.once('SIGTERM', async () => {
    await sb.close();
    process.exit(0);
  });
  process.stdout.write(`ready ${url}\n`);
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
