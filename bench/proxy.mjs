// npm run bench:proxy: what the proxy of sandbox.md 13 costs, on the built CLI in its own process. Every comparison
// runs its two sides in alternating rounds on one sandbox, so that a change in the shared machine's load falls on both.
// On a plain sandbox:
// 1. Throughput of GET /v1/account (the default API key) at 10 kept-alive connections: straight to the sandbox's own
//    port (plain HTTP) against through the proxy on kept-alive CONNECT tunnels (https://api.pague.dev/v1/account, TLS
//    ended by the sandbox); the ratio is the median of the rounds' ratios. Target: through / straight >= 0.8.
// 2. Opening a tunnel and its TLS session: CONNECT api.pague.dev:443 sent to the TLS session established, one at a
//    time, no session resumed; the median of the opens after the first (which makes the name's certificate).
//    Target: <= 20 ms.
// On the same sandbox started with --https (TLS on both sides):
// 3. As 1, straight to https://127.0.0.1:PORT against through the proxy. Target: >= 0.8.
// 4. A new TLS connection for each request, as a client that keeps no connection does: TCP + TLS + GET /v1/account
//    (connection: close) read to its end, straight against CONNECT + TLS + the same request. Once resuming the TLS
//    session of the side's previous connection (what node:https's Agent does with keepAlive off), once with a full
//    handshake each time; the figure is the median over the rounds of (through - straight), each round's sides their
//    medians. Target, resumed: <= 3 ms; every connection after the first must have resumed.
// 5. Clients that read their CA file at every connection, through the proxy: Python requests without a Session
//    against one Session, and PHP's curl with a new handle each request against one handle, with the bundle
//    `pix-sandbox env` names (the system's CAs and the sandbox's); and the time Python's ssl takes to read that bundle.
//    Measured, no target (docs/unmodified-apps.md names the remedy); skipped where python3-requests or php-curl is not.
// Writes bench/results/proxy.{json,md}; npm run bench folds its rows in. --quick: fewer and shorter rounds.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { Agent, ProxyAgent, request } from 'undici';
import { runNs } from './processes.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 1500 : 3000;
const OPENS = quick ? 20 : 60;
const NEW_ROUNDS = quick ? 4 : 10;
const NEW_PER_ROUND = quick ? 10 : 20;
const CLIENT_REQUESTS = quick ? 10 : 40;
const CONNECTIONS = 10;
const API_KEY = 'mp_test_sandbox_api_key_0001';
const SERVICE = 'api.pague.dev';
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const ms = (x) => +x.toFixed(2);
/** The value a tenth of `list` is below. */
const tenth = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 10)];
const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-bench-proxy-'));

/** The built CLI on a free port in the bench's home: its URL, port and stop(). */
async function startSandbox(args) {
  const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', ...args], { cwd: ROOT, env: { ...process.env, PIX_SANDBOX_HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited ${code}: ${out}`)));
  });
  const stop = () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));
  return { pid: child.pid, url, port: Number(new URL(url).port), proxyUri: `http://127.0.0.1:${new URL(url).port}`, stop };
}

/** Requests per second of `CONNECTIONS` loops of GET `target` through `dispatcher` for `ms`. */
async function rate(dispatcher, target, ms) {
  let count = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const res = await request(target, { dispatcher, headers: { 'x-api-key': API_KEY } });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`${target} answered ${res.statusCode}`);
        count++;
      }
    }),
  );
  return count / (ms / 1000);
}

