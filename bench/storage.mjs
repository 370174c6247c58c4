// Storage bench (sandbox.md 6), run by `npm run bench` after the rest, or alone: `node bench/storage.mjs [--quick]`.
// At 1k, 10k and 100k stored charges (seeded by writing a data file directly, not by HTTP calls):
// - POST /v2/pix with --data vs in memory with the same stored charges (alternating rounds, same run): the ratio;
// - restart time: spawn of `node dist/cli.js --data FILE` to its first answered request;
// - data file bytes and RSS per stored charge (RSS after a GC, minus that of a sandbox with no stored charges);
// - what folding the journal costs while it runs: POST /v2/pix with a fold always running, the longest event-loop
//   pause, the fold's duration.
// Writes bench/results/storage.{json,md}.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { writeSeedFile } from './seed-file.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const CREDENTIAL = { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' };
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

function start(args, extraNode = [], cwd = ROOT) {
  const child = spawn(process.execPath, [...extraNode, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.resume();
  child.output = () => out;
  return child;
}

async function answering(url, child) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before answering ${url}`);
    await delay(2);
  }
}

async function stop(child) {
  if (child.exitCode !== null) return child.output();
  const done = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await done;
  await delay(50);
  return child.output();
}

async function token(base) {
  const res = await fetch(`${base}/v2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CREDENTIAL) });
  return (await res.json()).access_token;
}

const chargeBody = JSON.stringify({ amount: 25.9, description: 'Benchmark charge', externalReference: 'bench' });

async function postPix(base, auth, duration) {
  const r = await autocannon({ url: `${base}/v2/pix`, method: 'POST', headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, body: chargeBody, connections: 10, duration });
  return { reqPerSec: Math.round(r.requests.average), p99Ms: r.latency.p99, non2xx: r.non2xx };
}

/** A data file holding `n` stored charges, cloned from one real charge (sampleCharge) with fresh ids. */
export function seedFile(dir, sample, n) {
  const file = join(dir, `seed-${n}.json`);
  writeSeedFile(file, { state: sample.state, charge: sample.charge, id: sample.id, accountId: ACCOUNT, n });
  return file;
}

/** One real charge made by a sandbox (cancelled, to clone) and the state around it, for seedFile. */
export async function sampleCharge(dir) {
  const sampleFile = join(dir, 'sample.json');
  const s = start(['bench/storage-server.mjs', '4761', '--data', sampleFile]);
  await answering('http://127.0.0.1:4761/_sandbox/health', s);
  const created = await (await fetch('http://127.0.0.1:4761/v2/pix', { method: 'POST', headers: { authorization: `Bearer ${await token('http://127.0.0.1:4761')}`, 'content-type': 'application/json' }, body: chargeBody })).json();
  await stop(s);
  const sampleState = JSON.parse(readFileSync(sampleFile, 'utf8'));
  const charge = sampleState.accounts[ACCOUNT].transactions[created.id];
  delete sampleState.accounts[ACCOUNT].transactions[created.id];
  sampleState.jobs = {};
  return { state: JSON.stringify(sampleState), id: created.id, charge: JSON.stringify({ ...charge, status: 'cancelled' }) };
}

/**
 * POST /v2/pix for `duration` s on a storage-server of the build in `dir` with data file `file` (and `extra` options):
 * the load's figures, and the server's stats (event-loop delay, compaction) printed as it stops.
 */
export async function postPixOn(dir, file, extra, port, duration) {
  const child = start(['bench/storage-server.mjs', String(port), '--data', file, ...extra], [], dir);
  await answering(`http://127.0.0.1:${port}/_sandbox/health`, child);
  const result = await postPix(`http://127.0.0.1:${port}`, await token(`http://127.0.0.1:${port}`), duration);
  return { result, stats: JSON.parse(/stats (.*)/.exec(await stop(child))[1]) };
}

export async function restartMs(file, port, nodeFlags = []) {
  const copy = `${file}.restart.json`;
  copyFileSync(file, copy);
  const t0 = performance.now();
  const child = start(['dist/cli.js', '--port', String(port), '--data', copy], nodeFlags);
  await answering(`http://127.0.0.1:${port}/_sandbox/health`, child);
  const ms = performance.now() - t0;
  await stop(child);
  rmSync(copy, { force: true });
  rmSync(`${copy}.journal`, { force: true });
  return ms;
}

export async function rssAfterGc(args, port, nodeFlags = []) {
  const child = start(['bench/storage-server.mjs', String(port), ...args], ['--expose-gc', ...nodeFlags]);
  await answering(`http://127.0.0.1:${port}/_sandbox/health`, child);
  await delay(300); // storage-server ran a GC before listening
  const rss = (await (await fetch(`http://127.0.0.1:${port}/_sandbox/health`)).json()).rssBytes;
  await stop(child);
  return rss;
}

