// node bench/rss-ab.mjs [REF | --dir DIR] [--records 20000,60000,100000]: RSS per charge made through POST /v2/pix, this
// build (dist/) against another commit's build (REF, built as bench/ab.mjs does, or an already built checkout --dir),
// filled alternately step by step in one run, as bench/peer.mjs fills its two servers (50 connections, the body of
// bench/run.mjs; a GC through bench/gc-on-signal.mjs, then VmRSS, minus the same after 1,001 charges). Prints new / old.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { buildRef, start, stop, waitUntilAnswering } from './processes.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const ref = args[0] && !args[0].startsWith('--') ? args[0] : 'HEAD';
const given = opt('dir', '');
const counts = opt('records', '20000,60000,100000').split(',').map(Number);
const baseDir = given || buildRef(ref);

const rss = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const json = { 'content-type': 'application/json' };
const sides = [
  { name: 'old', dir: baseDir, port: 4881 },
  { name: 'new', dir: ROOT, port: 4882 },
];
for (const side of sides) {
  side.child = start(process.execPath, ['--expose-gc', '--import', join(ROOT, 'bench/gc-on-signal.mjs'), join(side.dir, 'dist/cli.js'), '--port', String(side.port)]);
  const base = `http://127.0.0.1:${side.port}`;
  await waitUntilAnswering(`${base}/_sandbox/health`, side.child, performance.now());
  await fetch(`${base}/_sandbox/accounts/11111111-1111-4111-8111-111111111111`, { method: 'PATCH', headers: json, body: JSON.stringify({ fees: { pix: { percent: 0.99 } } }) });
  side.base = base;
  side.stored = 0;
}
async function fill(side, n) {
  // A token lives 5 minutes: each fill takes a fresh one (a slow machine fills 100k in more than that).
  const auth = await (await fetch(`${side.base}/v2/auth`, { method: 'POST', headers: json, body: JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' }) })).json();
  const create = { url: `${side.base}/v2/pix`, method: 'POST', headers: { ...json, authorization: `Bearer ${auth.access_token}` }, body: JSON.stringify({ amount: 25.9, description: 'Benchmark charge', externalReference: 'bench' }) };
  const r = await autocannon({ connections: 50, amount: n - side.stored, ...create });
  side.stored += r.requests.total - r.non2xx;
  if (r.non2xx || r.errors) console.error(`${side.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
}
async function rssAfterGc(side) {
  process.kill(side.child.pid, 'SIGUSR2');
  await delay(500);
  return rss(side.child.pid);
}
for (const side of sides) await fill(side, 1001);
for (const side of sides) side.baseline = { rss: await rssAfterGc(side), stored: side.stored };
try {
  for (const [i, n] of counts.entries()) {
    const row = {};
    for (const side of i % 2 ? [...sides].reverse() : sides) {
      await fill(side, n);
      row[side.name] = Math.round(((await rssAfterGc(side)) - side.baseline.rss) / (side.stored - side.baseline.stored));
    }
    console.log(`${n} charges: RSS per charge old ${row.old} B, new ${row.new} B, new / old ${(row.new / row.old).toFixed(2)}`);
  }
} finally {
  await Promise.all(sides.map((s) => stop(s.child)));
  if (!given) rmSync(baseDir, { recursive: true, force: true });
}
