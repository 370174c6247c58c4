// npm run bench:doors: every connection has an end (sandbox.md 11), on the built CLI in its own process, loopback only.
// For each way of abandoning a tunnel or a service-port connection, 1,000 of them are opened (50 at a time) and left;
// the bench waits until the sandbox has closed every one (the client sees its socket close), then reads the
// sandbox's descriptor count (/proc/PID/fd). Throughout, a worker thread asks GET /_sandbox/health every 50 ms on a
// new connection. The sandbox runs with --idle-timeout 5s, so the silent ones end within seconds.
// Targets: descriptors back at the count before the kind (or below), health answered within 100 ms every time.
// Writes bench/results/doors.{json,md}.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { Worker } from 'node:worker_threads';

const ROOT = new URL('..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const COUNT = quick ? 200 : 1000;
const AT_ONCE = 50;
const IDLE = '5s';
const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-bench-doors-'));

const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--service-port', '0', '--idle-timeout', IDLE], {
  cwd: ROOT,
  env: { ...process.env, PIX_SANDBOX_HOME: home },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const { url, servicePort } = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    const m = /listening on (\S+)\n/.exec(out);
    const s = /service TLS port (\d+)/.exec(out);
    if (m && s) resolve({ url: m[1], servicePort: Number(s[1]) });
  });
  child.once('exit', (code) => reject(new Error(`the sandbox exited ${code}: ${out}`)));
});
const port = Number(new URL(url).port);
const descriptors = () => readdirSync(`/proc/${child.pid}/fd`).length;

