// npm run bench:budget: a sandbox on a small heap refuses creates with 507 STORAGE_FULL before its heap is at risk,
// whatever the records weigh (sandbox.md 11, docs/data.md). The CLI runs as `node --max-old-space-size=160`; loops
// send POST /v2/pix with the largest metadata allowed (50 keys of 40 characters, just under 8 KB as JSON) and pay
// each charge (its payment_completed event copies the metadata), until 507s come; then the process must be alive,
// health must answer, and a charge must still be read. Writes bench/results/budget.json; about half a minute.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const HEAP_MB = 160;
const LOOPS = 4;
const home = mkdtempSync(join(tmpdir(), 'budget-bench-'));
const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, 'dist/cli.js', '--port', '0', '--ready-json'], {
  env: { ...process.env, PIX_SANDBOX_HOME: home },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
let exited = null;
child.on('exit', (code, signal) => (exited = { code, signal }));
try {
  const ready = JSON.parse(await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', () => reject(new Error(`the sandbox exited before it was ready: ${stderr}`)));
  }));
  const base = ready.url;
  const call = async (method, path, body, token) => {
    const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json().catch(() => undefined) };
  };
  const token = (await call('POST', '/v2/auth', { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' })).body.access_token;
  const metadata = {};
  for (let i = 0; i < 50; i++) metadata[`k${String(i).padStart(39, '0')}`] = 'v'.repeat(110);
  const start = (await call('GET', '/_sandbox/health')).body;

  let created = 0;
  let refused = 0;
  let other = 0;
  let firstRefusal = null;
  let lastId = null;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: LOOPS }, async () => {
      // Until 40 refusals in all (507s answer at once), or anything else goes wrong.
      while (refused < 40 && other === 0 && exited === null) {
        const res = await call('POST', '/v2/pix', { amount: 10, description: 'budget', metadata }, token);
        if (res.status === 201) {
          created++;
          lastId = res.body.id;
          if ((await call('POST', `/_sandbox/transactions/${res.body.id}/pay`, {})).status !== 200) other++;
        } else if (res.status === 507) {
          refused++;
          firstRefusal ??= res.body.details;
        } else other++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const health = (await call('GET', '/_sandbox/health')).body;
  const read = await call('GET', `/v2/transactions/${lastId}`, undefined, token);
  const result = {
    date: new Date().toISOString(),
    heapMb: HEAP_MB,
    maxBytes: health.maxBytes,
    maxRecords: health.maxRecords,
    chargesCreatedAndPaid: created,
    refused507: refused,
    otherAnswers: other,
    firstRefusal,
    recordsAtStart: start.records,
    records: health.records,
    bytesHeld: health.bytesHeld,
    rssMb: Math.round(health.rssBytes / 1048576),
    alive: exited === null,
    healthStatus: health.status,
    readAfter: read.status,
    seconds: Math.round(seconds),
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/budget.json', `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  const ok = result.alive && refused > 0 && other === 0 && read.status === 200 && health.status === 'ok';
  console.log(ok ? 'met: 507 STORAGE_FULL came, the process is alive and answers' : `MISSED: ${stderr.slice(-2000)}`);
  if (!ok) process.exitCode = 1;
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => (exited ? r() : child.once('exit', r)));
  rmSync(home, { recursive: true, force: true });
}
