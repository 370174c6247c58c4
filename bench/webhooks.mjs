// npm run bench:webhooks: how fast deliveries leave the sandbox. The sandbox runs as its own process (node dist/cli.js,
// real clock, memory state); the receiver is in this process, answering 200 and checking every signature.
//   latency  - from the moment the pay call is sent (the state change) to the receiver having the whole request;
//              payments one at a time, p50/p99.
//   fan-out  - many charges paid by 20 concurrent clients; events delivered per second to one endpoint, then to 5
//              endpoints (each event 5 deliveries). The pay calls run meanwhile, so this is the rate at which state
//              changes and their deliveries go through together (paysPerSecond shows the API's side of it). Warm: the
//              median of 3 rounds after a first one, which is reported as `cold`.
//   server CPU - the sandbox process's user + system time per delivery during each fan-out (pay calls included), from
//              /proc: less swayed by a shared machine's load than the rates; client CPU is this process's (the pay
//              calls and the receiver).
// The receiver and the client (bench/webhook-parts.mjs) share this process, and so the machine's 2 cores, with the
// sandbox they measure; they are made as cheap as they can be while doing the whole job, so that they do not cap the
// rate this bench reports below what the sandbox does: the receiver reads each delivery as HTTP/1.1 off its socket
// without node:http's server streams and checks its signature over the exact body bytes and parses its JSON before
// answering; the client calls over keep-alive connections with undici's dispatch (node:http's client cost about twice
// as much per call, Node's fetch about four times). What is measured is unchanged: a state change (the pay call,
// answered) to its delivery received and its signature checked, over real sockets, with the sandbox in its own process.
// Writes bench/results/webhooks.json. The machine may be shared: read the figures as orders of magnitude.
// --cli PATH runs another build's cli.js and prints its figures instead of writing them (alternating runs against
// another commit: see bench/ab.mjs for how to build one).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { apiClient, inParallel, processCpuMs, startReceiver } from './webhook-parts.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const LATENCY_SAMPLES = quick ? 100 : 400;
const FANOUT_EVENTS = quick ? 300 : 2000;
const FANOUT5_EVENTS = quick ? 100 : 500;
const CONCURRENCY = 20;
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const SECRET = 'whsec_sandbox_default_secret';
const PORT = 4781;

// Receiver: records arrival time per event id (bad signatures are counted by the receiver).
const arrivals = new Map(); // eventId -> [performance.now() of each delivery]
const secrets = new Map([['/hook', SECRET]]);
let waiters = [];
const receiver = await startReceiver((path) => secrets.get(path), ({ eventId }) => {
  const at = performance.now();
  if (!arrivals.has(eventId)) arrivals.set(eventId, []);
  arrivals.get(eventId).push(at);
  const ready = waiters;
  waiters = [];
  for (const w of ready) w();
});
const receiverUrl = receiver.url;
const until = (ok) => new Promise((resolve) => { const check = () => (ok() ? resolve() : waiters.push(check)); check(); });

