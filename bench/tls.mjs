// npm run bench:tls: what --https costs, on the built CLI in its own process, alternating plain and TLS rounds (the
// machine is shared: the ratios are what count).
// 1. Start-up: spawn to banner, plain vs --https (CA already in PIX_SANDBOX_HOME, as after the first start), and the
//    very first --https start, which makes the CA.
// 2. First request: a fresh connection (TCP, plus the TLS handshake under --https) and GET /_sandbox/health, from a
//    new client each time; then a second request on the same kept-alive connection.
// Writes bench/results/tls.{json,md}.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const ROUNDS = process.argv.includes('--quick') ? 3 : 9;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-bench-home-'));

function start(args) {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', ...args], { cwd: ROOT, env: { ...process.env, PIX_SANDBOX_HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve({ ms: performance.now() - t0, url: m[1], stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

function get(url, agent, ca) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    send(`${url}/_sandbox/health`, { agent, ca }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
    })
      .on('error', reject)
      .end();
  });
}

const results = { date: new Date().toISOString(), node: process.version, rounds: ROUNDS, startup: {}, firstRequest: {}, secondRequest: {} };
const firstHttps = await start(['--https']);
results.startup.httpsMakingTheCaMs = +firstHttps.ms.toFixed(1);
await firstHttps.stop();
const ca = readFileSync(join(home, 'ca.pem'), 'utf8');

const samples = { startup: { http: [], https: [] }, first: { http: [], https: [] }, second: { http: [], https: [] } };
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of round % 2 ? ['https', 'http'] : ['http', 'https']) {
    const server = await start(kind === 'https' ? ['--https'] : []);
    samples.startup[kind].push(server.ms);
    const agent = kind === 'https' ? new HttpsAgent({ keepAlive: true, ca }) : new HttpAgent({ keepAlive: true });
    samples.first[kind].push(await get(server.url, agent, kind === 'https' ? ca : undefined));
    samples.second[kind].push(await get(server.url, agent, kind === 'https' ? ca : undefined));
    agent.destroy();
    await server.stop();
  }
}
rmSync(home, { recursive: true, force: true });

for (const [key, target] of [['startup', 'startup'], ['first', 'firstRequest'], ['second', 'secondRequest']]) {
  const http = median(samples[key].http);
  const https = median(samples[key].https);
  results[target].httpMedianMs = +http.toFixed(2);
  results[target].httpsMedianMs = +https.toFixed(2);
  results[target].ratio = +(https / http).toFixed(2);
}

mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/tls.json'), `${JSON.stringify(results, null, 2)}\n`);
const row = (label, r) => `| ${label} | ${r.httpMedianMs} | ${r.httpsMedianMs} | ${r.ratio} |`;
const md = [
  `# --https cost (${results.date}, Node ${results.node}, ${ROUNDS} alternating rounds, medians)`,
  '',
  '| measure | plain HTTP ms | HTTPS ms | ratio |',
  '|---|---|---|---|',
  row('spawn to banner (CA already made)', results.startup),
  row('first request: new connection + GET /_sandbox/health', results.firstRequest),
  row('second request, same connection', results.secondRequest),
  '',
  `The very first --https start, which makes the local CA: ${results.startup.httpsMakingTheCaMs} ms to banner.`,
  '',
].join('\n');
writeFileSync(join(ROOT, 'bench/results/tls.md'), md);
process.stdout.write(md);
