// npm run bench:stream: the live stream (GET /_sandbox/stream) measured on the built sandbox in its own process.
// 1. Latency: a control change (an adjustment: one transaction) to the `transaction` message that reports it, one at a
//    time; measured from sending the request (an upper bound on change -> message), p50 and p99.
// 2. Cost: POST /v2/pix throughput with no stream open and with 100 streams open that read every message,
//    alternating rounds on the same server (the machine is shared: the ratio is what counts; target >= 0.90).
// Writes bench/results/stream.{json,md}.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';

const ROOT = new URL('..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const PORT = 4793;
const base = `http://127.0.0.1:${PORT}`;
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const pct = (list, p) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))];

const child = spawn(process.execPath, ['dist/cli.js', '--port', String(PORT)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore'] });
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
const run = async (duration) => (await autocannon({ url: `${base}/v2/pix`, method: 'POST', headers, body, connections: 10, duration })).requests.average;
await run(quick ? 1 : 2); // warm-up
const rounds = quick ? 2 : 4;
const without = [];
const withStreams = [];
let received = 0;
for (let r = 0; r < rounds; r++) {
  without.push(await run(quick ? 2 : 5));
  const closers = await Promise.all(Array.from({ length: 100 }, () => openStream(() => received++)));
  withStreams.push(await run(quick ? 2 : 5));
  closers.forEach((close) => close());
  await delay(200);
}
const health = await (await fetch(`${base}/_sandbox/health`)).json();
const cost = {
  rounds,
  withoutStreamsReqPerSec: Math.round(median(without)),
  with100StreamsReqPerSec: Math.round(median(withStreams)),
  ratio: +(median(withStreams) / median(without)).toFixed(3),
  messagesReadByStreams: received,
};
console.log(`POST /v2/pix: ${cost.withoutStreamsReqPerSec} req/s without streams, ${cost.with100StreamsReqPerSec} with 100 streams: ratio ${cost.ratio} (target >= 0.90)`);
child.kill('SIGTERM');

const results = { date: new Date().toISOString(), node: process.version, quick, latency, cost, pendingJobsAtEnd: health.pendingJobs };
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
| ratio (target >= 0.90) | ${cost.ratio} |
`,
);
