// npm run bench:peer: pix-sandbox side by side with the nearest peer, vercel-labs emulate's Stripe emulator
// (sandbox.md 10), in one run with alternating rounds, so that the shared machine's load falls on both alike: only the
// ratios mean anything. Measures, at 50 connections, medians:
// - create: POST /v2/pix (QR image included; the body of bench/run.mjs) against POST /v1/payment_intents (a
//   form-encoded body of the same amount, description and reference, as Stripe's SDKs send it);
// - read by id: GET /v2/transactions/{id} against GET /v1/payment_intents/{id};
// - CPU per request of the server process (/proc/<pid>/stat, 10 ms ticks);
// - spawn to first answered request (15 alternating pairs; `node dist/cli.js` against `node <emulate>/packages/
//   emulate/dist/index.js start --service stripe`), with the CPU the process used until then;
// - RSS per stored record: both servers preloaded with bench/gc-on-signal.mjs, filled by creates to each count, a GC,
//   then VmRSS from /proc, minus the same after a few records.
// The peer is found through EMULATE_DIR (a built checkout of vercel-labs/emulate: docs/benchmarks.md says how);
// without it this prints that it skipped and why, and writes nothing.
// Writes bench/results/peer.{json,md}; npm run bench folds its target rows into latest.md with this run's date.
// Options: --quick (3 start pairs, 2 short rounds, 5k and 20k records), --rounds N, --records 20000,50000,100000.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { cpuMs, start, stop, waitUntilAnswering } from './processes.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const quick = args.includes('--quick');
const rounds = Number(opt('rounds', quick ? 2 : 4));
const duration = quick ? 2 : 4;
const startPairs = quick ? 3 : 15;
const recordCounts = opt('records', quick ? '5000,20000' : '20000,50000,100000').split(',').map(Number);
const CONNECTIONS = 50;

const emulateDir = process.env.EMULATE_DIR ? resolve(process.env.EMULATE_DIR) : '';
const emulateCli = emulateDir && join(emulateDir, 'packages/emulate/dist/index.js');
const skip = !emulateDir
  ? 'EMULATE_DIR is not set'
  : !existsSync(emulateCli)
    ? `${emulateCli} does not exist (EMULATE_DIR must be a checkout of vercel-labs/emulate with packages built)`
    : !existsSync(join(ROOT, 'dist/cli.js'))
      ? 'dist/cli.js does not exist (build first: node scripts/build.mjs)'
      : null;
if (skip) {
  console.log(`bench:peer skipped: ${skip}. Build the peer as docs/benchmarks.md says, then run EMULATE_DIR=/path/to/emulate npm run bench:peer.`);
  process.exit(0);
}

/** The middle item of `list` by `key` (the upper middle for an even count). */
const median = (list, key = (x) => x) => [...list].sort((a, b) => key(a) - key(b))[Math.floor(list.length / 2)];
/** Resident set size of a process, in bytes (/proc/<pid>/status). */
const rssBytes = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const load = () => loadavg().map((l) => +l.toFixed(2));

