// npm run bench:stream: the live stream (GET /_sandbox/stream) measured on the built sandbox in its own process.
// 1. Latency: a control change (an adjustment: one transaction) to the `transaction` message that reports it, one at a
//    time; measured from sending the request (an upper bound on change -> message), p50 and p99.
// 2. Cost: POST /v2/pix throughput with no stream open and with 100 streams open that read every message,
//    alternating rounds on the same server (the machine is shared: the ratio is what counts; target >= 0.90).
// Writes bench/results/stream.{json,md}. --cli PATH runs another build's cli.js and prints its figures instead of
// writing them (alternating runs against another commit: see bench/ab.mjs for how to build one).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';

const ROOT = new URL('..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const PORT = 4793;
const base = `http://127.0.0.1:${PORT}`;
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const pct = (list, p) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))];

const cliAt = process.argv.indexOf('--cli');
const cli = cliAt > 0 ? process.argv[cliAt + 1] : 'dist/cli.js';
const child = spawn(process.execPath, [cli, '--port', String(PORT)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore'] });
for (;;) {
  try {
    if ((await fetch(`${base}/_sandbox/health`)).ok) break;
  } catch {
    /* not yet */
  }
  await delay(20);
}

/** Opens a stream; onMessage(event, data) for each message. Returns close(). */
async function openStream(onMessage = () => {}) {
  const controller = new AbortController();
  const res = await fetch(`${base}/_sandbox/stream`, { signal: controller.signal });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let connected;
  const ready = new Promise((r) => (connected = r));
  (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith(': connected')) connected();
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) onMessage(event, JSON.parse(data));
        }
      }
    } catch {
      /* aborted */
    }
  })();
  await ready;
  return () => controller.abort();
}

/**
 * Opens `count` streams in a child process that reads every byte and counts them (a browser tab does little more),
 * so that the readers do not share an event loop with autocannon. close() resolves with the bytes read.
 */
async function holdStreams(count) {
  // Plain sockets that count bytes: the least a reader can do, so what the ratio shows is the server's cost, not the
  // readers' (on a 2-core machine they share the CPU with the server and autocannon).
  const code = `
    const net = await import('node:net');
    const sockets = [];
    let bytes = 0;
    for (let i = 0; i < ${count}; i++) {
      const socket = net.connect(${PORT}, '127.0.0.1');
      socket.write('GET /_sandbox/stream HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: text/event-stream\\r\\n\\r\\n');
      await new Promise((resolve) => socket.once('data', resolve)); // the headers and ': connected'
      socket.on('data', (chunk) => (bytes += chunk.length));
      sockets.push(socket);
    }
    process.send('ready');
    process.on('message', () => { sockets.forEach((s) => s.destroy()); process.send(bytes); process.exit(0); });
  `;
  const holder = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((r) => holder.once('message', r));
  return {
    close: () =>
      new Promise((r) => {
        holder.once('message', r);
        holder.send('close');
      }),
  };
}