export async function runStorageBench({ quick = false } = {}) {
  const dir = join(tmpdir(), `pix-sandbox-storage-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const sizes = quick ? [1000, 10000] : [1000, 10000, 100000];
  const duration = quick ? 3 : 5;
  const rounds = quick ? 1 : 2;
  const results = { date: new Date().toISOString(), node: process.version, rows: [] };

  const sample = await sampleCharge(dir);
  const emptyFile = seedFile(dir, sample, 0);
  const rssEmpty = await rssAfterGc(['--data', `${emptyFile}`], 4762);
  // The same restart with no stored charges: on a loaded machine, the absolute times say little without it.
  const restartEmpty = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) restartEmpty.push(await restartMs(emptyFile, 4763));
  results.restartWithNoChargesMs = Math.round(median(restartEmpty));

  for (const n of sizes) {
    const file = seedFile(dir, sample, n);
    const bytes = statSync(file).size;
    const restart = [];
    for (let i = 0; i < (quick ? 1 : 3); i++) restart.push(await restartMs(file, 4763));
    const rss = await rssAfterGc(['--data', file], 4764);
    rmSync(`${file}.journal`, { force: true });

    // Throughput, alternating: --data vs memory with the same stored charges.
    const dataCopy = join(dir, `data-${n}.json`);
    copyFileSync(file, dataCopy);
    const data = start(['bench/storage-server.mjs', '4765', '--data', dataCopy]);
    const memory = start(['bench/storage-server.mjs', '4766', '--memory', file]);
    await answering('http://127.0.0.1:4765/_sandbox/health', data);
    await answering('http://127.0.0.1:4766/_sandbox/health', memory);
    const tokens = [await token('http://127.0.0.1:4765'), await token('http://127.0.0.1:4766')];
    await postPix('http://127.0.0.1:4765', tokens[0], 1);
    await postPix('http://127.0.0.1:4766', tokens[1], 1);
    const withData = [];
    const inMemory = [];
    for (let r = 0; r < rounds; r++) {
      withData.push(await postPix('http://127.0.0.1:4765', tokens[0], duration));
      inMemory.push(await postPix('http://127.0.0.1:4766', tokens[1], duration));
    }
    await stop(data);
    await stop(memory);

    // Folding while it runs: a threshold of 1 byte keeps a fold running all the time.
    const foldCopy = join(dir, `fold-${n}.json`);
    copyFileSync(file, foldCopy);
    const { result: underFold, stats: foldStats } = await postPixOn(ROOT, foldCopy, ['--compact-after', '1'], 4767, duration);

    const ratios = withData.map((w, i) => w.reqPerSec / inMemory[i].reqPerSec);
    const row = {
      storedCharges: n,
      postPixWithData: median(withData.map((w) => w.reqPerSec)),
      postPixInMemory: median(inMemory.map((w) => w.reqPerSec)),
      ratio: +median(ratios).toFixed(2),
      p99WithDataMs: median(withData.map((w) => w.p99Ms)),
      restartMs: Math.round(median(restart)),
      fileBytesPerCharge: Math.round(bytes / Math.max(n, 1)),
      rssBytesPerCharge: Math.round((rss - rssEmpty) / n),
      postPixWhileFolding: underFold.reqPerSec,
      p99WhileFoldingMs: underFold.p99Ms,
      foldMs: foldStats.compaction?.lastMs ?? null,
      folds: foldStats.compaction?.runs ?? 0,
      longestFoldSliceMs: foldStats.compaction?.lastLongestSliceMs ?? null,
      eventLoopDelayMaxWhileFoldingMs: foldStats.eventLoopDelayMaxMs,
    };
    results.rows.push(row);
    console.log(`storage ${n}: ${JSON.stringify(row)}`);
    for (const f of [file, dataCopy, foldCopy]) for (const x of [f, `${f}.journal`, `${f}.journal.old`, `${f}.lock`]) rmSync(x, { force: true });
  }
  rmSync(dir, { recursive: true, force: true });

  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('results/storage.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  const md = [
    `# Storage bench (${results.date}, Node ${results.node})`,
    '',
    `POST /v2/pix, 10 connections, ${duration} s, median of ${rounds} alternating round(s) per side. RSS per charge: after start-up and a GC, minus a sandbox with no stored charges. Restart of the same sandbox with no stored charges: ${results.restartWithNoChargesMs} ms.`,
    '',
    '| stored charges | --data req/s | memory req/s | ratio (target >= 0.5) | --data p99 ms | restart ms (target <= 2000) | file bytes/charge | RSS bytes/charge | req/s while folding | p99 while folding ms | one fold ms | longest fold slice ms | max event-loop delay while folding ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.rows.map((r) => `| ${r.storedCharges} | ${r.postPixWithData} | ${r.postPixInMemory} | **${r.ratio}** | ${r.p99WithDataMs} | **${r.restartMs}** | ${r.fileBytesPerCharge} | ${r.rssBytesPerCharge} | ${r.postPixWhileFolding} | ${r.p99WhileFoldingMs} | ${r.foldMs} | ${r.longestFoldSliceMs} | ${r.eventLoopDelayMaxWhileFoldingMs} |`),
    '',
  ].join('\n');
  writeFileSync(new URL('results/storage.md', import.meta.url), md);
  console.log(`\n${md}`);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await runStorageBench({ quick: process.argv.includes('--quick') });