/** A socket to `to` that resolves once it is open and, for a tunnel, once CONNECT answered 200. */
function open(to) {
  return new Promise((resolve, reject) => {
    const socket = netConnect(to === 'service' ? servicePort : port, '127.0.0.1');
    socket.on('error', reject);
    if (to === 'service') return socket.once('connect', () => resolve(socket));
    socket.once('connect', () => socket.write('CONNECT api.pague.dev:443 HTTP/1.1\r\nHost: api.pague.dev:443\r\n\r\n'));
    let head = '';
    const onData = (d) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(`CONNECT answered ${head.split('\r\n')[0]}`));
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

/** Resolves when the sandbox has closed `socket` (the client's socket closes once the sandbox's end arrives). */
const closed = (socket) => new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', resolve)));

const KINDS = {
  'CONNECT, 200, then FIN before any TLS byte': async () => {
    const s = await open('tunnel');
    s.end();
    return s;
  },
  'CONNECT, 200, 3 bytes of a TLS hello, then FIN': async () => {
    const s = await open('tunnel');
    s.end(Buffer.from([0x16, 0x03, 0x01]));
    return s;
  },
  'CONNECT, 200, then silent': async () => open('tunnel'),
  'CONNECT, 200, TLS done, no request': async () => {
    const s = await open('tunnel');
    const tls = tlsConnect({ socket: s, servername: 'api.pague.dev', rejectUnauthorized: false });
    tls.on('error', () => {});
    await new Promise((resolve, reject) => (tls.once('secureConnect', resolve), tls.once('error', reject)));
    return tls;
  },
  'service port, silent': async () => open('service'),
  'service port, closed with nothing sent': async () => {
    const s = await open('service');
    s.end();
    return s;
  },
};

const health = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
   const http = require('node:http');
   const samples = []; let stop = false;
   parentPort.on('message', () => { stop = true; });
   (async function loop() {
     while (!stop) {
       const at = Date.now(), t0 = performance.now();
       const ok = await new Promise((resolve) => {
         const req = http.get(workerData + '/_sandbox/health', { agent: false, timeout: 5000 }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode === 200)); });
         req.on('timeout', () => req.destroy());
         req.on('error', () => resolve(false));
       });
       const ms = performance.now() - t0;
       samples.push([at, ok ? ms : -1]);
       await new Promise((r) => setTimeout(r, 50));
     }
     parentPort.postMessage(samples);
   })();`,
  { eval: true, workerData: url },
);

// Warm-up: one of each kind, so the proxy, the CA and the name's certificate are loaded before the first count.
for (const make of Object.values(KINDS)) await closed(await make());
await new Promise((r) => setTimeout(r, 200));
const start = descriptors();

// A control: health with nothing else asked of the sandbox, for what the machine itself gives at this moment.
const quietFrom = Date.now();
await new Promise((r) => setTimeout(r, 3000));
const quietTo = Date.now();

const rows = [];
for (const [kind, make] of Object.entries(KINDS)) {
  const before = descriptors();
  const from = Date.now();
  const t0 = performance.now();
  let peak = before;
  const waits = [];
  for (let i = 0; i < COUNT; i += AT_ONCE) {
    const batch = await Promise.all(Array.from({ length: Math.min(AT_ONCE, COUNT - i) }, () => make()));
    waits.push(...batch.map(closed));
    peak = Math.max(peak, descriptors());
  }
  const opened = performance.now() - t0;
  await Promise.all(waits);
  const allClosed = performance.now() - t0;
  // The client's close follows the sandbox's: give its descriptors a moment to be released.
  let after = descriptors();
  for (let i = 0; i < 40 && after > before; i++) await new Promise((r) => setTimeout(r, 50)), (after = descriptors());
  rows.push({ kind, count: COUNT, before, peak, after, openedMs: Math.round(opened), closedMs: Math.round(allClosed), from, to: Date.now() });
  process.stderr.write(`${kind}: ${before} -> peak ${peak} -> ${after} descriptors, all closed after ${Math.round(allClosed)} ms\n`);
}
const end = descriptors();
health.postMessage('stop');
const samples = await new Promise((resolve) => health.once('message', resolve));
await health.terminate(); // its keep-alive agent would hold the process open after the results
/** The health answers asked within [from, to): how many, how many failed, the slowest. */
const probeOf = (from, to) => {
  const within = samples.filter(([at]) => at >= from && at < to);
  return { count: within.length, failed: within.filter(([, ms]) => ms < 0).length, max: +Math.max(0, ...within.map(([, ms]) => ms)).toFixed(1), p99: +(within.map(([, ms]) => ms).sort((a, b) => a - b)[Math.floor(within.length * 0.99)] ?? 0).toFixed(1) };
};
for (const r of rows) r.health = probeOf(r.from, r.to);
const quiet = probeOf(quietFrom, quietTo);
const probe = probeOf(0, Infinity);
child.kill('SIGTERM');
rmSync(home, { recursive: true, force: true });

const results = { date: new Date().toISOString(), node: process.version, loadAverage: loadavg().map((l) => +l.toFixed(1)), idle: IDLE, start, end, rows, health: probe, quiet };
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/doors.json'), `${JSON.stringify(results, null, 2)}\n`);
const met = rows.every((r) => r.after <= r.before) && end <= start;
const md = [
  `# Abandoned connections (${results.date}, Node ${results.node}, --idle-timeout ${IDLE}, load average ${results.loadAverage.join(' ')} at the end)`,
  '',
  '| kind | held | descriptors before / peak / after | all closed after | health: asked, failed, p99, slowest |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.kind} | ${r.count} | ${r.before} / ${r.peak} / ${r.after} | ${(r.closedMs / 1000).toFixed(1)} s | ${r.health.count}, ${r.health.failed}, ${r.health.p99} ms, ${r.health.max} ms |`),
  `| (control: nothing opened, 3 s) | 0 | ${start} / ${start} / ${start} | | ${quiet.count}, ${quiet.failed}, ${quiet.p99} ms, ${quiet.max} ms |`,
  '',
  `Descriptors ${start} at the start, ${end} at the end: ${met ? 'met' : '**missed**'}. GET /_sandbox/health: ${probe.count} asked, ${probe.failed} failed, p99 ${probe.p99} ms, slowest ${probe.max} ms (target <= 100 ms): ${probe.failed === 0 && probe.max <= 100 ? 'met' : '**missed**'}.`,
  '',
].join('\n');
writeFileSync(join(ROOT, 'bench/results/doors.md'), md);
process.stdout.write(md);