/** Kept-alive throughput, straight against proxied, in alternating rounds (each side warmed first). */
async function keptAlive(straight, proxied) {
  for (const [dispatcher, target] of [straight, proxied]) await rate(dispatcher, target, 300); // warm-up: opens the connections
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = {};
    for (const side of i % 2 ? ['proxied', 'straight'] : ['straight', 'proxied']) {
      const [dispatcher, target] = side === 'straight' ? straight : proxied;
      r[side] = await rate(dispatcher, target, ROUND_MS);
    }
    rounds.push({ straight: Math.round(r.straight), proxied: Math.round(r.proxied), ratio: +(r.proxied / r.straight).toFixed(3) });
  }
  await Promise.all([straight[0].close(), proxied[0].close()]);
  return {
    connections: CONNECTIONS,
    roundMs: ROUND_MS,
    rounds,
    straightReqPerSec: median(rounds.map((r) => r.straight)),
    proxiedReqPerSec: median(rounds.map((r) => r.proxied)),
    ratio: median(rounds.map((r) => r.ratio)),
  };
}

/** A CONNECT tunnel to SERVICE:443 on the sandbox at `port`: its socket once the proxy answered 200. */
function tunnel(port) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'CONNECT', path: `${SERVICE}:443`, agent: false });
    req.on('connect', (res, socket) => (res.statusCode === 200 ? resolve(socket) : reject(new Error(`CONNECT answered ${res.statusCode}`))));
    req.on('error', reject);
    req.end();
  });
}

/** TLS on `options` (a socket, or a host and port), resolved once the session is established. */
function secured(options) {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ ALPNProtocols: ['http/1.1'], ...options }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * One GET /v1/account on a new TLS connection opened by `open(session)`, read to its end: the time from before the
 * connection to the end of the answer, whether the TLS session was resumed, and the session to offer next time (the
 * server's newest ticket: TLS 1.3 sends them after the handshake).
 */
async function requestOnNewConnection(open, host, session) {
  const t0 = performance.now();
  const socket = await open(session);
  let next = session;
  socket.on('session', (s) => (next = s));
  const status = await new Promise((resolve, reject) => {
    const req = httpRequest({ createConnection: () => socket, path: '/v1/account', headers: { host, 'x-api-key': API_KEY, connection: 'close' } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode));
    });
    req.once('error', reject);
    req.end();
  });
  const elapsed = performance.now() - t0;
  if (status !== 200) throw new Error(`GET /v1/account to ${host} answered ${status}`);
  const reused = socket.isSessionReused();
  socket.destroy();
  return { ms: elapsed, reused, session: next };
}

/** The two sides of 4: a new connection straight to the --https port, and one through a new tunnel. */
function newConnectionSides(port, ca) {
  return {
    straight: { host: `127.0.0.1:${port}`, open: (session) => secured({ host: '127.0.0.1', port, ca, session }) },
    proxied: { host: SERVICE, open: async (session) => secured({ socket: await tunnel(port), servername: SERVICE, ca, session }) },
  };
}

/**
 * 4. for one mode (`resume` or not): per side the median time, per round the difference, the resumed count, and the
 * CPU time a connection cost the sandbox and this client together (the machine's cost: less swayed by its load).
 */
async function newConnections(sides, sandboxPid, resume) {
  const fresh = () => ({ session: undefined, reused: 0, count: 0, times: [], cpuNs: 0 });
  const state = { straight: fresh(), proxied: fresh() };
  const cpuNow = () => runNs(sandboxPid) + runNs(process.pid);
  const diffs = [];
  for (let i = -1; i < NEW_ROUNDS; i++) {
    const medians = {};
    for (const side of i % 2 ? ['straight', 'proxied'] : ['proxied', 'straight']) {
      const s = state[side];
      const times = [];
      const cpu0 = cpuNow();
      for (let k = 0; k < NEW_PER_ROUND; k++) {
        const r = await requestOnNewConnection(sides[side].open, sides[side].host, resume ? s.session : undefined);
        s.session = r.session;
        if (i < 0) continue; // round -1 warms up (and gives each side its first session)
        times.push(r.ms);
        s.count++;
        if (r.reused) s.reused++;
      }
      if (i < 0) continue;
      s.cpuNs += cpuNow() - cpu0;
      medians[side] = median(times);
      s.times.push(...times);
    }
    if (i >= 0) diffs.push(medians.proxied - medians.straight);
  }
  return {
    straightMs: ms(median(state.straight.times)),
    proxiedMs: ms(median(state.proxied.times)),
    differenceMs: ms(median(diffs)),
    // The fastest tenth of each side: connections made while the machine gave both processes a core at once.
    fastestTenthMs: { straight: ms(tenth(state.straight.times)), proxied: ms(tenth(state.proxied.times)) },
    roundDifferencesMs: diffs.map(ms),
    resumed: { straight: `${state.straight.reused}/${state.straight.count}`, proxied: `${state.proxied.reused}/${state.proxied.count}` },
    allResumed: state.straight.reused === state.straight.count && state.proxied.reused === state.proxied.count,
    cpuUs: { straight: Math.round(state.straight.cpuNs / state.straight.count / 1000), proxied: Math.round(state.proxied.cpuNs / state.proxied.count / 1000) },
  };
}

