// npm run bench:workshop: a workshop room of 200 attendees (issue 40, sandbox.md 5.2) on the built sandbox. They join
// within 10 s (one every 50 ms, through POST /join with the room's code as the browser form does, each from a loopback
// address of its own, 127.0.1.N, as 200 devices would be: one address joins at a bounded rate); each, as soon as it has joined, takes a
// token with its own credentials, adds a webhook endpoint on a local receiver, makes a charge and pays it, and its
// webhook arrives. Measured:
// - every answer's time, per kind (join, token, webhook endpoint, charge, pay), p50 / p99 / max, against the p99 of
//   the project bench's load (POST /v2/pix, 10 at a time, 5 s) measured first on the same sandbox by the same client:
//   the target is each kind's p99 under it; the server's own times (the request log's durationMs) are beside them;
// - the Room panel kept current: GET /_sandbox/workshop (what the panel reads) polled every 100 ms, and for each
//   attendee the time from its webhook's arrival at the receiver to the room showing the step (target: within 1 s).
// Writes bench/results/workshop.{json,md}; npm run bench folds it into its table of targets. `--quick`: 50 attendees.
import { createServer, request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { start, stop, waitUntilAnswering } from './processes.mjs';

const quick = process.argv.includes('--quick');
const ATTENDEES = quick ? 50 : 200;
const JOIN_WINDOW_MS = 9_500; // the last one starts by then, and has joined within 10 s
const PORT = 4811;
const base = `http://127.0.0.1:${PORT}`;
const json = { 'content-type': 'application/json' };
const chargeBody = JSON.stringify({ amount: 19.9, description: 'Workshop charge' });

const arrived = new Map(); // accountId -> performance.now() of its first payment_completed delivery
const receiver = createServer((req, res) => {
  const account = new URL(req.url, 'http://x').searchParams.get('account');
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (account && body.includes('payment_completed') && !arrived.has(account)) arrived.set(account, performance.now());
    res.end('ok');
  });
});
await new Promise((ok) => receiver.listen(0, '127.0.0.1', ok));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

const child = start(process.execPath, ['dist/cli.js', '--port', String(PORT), '--workshop', '--workshop-max', String(ATTENDEES)]);
await waitUntilAnswering(`${base}/_sandbox/health`, child, performance.now());

// The reference: the project bench's load (POST /v2/pix, 10 at a time) on this sandbox, now, sent by this process's
// fetch as the room's requests are (autocannon's client is leaner: its p99 would not be the same measure).
const fixture = await (await fetch(`${base}/v2/auth`, { method: 'POST', headers: json, body: JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' }) })).json();
const pct = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return +(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN).toFixed(1);
};
const referenceTimes = [];
const until = performance.now() + (quick ? 2000 : 5000);
await Promise.all(
  Array.from({ length: 10 }, async () => {
    while (performance.now() < until) {
      const t = performance.now();
      await (await fetch(`${base}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${fixture.access_token}`, ...json }, body: chargeBody })).text();
      referenceTimes.push(performance.now() - t);
    }
  }),
);
const referenceP99 = pct(referenceTimes, 99);

const times = { join: [], token: [], webhook: [], charge: [], pay: [] };
const failures = [];
/** fetch, or with `from` a node:http request from that local address (fetch cannot choose one). */
function send(url, init, from) {
  if (!from) return fetch(url, init);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers: init.headers, localAddress: from }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve({ ok: res.statusCode < 300, status: res.statusCode, text: async () => text }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
async function timed(kind, url, init, from) {
  const t0 = performance.now();
  const res = await send(url, init, from);
  const text = await res.text();
  times[kind].push(performance.now() - t0);
  if (!res.ok) failures.push(`${kind} ${res.status} ${text.slice(0, 200)}`);
  return text;
}

const room = async () => (await (await fetch(`${base}/_sandbox/workshop`)).json());
/** What each attendee does once joined, as its own app would. */
const { code } = await room();
async function attend(name, i) {
  const body = new URLSearchParams({ code, name }).toString();
  const page = await timed('join', `${base}/join`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }, `127.0.1.${i + 1}`);
  lastJoined = performance.now();
  if (!page.includes('client')) return;
  const attendee = (await room()).attendees.find((a) => a.name === name);
  const account = await (await fetch(`${base}/_sandbox/accounts/${attendee.accountId}`)).json();
  const { clientId, clientSecret } = account.credentials[0];
  const auth = JSON.parse(await timed('token', `${base}/v2/auth`, { method: 'POST', headers: json, body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }) }));
  await timed('webhook', `${base}/_sandbox/accounts/${attendee.accountId}/webhooks`, { method: 'POST', headers: json, body: JSON.stringify({ url: `${hook}?account=${attendee.accountId}` }) });
  const charge = JSON.parse(await timed('charge', `${base}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${auth.access_token}`, ...json }, body: chargeBody }));
  await timed('pay', `${base}/_sandbox/transactions/${charge.id}/pay`, { method: 'POST', headers: json, body: '{}' });
  return attendee.accountId;
}