// 1. Latency. The message may come before the answer is read, so arrival times are kept by transaction id.
const seenAt = new Map();
const waiting = new Map();
const closeWatcher = await openStream((event, data) => {
  if (event !== 'transaction') return;
  seenAt.set(data.id, performance.now());
  waiting.get(data.id)?.();
});
const samples = [];
const n = quick ? 100 : 500;
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  const res = await fetch(`${base}/_sandbox/accounts/${ACCOUNT}/adjustments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":0.01}' });
  const { id } = await res.json();
  if (!seenAt.has(id)) await Promise.race([new Promise((r) => waiting.set(id, r)), delay(2000)]);
  samples.push((seenAt.get(id) ?? Infinity) - t0);
  waiting.delete(id);
  seenAt.delete(id);
}
closeWatcher();
const latency = { samples: n, p50Ms: +pct(samples, 50).toFixed(2), p99Ms: +pct(samples, 99).toFixed(2), maxMs: +Math.max(...samples).toFixed(2) };
console.log(`latency request -> transaction message: p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms (${n} changes)`);

// 2. Throughput of POST /v2/pix with 0 and 100 open streams, alternating.
const auth = await (await fetch(`${base}/v2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' }) })).json();
const headers = { authorization: `Bearer ${auth.access_token}`, 'content-type': 'application/json' };
const body = JSON.stringify({ amount: 25.9, description: 'bench charge', expiresIn: 3600 });
/** CPU time (user + system, ms) the server process has used so far, from /proc (Linux). */
const TICK_MS = 10; // USER_HZ is 100 on Linux
const serverCpuMs = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
};
/** One autocannon round: requests per second, and the server's CPU milliseconds per request. */
const run = async (duration) => {
  const cpu0 = serverCpuMs();
  const r = await autocannon({ url: `${base}/v2/pix`, method: 'POST', headers, body, connections: 10, duration });
  return { rps: r.requests.average, cpuMsPerRequest: (serverCpuMs() - cpu0) / r.requests.total };
};
await run(quick ? 1 : 2); // warm-up
const rounds = quick ? 2 : 6;
const without = [];
const withStreams = [];
let received = 0;
for (let r = 0; r < rounds; r++) {
  without.push(await run(quick ? 2 : 4));
  const holder = await holdStreams(100);
  withStreams.push(await run(quick ? 2 : 4));
  received += await holder.close();
  await delay(200);
}
const health = await (await fetch(`${base}/_sandbox/health`)).json();
const rps = (list) => median(list.map((x) => x.rps));
const cpu = (list) => median(list.map((x) => x.cpuMsPerRequest));
const cost = {
  rounds,
  withoutStreamsReqPerSec: Math.round(rps(without)),
  with100StreamsReqPerSec: Math.round(rps(withStreams)),
  ratio: +(rps(withStreams) / rps(without)).toFixed(3),
  serverCpuMsPerRequestWithout: +cpu(without).toFixed(3),
  serverCpuMsPerRequestWith100Streams: +cpu(withStreams).toFixed(3),
  serverCpuRatio: +(cpu(without) / cpu(withStreams)).toFixed(3),
  bytesReadByStreams: received,
  loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
};
console.log(`POST /v2/pix: ${cost.withoutStreamsReqPerSec} req/s without streams, ${cost.with100StreamsReqPerSec} with 100 streams: ratio ${cost.ratio} (target >= 0.90)`);
console.log(`server CPU per request: ${cost.serverCpuMsPerRequestWithout} ms without, ${cost.serverCpuMsPerRequestWith100Streams} ms with 100 streams: ratio ${cost.serverCpuRatio} (load average ${cost.loadAverage})`);
child.kill('SIGTERM');

const results = { date: new Date().toISOString(), node: process.version, quick, latency, cost, pendingJobsAtEnd: health.pendingJobs };
if (cliAt > 0) {
  console.log(JSON.stringify(results)); // another build's figures: printed, not kept as this checkout's
  process.exit(0);
}
mkdirSync(`${ROOT}bench/results`, { recursive: true });
writeFileSync(`${ROOT}bench/results/stream.json`, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(
  `${ROOT}bench/results/stream.md`,
  `# Live stream bench (${results.date}, Node ${results.node}${quick ? ', quick' : ''})

| measure | value |
|---|---|
| change -> \`transaction\` message, p50 (from sending the request) | ${latency.p50Ms} ms |
| change -> \`transaction\` message, p99 | ${latency.p99Ms} ms |
| POST /v2/pix, no stream open (median of ${rounds} rounds) | ${cost.withoutStreamsReqPerSec} req/s |
| POST /v2/pix, 100 streams open and reading | ${cost.with100StreamsReqPerSec} req/s |
| throughput ratio (target >= 0.90) | ${cost.ratio} |
| server CPU per POST /v2/pix, no stream | ${cost.serverCpuMsPerRequestWithout} ms |
| server CPU per POST /v2/pix, 100 streams | ${cost.serverCpuMsPerRequestWith100Streams} ms |
| CPU ratio (no streams / 100 streams) | ${cost.serverCpuRatio} |
| machine load average during the run | ${cost.loadAverage} |

Rounds alternate (without, with) on one server, so a change in the shared machine's load falls on both. The readers
run in their own process; on a loaded machine they take CPU from the server too, which the throughput ratio counts
and the server's CPU per request does not.
`,
);
