// npm run bench:proxy: what the proxy of sandbox.md 13 costs, on the built CLI in its own process.
// 1. Throughput of GET /v1/account (the default API key) at 10 connections, kept alive: straight to the sandbox's own
//    port (http://127.0.0.1:PORT/v1/account) against through the proxy on kept-alive CONNECT tunnels
//    (https://api.pague.dev/v1/account, TLS ended by the sandbox), in alternating rounds; the ratio is the median of
//    the rounds' ratios. Target: through / direct >= 0.90 (within 10 %).
// 2. Opening a tunnel and its TLS session: CONNECT api.pague.dev:443 sent to the TLS session established, one at a
//    time; the median of the opens after the first (the first makes the name's certificate). Target: <= 20 ms.
// Writes bench/results/proxy.{json,md}; npm run bench folds its rows in.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { Agent, ProxyAgent, request } from 'undici';

const ROOT = new URL('..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 1500 : 3000;
const OPENS = quick ? 20 : 60;
const CONNECTIONS = 10;
const API_KEY = 'mp_test_sandbox_api_key_0001';
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-bench-proxy-'));

const child = spawn(process.execPath, ['dist/cli.js', '--port', '0'], { cwd: ROOT, env: { ...process.env, PIX_SANDBOX_HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    const m = /listening on (\S+)\n/.exec(out);
    if (m) resolve(m[1]);
  });
  child.once('exit', (code) => reject(new Error(`the sandbox exited ${code}: ${out}`)));
});
const { port } = new URL(url);

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

const direct = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 60_000 });
const directUrl = `${url}/v1/account`;
await rate(direct, directUrl, 300); // warm-up
// The proxy makes the CA and the name's certificate at its first tunnel: one opened untrusted, then the CA to trust.
await new Promise((resolve) => {
  const req = httpRequest({ host: '127.0.0.1', port: Number(port), method: 'CONNECT', path: 'api.pague.dev:443' });
  req.on('connect', (_res, socket) => {
    const t = tlsConnect({ socket, servername: 'api.pague.dev', rejectUnauthorized: false }, () => (t.destroy(), resolve()));
    t.on('error', () => resolve());
  });
  req.end();
});
const ca = readFileSync(join(home, 'ca.pem'), 'utf8');
const proxied = new ProxyAgent({ uri: url, requestTls: { ca }, connections: CONNECTIONS, keepAliveTimeout: 60_000 });
const proxiedUrl = 'https://api.pague.dev/v1/account';
await rate(proxied, proxiedUrl, 300); // warm-up: opens the tunnels

const rounds = [];
for (let i = 0; i < ROUNDS; i++) {
  const order = i % 2 ? ['proxied', 'direct'] : ['direct', 'proxied'];
  const r = {};
  for (const kind of order) r[kind] = kind === 'direct' ? await rate(direct, directUrl, ROUND_MS) : await rate(proxied, proxiedUrl, ROUND_MS);
  rounds.push({ direct: Math.round(r.direct), proxied: Math.round(r.proxied), ratio: +(r.proxied / r.direct).toFixed(3) });
}
await direct.close();
await proxied.close();

/** CONNECT api.pague.dev:443, then TLS in it: milliseconds to the session established. */
function openTunnel() {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), method: 'CONNECT', path: 'api.pague.dev:443', agent: false });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) return reject(new Error(`CONNECT answered ${res.statusCode}`));
      const tls = tlsConnect({ socket, servername: 'api.pague.dev', ca }, () => {
        const ms = performance.now() - t0;
        tls.destroy();
        resolve(ms);
      });
      tls.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
const opens = [];
for (let i = 0; i < OPENS; i++) opens.push(await openTunnel());

child.kill('SIGTERM');
rmSync(home, { recursive: true, force: true });

const results = {
  date: new Date().toISOString(),
  node: process.version,
  loadAverage: loadavg().map((l) => +l.toFixed(1)),
  throughput: {
    connections: CONNECTIONS,
    roundMs: ROUND_MS,
    rounds,
    directReqPerSec: median(rounds.map((r) => r.direct)),
    proxiedReqPerSec: median(rounds.map((r) => r.proxied)),
    ratio: median(rounds.map((r) => r.ratio)),
  },
  tunnelOpen: { opens: OPENS, medianMs: +median(opens).toFixed(2), p90Ms: +[...opens].sort((a, b) => a - b)[Math.floor(OPENS * 0.9)].toFixed(2), maxMs: +Math.max(...opens).toFixed(2) },
};
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/proxy.json'), `${JSON.stringify(results, null, 2)}\n`);
const t = results.throughput;
const md = [
  `# The proxy's cost (${results.date}, Node ${results.node}, load average ${results.loadAverage.join(' ')} at the end)`,
  '',
  '| measure | figure | target | |',
  '|---|---|---|---|',
  `| \`GET /v1/account\` through kept-alive CONNECT tunnels (TLS) / straight to the own port, ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds | ${t.proxiedReqPerSec} / ${t.directReqPerSec} req/s = ${t.ratio} | >= 0.90 | ${t.ratio >= 0.9 ? 'met' : '**missed**'} |`,
  `| opening a tunnel and its TLS session (CONNECT to TLS established), median of ${OPENS} | ${results.tunnelOpen.medianMs} ms (p90 ${results.tunnelOpen.p90Ms}, max ${results.tunnelOpen.maxMs}) | <= 20 ms | ${results.tunnelOpen.medianMs <= 20 ? 'met' : '**missed**'} |`,
  '',
  `Rounds (direct / proxied req/s, ratio): ${rounds.map((r) => `${r.direct} / ${r.proxied} = ${r.ratio}`).join('; ')}.`,
  '',
].join('\n');
writeFileSync(join(ROOT, 'bench/results/proxy.md'), md);
process.stdout.write(md);