// The room's view, polled as the panel would be kept: when each attendee's webhook step first shows.
const shown = new Map();
let polling = true;
const poller = (async () => {
  while (polling) {
    const r = await room();
    const now = performance.now();
    for (const a of r.attendees) if (a.steps?.webhook && !shown.has(a.accountId)) shown.set(a.accountId, now);
    await delay(100);
  }
})();

const t0 = performance.now();
let lastJoined = t0;
const attendees = [];
for (let i = 0; i < ATTENDEES; i++) {
  attendees.push(attend(`Attendee ${i + 1}`, i));
  await delay(JOIN_WINDOW_MS / ATTENDEES);
}
const accounts = (await Promise.all(attendees)).filter(Boolean);
const joinedMs = lastJoined - t0;
for (let waited = 0; (arrived.size < accounts.length || shown.size < accounts.length) && waited < 30_000; waited += 100) await delay(100);
polling = false;
await poller;
const final = await room();
// The server's own time for each answer (the request log's durationMs), beside the times the bench's client saw.
const server = {};
for (const accountId of accounts) {
  const { items } = await (await fetch(`${base}/_sandbox/accounts/${accountId}/requests?limit=50`)).json();
  for (const e of items) (server[`${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, '{id}')}`] ??= []).push(e.durationMs);
}
await stop(child);
receiver.close();

const kinds = Object.fromEntries(Object.entries(times).map(([k, list]) => [k, { count: list.length, p50Ms: pct(list, 50), p99Ms: pct(list, 99), maxMs: pct(list, 100) }]));
const serverKinds = Object.fromEntries(Object.entries(server).map(([k, list]) => [k, { count: list.length, p50Ms: pct(list, 50), p99Ms: pct(list, 99), maxMs: pct(list, 100) }]));
const lags = accounts.filter((a) => arrived.has(a) && shown.has(a)).map((a) => Math.max(0, shown.get(a) - arrived.get(a)));
const results = {
  date: new Date().toISOString(),
  node: process.version,
  attendees: ATTENDEES,
  joined: final.attendees.length,
  joinedWithinMs: Math.round(joinedMs),
  webhooksArrived: arrived.size,
  roomShowedWebhook: shown.size,
  referenceP99Ms: referenceP99,
  kinds,
  serverKinds,
  roomLagMs: { p50: pct(lags, 50), max: pct(lags, 100) },
  failures: failures.slice(0, 10),
};
results.met = failures.length === 0 && results.joined === ATTENDEES && joinedMs <= 10_000 && arrived.size === ATTENDEES && shown.size === ATTENDEES && Object.values(kinds).every((k) => k.p99Ms <= referenceP99) && results.roomLagMs.max <= 1000;
console.log(JSON.stringify(results, null, 2));
const md = [
  `# Workshop room bench (${results.date}, Node ${results.node})`,
  '',
  `${results.joined} of ${ATTENDEES} attendees joined within ${(joinedMs / 1000).toFixed(1)} s; ${arrived.size} webhooks arrived; the room showed ${shown.size} (lag from arrival to the room: median ${results.roomLagMs.p50} ms, max ${results.roomLagMs.max} ms, target <= 1000 ms, polled every 100 ms).`,
  '',
  `| answer | count | p50 | p99 | max | p99 target (the project bench's POST /v2/pix p99, now) |`,
  '|---|---|---|---|---|---|',
  ...Object.entries(kinds).map(([k, v]) => `| ${k} | ${v.count} | ${v.p50Ms} ms | ${v.p99Ms} ms | ${v.maxMs} ms | <= ${referenceP99} ms |`),
  '',
  `Met: ${results.met}${failures.length ? `; failures: ${failures.length}` : ''}`,
  '',
].join('\n');
mkdirSync(new URL('results/', import.meta.url), { recursive: true });
writeFileSync(new URL('results/workshop.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(new URL('results/workshop.md', import.meta.url), md);
console.log(md);