function peerVersion() {
  let commit = process.env.EMULATE_COMMIT ?? '';
  if (!commit) {
    try {
      commit = execFileSync('git', ['-C', emulateDir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      commit = 'unknown (not a git checkout; set EMULATE_COMMIT)';
    }
  }
  const version = JSON.parse(readFileSync(join(emulateDir, 'packages/emulate/package.json'), 'utf8')).version;
  return { dir: emulateDir, version, commit };
}

const results = { date: new Date().toISOString(), node: process.version, cores: cpus().length, loadAtStart: load(), peer: peerVersion(), connections: CONNECTIONS };
const GC = ['--expose-gc', '--import', join(ROOT, 'bench/gc-on-signal.mjs')];
const sides = [
  { name: 'sandbox', args: (port) => [join(ROOT, 'dist/cli.js'), '--port', String(port)], health: '/_sandbox/health' },
  // emulate's CLI loads only the services asked for; GET /v1/customers is its cheapest answer with a 200.
  { name: 'emulate', args: (port) => [emulateCli, 'start', '--service', 'stripe', '--port', String(port)], health: '/v1/customers' },
];
const [sandbox, emulate] = sides;

// emulate counts requests per token (5,000 an hour, then 403) and takes any `sk_test_` key: the key changes every
// 4,000 requests. The sandbox's requests go through the same setupRequest (unchanged), so that autocannon rebuilds
// every request on both sides alike.
let issued = 0;
const rotatingKey = (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer sk_test_bench_${Math.floor(issued++ / 4000)}` } });
const asIs = (req) => req;

async function spawnSide(side, port, preload = []) {
  const child = start(process.execPath, [...preload, ...side.args(port)]);
  const base = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${base}${side.health}`, child, performance.now());
  return { child, base };
}

/** Sets a running side up for load: the sandbox as bench/run.mjs does (fees on, a token, one charge), emulate with one
 * payment intent. Returns the create and read requests. */
async function prepare(side, { child, base }) {
  if (side === sandbox) {
    const json = { 'content-type': 'application/json' };
    await fetch(`${base}/_sandbox/accounts/11111111-1111-4111-8111-111111111111`, { method: 'PATCH', headers: json, body: JSON.stringify({ fees: { pix: { percent: 0.99 } } }) });
    const token = async () => (await (await fetch(`${base}/v2/auth`, { method: 'POST', headers: json, body: JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' }) })).json()).access_token;
    const headers = { ...json, authorization: `Bearer ${await token()}` };
    const body = JSON.stringify({ amount: 25.9, description: 'Benchmark charge', externalReference: 'bench' });
    const id = (await (await fetch(`${base}/v2/pix`, { method: 'POST', headers, body })).json()).id;
    return {
      child,
      // A token lives 300 s: each step of the fill takes a new one (a slow machine's fill outlasts one).
      renew: async () => void (headers.authorization = `Bearer ${await token()}`),
      create: { url: `${base}/v2/pix`, method: 'POST', headers, body, requests: [{ setupRequest: asIs }] },
      read: { url: `${base}/v2/transactions/${id}`, headers, requests: [{ setupRequest: asIs }] },
    };
  }
  const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer sk_test_bench_setup' };
  const body = new URLSearchParams({ amount: '2590', currency: 'brl', description: 'Benchmark charge', 'metadata[externalReference]': 'bench' }).toString();
  const id = (await (await fetch(`${base}/v1/payment_intents`, { method: 'POST', headers, body })).json()).id;
  return {
    child,
    renew: async () => {},
    create: { url: `${base}/v1/payment_intents`, method: 'POST', headers, body, requests: [{ setupRequest: rotatingKey }] },
    read: { url: `${base}/v1/payment_intents/${id}`, headers: { authorization: headers.authorization }, requests: [{ setupRequest: rotatingKey }] },
  };
}

async function measure(target, opts) {
  const before = cpuMs(target.child.pid);
  const r = await autocannon({ connections: CONNECTIONS, ...opts });
  const cpu = cpuMs(target.child.pid) - before;
  return { reqPerSec: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, cpuUsPerRequest: Math.round((cpu * 1000) / Math.max(r.requests.total, 1)), requests: r.requests.total, non2xx: r.non2xx, errors: r.errors };
}

// 1. Spawn to first answered request, alternating pairs (which side goes first alternates too).
const startTimes = { sandbox: [], emulate: [] };
const startCpu = { sandbox: [], emulate: [] };
for (let i = 0; i < startPairs; i++) {
  for (const [k, side] of (i % 2 ? [...sides].reverse() : sides).entries()) {
    const port = 4931 + k;
    const t0 = performance.now();
    const child = start(process.execPath, side.args(port));
    startTimes[side.name].push(await waitUntilAnswering(`http://127.0.0.1:${port}${side.health}`, child, t0));
    startCpu[side.name].push(cpuMs(child.pid));
    await stop(child);
  }
}
results.startup = {
  pairs: startPairs,
  sandbox: { medianMs: +median(startTimes.sandbox).toFixed(1), cpuMs: median(startCpu.sandbox) },
  emulate: { medianMs: +median(startTimes.emulate).toFixed(1), cpuMs: median(startCpu.emulate) },
};
results.startup.ratio = +median(startTimes.sandbox.map((t, i) => t / startTimes.emulate[i])).toFixed(2);
console.log(`spawn to first answer: sandbox ${results.startup.sandbox.medianMs} ms, emulate ${results.startup.emulate.medianMs} ms, ratio ${results.startup.ratio}`);

// 2. Create and read, in alternating rounds.
const running = [await prepare(sandbox, await spawnSide(sandbox, 4935)), await prepare(emulate, await spawnSide(emulate, 4936))];
const kinds = ['create', 'read'];
for (const kind of kinds) for (const target of running) await autocannon({ connections: CONNECTIONS, duration: quick ? 1 : 2, ...target[kind] }); // warm-up (JIT)
const runs = { create: { sandbox: [], emulate: [] }, read: { sandbox: [], emulate: [] } };
for (let i = 0; i < rounds; i++) {
  for (const kind of kinds) {
    for (const k of i % 2 ? [1, 0] : [0, 1]) {
      const r = await measure(running[k], { duration, ...running[k][kind] });
      runs[kind][sides[k].name].push(r);
      console.log(`round ${i + 1} ${kind} ${sides[k].name}: ${r.reqPerSec} req/s, p99 ${r.p99Ms} ms, ${r.cpuUsPerRequest} us CPU/request, non-2xx ${r.non2xx}`);
    }
  }
}
await Promise.all(running.map((t) => stop(t.child)));
results.throughput = { rounds, durationS: duration };
for (const kind of kinds) {
  const { sandbox: a, emulate: b } = runs[kind];
  results.throughput[kind] = {
    sandbox: median(a, (r) => r.reqPerSec),
    emulate: median(b, (r) => r.reqPerSec),
    ratio: +median(a.map((r, i) => r.reqPerSec / b[i].reqPerSec)).toFixed(2),
    cpuRatio: +median(a.map((r, i) => r.cpuUsPerRequest / b[i].cpuUsPerRequest)).toFixed(2),
  };
}

// 3. RSS per stored record: both filled by creates, step by step, alternately.
const filled = [await prepare(sandbox, await spawnSide(sandbox, 4937, GC)), await prepare(emulate, await spawnSide(emulate, 4938, GC))];
async function rssAfterGc(target) {
  process.kill(target.child.pid, 'SIGUSR2');
  await delay(500);
  return rssBytes(target.child.pid);
}
const stored = [1, 1]; // the one record prepare() made
for (const [k, target] of filled.entries()) {
  await autocannon({ connections: CONNECTIONS, amount: 1000, ...target.create }); // warm-up, counted as stored
  stored[k] += 1000;
}
const baseline = await Promise.all(filled.map(rssAfterGc));
const baseStored = [...stored];
const previous = filled.map((_, k) => ({ rss: baseline[k], stored: stored[k] }));
results.rss = { baselineBytes: { sandbox: baseline[0], emulate: baseline[1] }, rows: [] };
for (const n of recordCounts) {
  const row = { records: n };
  for (const [k, target] of filled.entries()) {
    await target.renew();
    const r = await autocannon({ connections: CONNECTIONS, amount: n - stored[k], ...target.create });
    stored[k] += r.requests.total - r.non2xx;
    if (r.non2xx || r.errors) console.error(`${sides[k].name}: ${r.non2xx} non-2xx, ${r.errors} errors while filling`);
    const rss = await rssAfterGc(target);
    // Also what each record added since the previous count: the baseline's slack (heap space V8 keeps) weighs less.
    const sincePrevious = Math.round((rss - previous[k].rss) / (stored[k] - previous[k].stored));
    previous[k] = { rss, stored: stored[k] };
    row[sides[k].name] = { stored: stored[k], rssBytes: rss, bytesPerRecord: Math.round((rss - baseline[k]) / (stored[k] - baseStored[k])), sincePrevious };
  }
  row.ratio = +(row.sandbox.bytesPerRecord / row.emulate.bytesPerRecord).toFixed(2);
  results.rss.rows.push(row);
  console.log(`RSS per record at ${n}: sandbox ${row.sandbox.bytesPerRecord} B, emulate ${row.emulate.bytesPerRecord} B, ratio ${row.ratio}`);
}
await Promise.all(filled.map((t) => stop(t.child)));
results.loadAtEnd = load();

// 4. Each figure beside its target (sandbox.md 10).
const { create, read } = results.throughput;
const s = results.startup;
const lastRss = results.rss.rows.at(-1);
const targets = [
  ['`POST /v2/pix` (QR included) / emulate `POST /v1/payment_intents`, c=50', `${create.sandbox.reqPerSec} / ${create.emulate.reqPerSec} req/s = ${create.ratio}`, '>= 1.2', create.ratio >= 1.2],
  ['read by id: `GET /v2/transactions/{id}` / emulate `GET /v1/payment_intents/{id}`, c=50', `${read.sandbox.reqPerSec} / ${read.emulate.reqPerSec} req/s = ${read.ratio}`, '>= 2', read.ratio >= 2],
  [`spawn to first answer, sandbox / emulate (${s.pairs} pairs)`, `${s.sandbox.medianMs} / ${s.emulate.medianMs} ms = ${s.ratio}`, '<= 1', s.ratio <= 1],
  // bench/storage.mjs measures charges loaded from a data file; these were made through POST /v2/pix.
  [`RSS per stored charge made through the API, at ${lastRss.records} (emulate's per payment intent beside it)`, `${lastRss.sandbox.bytesPerRecord} B (emulate ${lastRss.emulate.bytesPerRecord} B, ratio ${lastRss.ratio})`, '<= 1024 B', lastRss.sandbox.bytesPerRecord <= 1024],
];
results.targets = targets.map(([what, figure, target, met]) => ({ what, figure, target, met }));
mkdirSync(new URL('results/', import.meta.url), { recursive: true });
writeFileSync(new URL('results/peer.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
const side = (r) => `${r.reqPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.cpuUsPerRequest} us CPU/request, non-2xx ${r.non2xx}`;
const md = [
  `# pix-sandbox beside vercel-labs emulate's Stripe emulator (${results.date}, Node ${results.node})`,
  '',
  `emulate ${results.peer.version} at ${results.peer.commit}. Load average ${results.loadAtStart.join(' ')} at the start, ${results.loadAtEnd.join(' ')} at the end, on ${results.cores} cores. ${CONNECTIONS} connections; ratios are medians of the rounds' ratios (sandbox / emulate), the figures each side's median round.`,
  '',
  '## Targets (sandbox.md 10)',
  '',
  '| what | figure | target | |',
  '|---|---|---|---|',
  ...targets.map(([what, figure, target, met]) => `| ${what} | ${figure} | ${target} | ${met ? 'met' : '**missed**'} |`),
  '',
  `## Throughput (${rounds} alternating rounds of ${duration} s)`,
  '',
  '| measure | pix-sandbox | emulate | ratio | CPU/request ratio |',
  '|---|---|---|---|---|',
  ...kinds.map((kind) => `| ${kind} | ${side(results.throughput[kind].sandbox)} | ${side(results.throughput[kind].emulate)} | **${results.throughput[kind].ratio}** | ${results.throughput[kind].cpuRatio} |`),
  '',
  '## Start-up (spawn to first answered request, median)',
  '',
  `| | pix-sandbox | emulate | ratio |`,
  '|---|---|---|---|',
  `| wall ms | ${s.sandbox.medianMs} | ${s.emulate.medianMs} | **${s.ratio}** |`,
  `| CPU ms of the process until then | ${s.sandbox.cpuMs} | ${s.emulate.cpuMs} | ${(s.sandbox.cpuMs / s.emulate.cpuMs).toFixed(2)} |`,
  '',
  '## RSS per stored record (after a GC, minus a baseline after 1,001 records)',
  '',
  `Baseline RSS: sandbox ${Math.round(results.rss.baselineBytes.sandbox / 1048576)} MB, emulate ${Math.round(results.rss.baselineBytes.emulate / 1048576)} MB.`,
  '',
  '| records | pix-sandbox B/record | emulate B/record | ratio | B per record added since the row above: pix-sandbox / emulate |',
  '|---|---|---|---|---|',
  ...results.rss.rows.map((r) => `| ${r.records} | ${r.sandbox.bytesPerRecord} | ${r.emulate.bytesPerRecord} | ${r.ratio} | ${r.sandbox.sincePrevious} / ${r.emulate.sincePrevious} |`),
  '',
].join('\n');
writeFileSync(new URL('results/peer.md', import.meta.url), md);
console.log(`\n${md}`);
