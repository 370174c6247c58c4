// node bench/ab.mjs [REF] [--rounds N] [--only create,read,start,auth,key] [--accounts N]: this build (dist/)
// against another commit's build, in alternating rounds in one run, so that the shared machine's load falls on both
// alike: only the ratios mean anything. REF (default HEAD) is exported with `git archive` into a temp directory
// outside the repository and built there with this checkout's node_modules. Prints new / old per measure.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildRef, cpuMs, start, stop, waitUntilAnswering } from './processes.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const ref = args[0] && !args[0].startsWith('--') ? args[0] : 'HEAD';
const rounds = Number(opt('rounds', 5));
const only = new Set(opt('only', 'create,read,start').split(','));
const accounts = Number(opt('accounts', 0));
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const baseDir = buildRef(ref);

const sides = [
  { name: 'old', dir: baseDir, port: 4871 },
  { name: 'new', dir: ROOT, port: 4872 },
];
const results = new Map();
const record = (label, side, value) => {
  const r = results.get(label) ?? { old: [], new: [] };
  r[side].push(value);
  results.set(label, r);
};

if (only.has('start')) {
  for (let i = 0; i < rounds * 3; i++) {
    for (const s of i % 2 ? [...sides].reverse() : sides) {
      const t0 = performance.now();
      const child = start(process.execPath, [join(s.dir, 'dist/cli.js'), '--port', String(s.port)]);
      record('spawn to first answer (ms)', s.name, await waitUntilAnswering(`http://127.0.0.1:${s.port}/_sandbox/health`, child, t0));
      record('CPU time of the process until then (ms, 10 ms ticks)', s.name, cpuMs(child.pid));
      await stop(child);
    }
  }
}

const loads = [];
for (const s of sides) {
  s.child = start(process.execPath, [join(s.dir, 'dist/cli.js'), '--port', String(s.port)]);
  s.base = `http://127.0.0.1:${s.port}`;
  await waitUntilAnswering(`${s.base}/_sandbox/health`, s.child, performance.now());
  const json = { 'content-type': 'application/json' };
  let last;
  const t0 = performance.now();
  for (let i = 0; i < accounts; i++) {
    last = await (await fetch(`${s.base}/_sandbox/accounts`, { method: 'POST', headers: json, body: JSON.stringify({ name: `Bench ${i}` }) })).json();
  }
  if (accounts) record(`making ${accounts} tenants one by one (s)`, s.name, (performance.now() - t0) / 1000);
  // With --accounts: the last account made, whose credential and API key are the last a scan would reach.
  const cred = last?.credentials?.[0];
  s.cred = cred ? { client_id: cred.clientId, client_secret: cred.clientSecret } : { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' };
  s.apiKey = last?.apiKeys?.[0]?.key ?? (await (await fetch(`${s.base}/_sandbox/accounts/11111111-1111-4111-8111-111111111111`)).json()).apiKeys?.[0]?.key;
  const token = (await (await fetch(`${s.base}/v2/auth`, { method: 'POST', headers: json, body: JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' }) })).json()).access_token;
  s.headers = { ...json, authorization: `Bearer ${token}` };
  const created = await (await fetch(`${s.base}/v2/pix`, { method: 'POST', headers: s.headers, body: JSON.stringify({ amount: 25.9, description: 'Benchmark charge' }) })).json();
  s.id = created.id;
}
if (only.has('create')) loads.push(['POST /v2/pix (req/s)', (s) => ({ url: `${s.base}/v2/pix`, method: 'POST', headers: s.headers, body: JSON.stringify({ amount: 25.9, description: 'Benchmark charge', externalReference: 'bench' }) })]);
if (only.has('read')) loads.push(['GET /v2/transactions/{id} (req/s)', (s) => ({ url: `${s.base}/v2/transactions/${s.id}`, headers: s.headers })]);
if (only.has('auth')) loads.push(['POST /v2/auth (req/s)', (s) => ({ url: `${s.base}/v2/auth`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(s.cred) })]);
if (only.has('key')) loads.push(['GET /v1/customers with an API key (req/s)', (s) => ({ url: `${s.base}/v1/customers`, headers: { 'x-api-key': s.apiKey } })]);
for (const [, opts] of loads) for (const s of sides) await autocannon({ connections: 50, duration: 1, ...opts(s) }); // warm-up
for (let i = 0; i < rounds; i++) {
  for (const [label, opts] of loads) {
    for (const s of i % 2 ? [...sides].reverse() : sides) {
      const r = await autocannon({ connections: 50, duration: 3, ...opts(s) });
      if (r.non2xx) console.error(`${s.name} ${label}: ${r.non2xx} non-2xx answers`);
      record(label, s.name, r.requests.average);
    }
  }
}
await Promise.all(sides.map((s) => stop(s.child)));
rmSync(baseDir, { recursive: true, force: true });

console.log(`\nthis build (new) against ${ref} (old), ${rounds} alternating rounds, medians:`);
for (const [label, r] of results) {
  const ratios = r.new.map((v, i) => v / r.old[i]);
  console.log(`${label}: old ${median(r.old).toFixed(1)}, new ${median(r.new).toFixed(1)}, new/old ${median(ratios).toFixed(2)}`);
}