/** What `pix-sandbox env` sets for the sandbox at `url` (JSON format). */
function envFor(url) {
  const out = spawnSync(process.execPath, ['dist/cli.js', 'env', '--url', url, '--format', 'json'], { cwd: ROOT, env: { ...process.env, PIX_SANDBOX_HOME: home }, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`pix-sandbox env exited ${out.status}: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

// Python requests through the proxy, alternating a bare requests.get (a new Session, so a new connection and the CA
// bundle read again, each call) with one kept Session; and ssl reading the bundle alone. Each: wall and CPU time.
const PYTHON = `
import json, ssl, sys, time, requests
url, bundle, n, key = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def timed(call):
    t0, c0 = time.perf_counter(), time.process_time(); call()
    return (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
def get(client):
    r = client.get(url, headers={'x-api-key': key}); r.raise_for_status()
session, runs = requests.Session(), {'perRequest': [], 'session': [], 'bundleRead': []}
get(requests); get(session)
for i in range(n):
    for kind in (('perRequest', 'session') if i % 2 == 0 else ('session', 'perRequest')):
        runs[kind].append(timed(lambda: get(requests if kind == 'perRequest' else session)))
    runs['bundleRead'].append(timed(lambda: ssl.create_default_context(cafile=bundle)))
med = lambda xs: sorted(xs)[len(xs) // 2]
out = {}
for kind, xs in runs.items():
    out[kind + 'Ms'] = med([w for w, _ in xs]); out[kind + 'CpuMs'] = med([c for _, c in xs])
print(json.dumps(out))
`;
// PHP's curl through the proxy, alternating a new handle per request with one kept handle: wall and CPU time.
const PHP = `
[$_, $url, $n, $key] = $argv; $n = (int) $n;
$cpu = function () { $u = getrusage(); return ($u['ru_utime.tv_sec'] + $u['ru_stime.tv_sec']) * 1e3 + ($u['ru_utime.tv_usec'] + $u['ru_stime.tv_usec']) / 1e3; };
$timed = function ($ch) use ($cpu) { $t0 = hrtime(true); $c0 = $cpu(); if (curl_exec($ch) === false || curl_getinfo($ch, CURLINFO_RESPONSE_CODE) !== 200) { fwrite(STDERR, curl_error($ch)); exit(1); } return [(hrtime(true) - $t0) / 1e6, $cpu() - $c0]; };
$handle = function () use ($url, $key) { $ch = curl_init($url); curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_HTTPHEADER => ["x-api-key: $key"]]); return $ch; };
$kept = $handle(); $timed($kept); $timed($handle());
$runs = ['perRequest' => [], 'keptHandle' => []];
for ($i = 0; $i < $n; $i++) {
  foreach ($i % 2 ? ['keptHandle', 'perRequest'] : ['perRequest', 'keptHandle'] as $kind) { $runs[$kind][] = $timed($kind === 'perRequest' ? $handle() : $kept); }
}
$med = function ($xs) { sort($xs); return $xs[intdiv(count($xs), 2)]; };
$out = [];
foreach ($runs as $kind => $xs) { $out[$kind . 'Ms'] = $med(array_column($xs, 0)); $out[$kind . 'CpuMs'] = $med(array_column($xs, 1)); }
echo json_encode($out);
`;

/** A client script run through the proxy with `env`'s variables: its JSON, or why it was skipped. */
function client(cmd, args, env) {
  const out = spawnSync(cmd, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (out.error || out.status !== 0) return { skipped: `${cmd} ${out.error ? `did not run (${out.error.code})` : `exited ${out.status}: ${out.stderr.trim().split('\n').at(-1)}`}` };
  const r = JSON.parse(out.stdout);
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, ms(v)]));
}

// --- A plain sandbox: 1 and 2.
const plain = await startSandbox([]);
// The proxy makes the CA and the name's certificate at its first tunnel: one opened untrusted, then the CA to trust.
await secured({ socket: await tunnel(plain.port), servername: SERVICE, rejectUnauthorized: false }).then((s) => s.destroy());
const ca = readFileSync(join(home, 'ca.pem'), 'utf8');
const throughput = await keptAlive(
  [new Agent({ connections: CONNECTIONS, keepAliveTimeout: 60_000 }), `${plain.url}/v1/account`],
  [new ProxyAgent({ uri: plain.proxyUri, requestTls: { ca }, connections: CONNECTIONS, keepAliveTimeout: 60_000 }), `https://${SERVICE}/v1/account`],
);
const opens = [];
for (let i = 0; i < OPENS; i++) {
  const t0 = performance.now();
  const socket = await secured({ socket: await tunnel(plain.port), servername: SERVICE, ca });
  opens.push(performance.now() - t0);
  socket.destroy();
}
await plain.stop();

// --- The same home's sandbox with --https: 3, 4 and 5.
const https = await startSandbox(['--https']);
const tlsThroughput = await keptAlive(
  [new Agent({ connections: CONNECTIONS, keepAliveTimeout: 60_000, connect: { ca } }), `${https.url}/v1/account`],
  [new ProxyAgent({ uri: https.proxyUri, requestTls: { ca }, connections: CONNECTIONS, keepAliveTimeout: 60_000 }), `https://${SERVICE}/v1/account`],
);
const sides = newConnectionSides(https.port, ca);
const newConnection = { rounds: NEW_ROUNDS, perRound: NEW_PER_ROUND, resumed: await newConnections(sides, https.pid, true), fullHandshake: await newConnections(sides, https.pid, false) };
const env = envFor(https.url);
const bundle = readFileSync(env.REQUESTS_CA_BUNDLE, 'utf8');
const clients = {
  requests: CLIENT_REQUESTS,
  bundleCertificates: bundle.match(/BEGIN CERTIFICATE/g).length,
  python: client('python3', ['-c', PYTHON, `https://${SERVICE}/v1/account`, env.REQUESTS_CA_BUNDLE, String(CLIENT_REQUESTS), API_KEY], env),
  phpCurl: client('php', ['-d', `curl.cainfo=${env.CURL_CA_BUNDLE}`, '-r', PHP, '--', `https://${SERVICE}/v1/account`, String(CLIENT_REQUESTS), API_KEY], env),
};
await https.stop();
rmSync(home, { recursive: true, force: true });

const results = {
  date: new Date().toISOString(),
  node: process.version,
  loadAverage: loadavg().map((l) => +l.toFixed(1)),
  throughput,
  tlsThroughput,
  tunnelOpen: { opens: OPENS, medianMs: ms(median(opens)), p90Ms: ms([...opens].sort((a, b) => a - b)[Math.floor(OPENS * 0.9)]), maxMs: ms(Math.max(...opens)) },
  newConnection,
  clients,
};
results.met = {
  throughput: throughput.ratio >= 0.8,
  tlsThroughput: tlsThroughput.ratio >= 0.8,
  tunnelOpen: results.tunnelOpen.medianMs <= 20,
  newConnection: newConnection.resumed.differenceMs <= 3 && newConnection.resumed.allResumed,
};
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/proxy.json'), `${JSON.stringify(results, null, 2)}\n`);

const verdict = (met) => (met ? 'met' : '**missed**');
const roundsOf = (t) => t.rounds.map((r) => `${r.straight} / ${r.proxied} = ${r.ratio}`).join('; ');
const nc = (mode) => `${newConnection[mode].proxiedMs} - ${newConnection[mode].straightMs} ms: ${newConnection[mode].differenceMs} ms (round differences ${newConnection[mode].roundDifferencesMs.join(', ')}; resumed straight ${newConnection[mode].resumed.straight}, through ${newConnection[mode].resumed.proxied}); the fastest tenth ${newConnection[mode].fastestTenthMs.proxied} / ${newConnection[mode].fastestTenthMs.straight} ms; CPU a connection, sandbox and client: ${newConnection[mode].cpuUs.proxied} / ${newConnection[mode].cpuUs.straight} µs`;
const { python, phpCurl } = clients;
const md = [
  `# The proxy's cost (${results.date}, Node ${results.node}, load average ${results.loadAverage.join(' ')} at the end)`,
  '',
  '| measure | figure | target | |',
  '|---|---|---|---|',
  `| \`GET /v1/account\` through kept-alive CONNECT tunnels (TLS) / straight to the own port (plain HTTP), ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds | ${throughput.proxiedReqPerSec} / ${throughput.straightReqPerSec} req/s = ${throughput.ratio} | >= 0.8 | ${verdict(results.met.throughput)} |`,
  `| the same, TLS on both sides: through the proxy / straight to the \`--https\` port | ${tlsThroughput.proxiedReqPerSec} / ${tlsThroughput.straightReqPerSec} req/s = ${tlsThroughput.ratio} | >= 0.8 | ${verdict(results.met.tlsThroughput)} |`,
  `| a new TLS connection for each request, sessions resumed: (CONNECT + TLS + \`GET /v1/account\`) - (TLS + the same, straight to the \`--https\` port), median of ${NEW_ROUNDS} alternating rounds of ${NEW_PER_ROUND} | ${nc('resumed')} | <= 3 ms, all resumed | ${verdict(results.met.newConnection)} |`,
  `| the same, a full handshake each time | ${nc('fullHandshake')} | measured | |`,
  `| opening a tunnel and its TLS session (CONNECT to TLS established, full handshake), median of ${OPENS} | ${results.tunnelOpen.medianMs} ms (p90 ${results.tunnelOpen.p90Ms}, max ${results.tunnelOpen.maxMs}) | <= 20 ms | ${verdict(results.met.tunnelOpen)} |`,
  `| Python requests through the proxy, \`requests.get\` each call / one \`Session\`; reading \`env\`'s bundle (${clients.bundleCertificates} certificates) with \`ssl.create_default_context\` | ${python.skipped ?? `${python.perRequestMs} / ${python.sessionMs} ms a request (CPU ${python.perRequestCpuMs} / ${python.sessionCpuMs} ms); the bundle ${python.bundleReadMs} ms (CPU ${python.bundleReadCpuMs})`} | measured | |`,
  `| PHP's curl through the proxy, a new handle each request / one handle | ${phpCurl.skipped ?? `${phpCurl.perRequestMs} / ${phpCurl.keptHandleMs} ms a request (CPU ${phpCurl.perRequestCpuMs} / ${phpCurl.keptHandleCpuMs} ms)`} | measured | |`,
  '',
  `Rounds, straight / through req/s = ratio: plain ${roundsOf(throughput)}; TLS ${roundsOf(tlsThroughput)}.`,
  '',
].join('\n');
writeFileSync(join(ROOT, 'bench/results/proxy.md'), md);
process.stdout.write(md);
