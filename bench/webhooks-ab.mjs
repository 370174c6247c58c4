// node bench/webhooks-ab.mjs [REF] [--rounds N] [--events N] [--endpoints N]: the webhook fan-out of this build (dist/)
// against another commit's build (REF, default HEAD, built as bench/ab.mjs builds it), in alternating rounds in one
// run, so that a shared machine's load falls on both alike. Both sandboxes run side by side (each its own process,
// memory state, real clock) with their default endpoint pointed at one receiver in this process (answering 200 and
// checking every signature); each round makes N charges on one side, then pays them 20 at a time and waits until the
// receiver has every delivery, then the same on the other side (the order swapped every round). What it compares is the
// sandbox process's CPU time (user + system, /proc) per delivery, pay call included, as bench/webhooks.mjs measures it;
// the rates are printed too, but on a shared 2-core machine only the CPU ratio means much. Prints new / old medians.
// The receiver and the client are bench/webhooks.mjs's (bench/webhook-parts.mjs). --dir DIR takes an already built
// checkout (its dist/) as the old side instead of building REF.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { buildRef } from './processes.mjs';
import { apiClient, inParallel, processCpuMs, startReceiver } from './webhook-parts.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '6' }, events: { type: 'string', default: '1000' }, endpoints: { type: 'string', default: '1' }, dir: { type: 'string' } },
});
const ref = positionals[0] ?? 'HEAD';
const ROUNDS = Number(values.rounds);
const EVENTS = Number(values.events);
const ENDPOINTS = Number(values.endpoints);
const CONCURRENCY = 20;
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const SECRET = 'whsec_sandbox_default_secret';
const ROOT = new URL('..', import.meta.url).pathname;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const baseDir = values.dir ?? buildRef(ref);

const secrets = new Map();
let waiters = [];
const receiver = await startReceiver((path) => secrets.get(path), () => {
  const ready = waiters;
  waiters = [];
  for (const w of ready) w();
});
const receiverUrl = receiver.url;
const until = (ok) => new Promise((resolve) => { const check = () => (ok() ? resolve() : waiters.push(check)); check(); });

const sides = [
  { name: 'old', cli: join(baseDir, 'dist/cli.js'), port: 4891 },
  { name: 'new', cli: join(ROOT, 'dist/cli.js'), port: 4892 },
];

const call = (side, ...args) => side.client.call(...args);

for (const s of sides) {
  s.child = spawn(process.execPath, [s.cli, '--port', String(s.port), '--webhook-url', `${receiverUrl}/${s.name}/1`], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${s.port}/_sandbox/health`)).ok) break;
    } catch {
      /* not yet */
    }
    if (s.child.exitCode !== null) throw new Error(`${s.name} exited with ${s.child.exitCode}`);
    await delay(5);
  }
  s.client = apiClient(`http://127.0.0.1:${s.port}`, CONCURRENCY);
  secrets.set(`/${s.name}/1`, SECRET);
  for (let i = 2; i <= ENDPOINTS; i++) {
    const path = `/${s.name}/${i}`;
    secrets.set(path, (await call(s, 'POST', `/_sandbox/accounts/${ACCOUNT}/webhooks`, { url: `${receiverUrl}${path}` })).secret);
  }
  s.cpu = [];
  s.rate = [];
}

async function round(s, events, record) {
  const headers = { authorization: `Bearer ${(await call(s, 'POST', '/v2/auth', { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' })).access_token}` };
  const ids = [];
  await inParallel(Array.from({ length: events }), CONCURRENCY, async () => ids.push((await call(s, 'POST', '/v2/pix', { amount: 25.9, description: 'webhook bench' }, headers)).id));
  const start = receiver.stats.received;
  const cpu0 = processCpuMs(s.child.pid);
  const t0 = performance.now();
  await inParallel(ids, CONCURRENCY, (id) => call(s, 'POST', `/_sandbox/transactions/${id}/pay`, {}));
  await until(() => receiver.stats.received - start >= events * ENDPOINTS);
  const seconds = (performance.now() - t0) / 1000;
  if (!record) return;
  s.cpu.push(((processCpuMs(s.child.pid) - cpu0) * 1000) / (events * ENDPOINTS));
  s.rate.push((events * ENDPOINTS) / seconds);
}

for (const s of sides) await round(s, Math.min(EVENTS, 500), false); // warm-up
for (let i = 0; i < ROUNDS; i++) {
  for (const s of i % 2 ? [...sides].reverse() : sides) await round(s, EVENTS, true);
  const [o, n] = sides;
  console.log(`round ${i + 1}: CPU per delivery old ${o.cpu[i].toFixed(0)} us, new ${n.cpu[i].toFixed(0)} us (${(n.cpu[i] / o.cpu[i]).toFixed(2)}); deliveries/s old ${o.rate[i].toFixed(0)}, new ${n.rate[i].toFixed(0)}`);
}
for (const s of sides) {
  const done = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await done;
  await s.client.close();
}
receiver.close();
if (!values.dir) rmSync(baseDir, { recursive: true, force: true });

const [o, n] = sides;
const ratios = n.cpu.map((v, i) => v / o.cpu[i]);
console.log(`\nthis build (new) against ${values.dir ?? ref} (old), ${ROUNDS} alternating rounds of ${EVENTS} events to ${ENDPOINTS} endpoint(s), medians:`);
console.log(`sandbox CPU per delivery (us, pay call included): old ${median(o.cpu).toFixed(0)}, new ${median(n.cpu).toFixed(0)}, new/old ${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(' ')})`);
console.log(`deliveries/s: old ${median(o.rate).toFixed(0)}, new ${median(n.rate).toFixed(0)}, new/old ${median(n.rate.map((v, i) => v / o.rate[i])).toFixed(2)}`);
if (receiver.stats.badSignatures || receiver.stats.unreadable) throw new Error(`bad deliveries: ${JSON.stringify(receiver.stats)}`);