// Sandbox process with its default endpoint pointed at the receiver.
const cliAt = process.argv.indexOf('--cli');
const cli = cliAt > 0 ? process.argv[cliAt + 1] : 'dist/cli.js';
const sandbox = spawn(process.execPath, [cli, '--port', String(PORT), '--webhook-url', `${receiverUrl}/hook`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
sandbox.stdout.resume();
const base = `http://127.0.0.1:${PORT}`;
for (;;) {
  try {
    if ((await fetch(`${base}/_sandbox/health`)).ok) break;
  } catch {
    /* not yet */
  }
  if (sandbox.exitCode !== null) throw new Error(`the sandbox exited with ${sandbox.exitCode}`);
  await delay(5);
}

// The client's calls (see the header): the JSON answer parsed, a non-2xx thrown.
const client = apiClient(base, CONCURRENCY);
const call = client.call;
const auth = async () => ({ authorization: `Bearer ${(await call('POST', '/v2/auth', { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' })).access_token}` });
const newCharge = async (headers) => (await call('POST', '/v2/pix', { amount: 25.9, description: 'webhook bench' }, headers)).id;
const pay = (id) => call('POST', `/_sandbox/transactions/${id}/pay`, {});

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (x) => +x.toFixed(2);

const results = { date: new Date().toISOString(), node: process.version, quick };

// 1. Latency, one payment at a time.
{
  let headers = await auth();
  const latencies = [];
  const payCalls = [];
  const afterAnswer = [];
  for (let i = 0; i < LATENCY_SAMPLES + 20; i++) {
    if (i % 100 === 0) headers = await auth();
    const id = await newCharge(headers);
    const t0 = performance.now();
    await pay(id);
    const answered = performance.now();
    await until(() => arrivals.has(id));
    if (i < 20) continue; // warm-up
    payCalls.push(answered - t0);
    latencies.push(arrivals.get(id)[0] - t0);
    afterAnswer.push(arrivals.get(id)[0] - answered); // negative when the delivery lands before the pay answer is read
  }
  for (const list of [latencies, payCalls, afterAnswer]) list.sort((a, b) => a - b);
  results.latency = {
    samples: latencies.length,
    stateChangeToReceiverMs: { p50: round(pct(latencies, 50)), p99: round(pct(latencies, 99)), max: round(latencies.at(-1)) },
    payCallMs: { p50: round(pct(payCalls, 50)), p99: round(pct(payCalls, 99)) },
    payAnswerToReceiverMs: { p50: round(pct(afterAnswer, 50)), p99: round(pct(afterAnswer, 99)) },
  };
  const { stateChangeToReceiverMs: l, payCallMs: c, payAnswerToReceiverMs: a } = results.latency;
  console.log(`latency pay sent -> receiver: p50 ${l.p50} ms, p99 ${l.p99} ms; the pay call itself p50 ${c.p50} / p99 ${c.p99} ms; pay answer -> receiver p50 ${a.p50} / p99 ${a.p99} ms (${latencies.length} samples)`);
}

/** CPU time (user + system, ms) the sandbox process has used so far. */
const sandboxCpuMs = () => processCpuMs(sandbox.pid);

// 2. Fan-out: N charges made first, then paid by 20 clients; time until the receiver has every delivery. Measured as
// the other throughputs are (bench/run.mjs, bench/peer.mjs): warm. A fresh process runs the pay and delivery code
// unoptimized for its first few thousand deliveries (at 500 a round: about 600/s in the first, 1,100 in the third,
// 1,600 from the sixth), so one round, then the median of FANOUT_ROUNDS; the first round is kept beside it as `cold`.
const FANOUT_ROUNDS = quick ? 1 : 3;
async function fanOut(events, endpoints) {
  const headers = await auth();
  const ids = [];
  await inParallel(Array.from({ length: events }), CONCURRENCY, async () => ids.push(await newCharge(headers)));
  const start = receiver.stats.received;
  const cpu0 = sandboxCpuMs();
  const ownCpu0 = process.cpuUsage();
  const t0 = performance.now();
  let paysDone = 0;
  await inParallel(ids, CONCURRENCY, async (id) => {
    await pay(id);
    paysDone = performance.now();
  });
  await until(() => receiver.stats.received - start >= events * endpoints);
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = sandboxCpuMs() - cpu0;
  const ownCpu = process.cpuUsage(ownCpu0);
  return {
    events,
    endpoints,
    deliveries: events * endpoints,
    seconds: round(seconds),
    eventsPerSecond: Math.round(events / seconds),
    deliveriesPerSecond: Math.round((events * endpoints) / seconds),
    paysPerSecond: Math.round(events / ((paysDone - t0) / 1000)),
    serverCpuUsPerDelivery: Math.round((cpuMs * 1000) / (events * endpoints)),
    clientCpuUsPerDelivery: Math.round((ownCpu.user + ownCpu.system) / (events * endpoints)),
  };
}

/** A warm-up round, then FANOUT_ROUNDS rounds: the median round's figures, every round's rate, and the first round. */
async function fanOutRounds(label, events, endpoints) {
  const cold = await fanOut(events, endpoints);
  const rounds = [];
  for (let i = 0; i < FANOUT_ROUNDS; i++) rounds.push(await fanOut(events, endpoints));
  const out = { ...rounds.sort((a, b) => a.deliveriesPerSecond - b.deliveriesPerSecond)[Math.floor(rounds.length / 2)], rounds: rounds.map((r) => r.deliveriesPerSecond), cold: cold.deliveriesPerSecond };
  results[label] = out;
  console.log(`${label}, median of ${rounds.length} rounds after one: ${out.eventsPerSecond} events/s, ${out.deliveriesPerSecond} deliveries/s (${out.deliveries} deliveries in ${out.seconds} s; pay calls ${out.paysPerSecond}/s; sandbox CPU ${out.serverCpuUsPerDelivery} us per delivery, pay call included; this process (client and receiver) ${out.clientCpuUsPerDelivery} us); rounds ${out.rounds.join(', ')}, the first ${out.cold} deliveries/s`);
}

await fanOutRounds('fanOut1Endpoint', FANOUT_EVENTS, 1);
for (let i = 2; i <= 5; i++) {
  const path = `/hook${i}`;
  const w = await call('POST', `/_sandbox/accounts/${ACCOUNT}/webhooks`, { url: `${receiverUrl}${path}` });
  secrets.set(path, w.secret);
}
await fanOutRounds('fanOut5Endpoints', FANOUT5_EVENTS, 5);

const log = await call('GET', `/_sandbox/accounts/${ACCOUNT}/deliveries`);
results.loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
results.check = {
  badSignatures: receiver.stats.badSignatures,
  unreadable: receiver.stats.unreadable,
  deliveriesLogged: log.total,
  notSucceeded: log.items.filter((d) => d.state !== 'succeeded').length,
  receivedTwice: [...arrivals.values()].filter((a) => a.length > 5).length,
};
console.log(`check: ${JSON.stringify(results.check)}`);

const done = new Promise((r) => sandbox.once('exit', r));
sandbox.kill('SIGTERM');
await done;
receiver.close();
await client.close();

if (cliAt > 0) console.log(JSON.stringify(results)); // another build's figures: printed, not kept as this checkout's
else {
  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('results/webhooks.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  console.log('wrote bench/results/webhooks.json');
}
