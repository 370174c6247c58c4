// npm run bench:clocks: what a crowd of tenant clocks costs one tenant (issue 37). In process (the built package,
// app.request), two sandboxes side by side: a quiet one with the measured tenant alone, and a crowded one where the
// same tenant lives beside 10,000 tenants with clocks of their own holding 100,000 pending charges. In alternating
// rounds, the measured tenant advances its clock 60 s at a time (expiring its own charges on the way) and reads a
// charge; the crowded side's time over the quiet side's is the ratio. Target: advancing within 20 % (ratio <= 1.2).
// Writes bench/results/clocks.json (npm run bench puts it in its table). `--others=N` and `--charges=N` (per other tenant) change the crowd.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createSandbox } from '../dist/index.js';
import { callerOf } from './in-process.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const OTHERS = arg('others', 10_000);
const CHARGES = arg('charges', 10);
const ROUNDS = arg('rounds', 5);
const ADVANCES = 40;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function world(others) {
  const sb = await createSandbox({ log: () => {}, clockStart: '2026-03-10T12:00:00Z', freezeClock: true });
  const call = callerOf(sb);
  const tenant = async (name, charges) => {
    const made = await call('POST', '/_sandbox/accounts', { name, clock: {} });
    const { clientId, clientSecret } = made.credentials[0];
    // A token lives 300 s of real time, less than making the crowd takes: each round takes a fresh one.
    const token = async () => (await call('POST', '/v2/auth', { client_id: clientId, client_secret: clientSecret })).access_token;
    const first = await token();
    for (let i = 0; i < charges; i++) await call('POST', '/v2/pix', { amount: 10, description: `c${i}`, expiresIn: 86_400 }, first);
    return { id: made.id, token };
  };
  for (let i = 0; i < others; i++) await tenant(`other ${i}`, CHARGES);
  const measured = await tenant('measured', 0);
  return { sb, call, measured };
}

/** One round on a side: charges made that expire along the way, then ADVANCES advances of 60 s and as many reads. */
async function round({ call, measured }) {
  const token = await measured.token();
  const ids = [];
  for (let i = 0; i < ADVANCES; i++) ids.push((await call('POST', '/v2/pix', { amount: 10, description: `m${i}`, expiresIn: 300 + 60 * i }, token)).id);
  const t0 = performance.now();
  for (let i = 0; i < ADVANCES; i++) await call('POST', `/_sandbox/accounts/${measured.id}/clock/advance`, { seconds: 60 });
  const t1 = performance.now();
  for (const id of ids) await call('GET', `/v2/transactions/${id}`, undefined, token);
  const t2 = performance.now();
  return { advanceMs: (t1 - t0) / ADVANCES, readMs: (t2 - t1) / ids.length };
}

const t0 = performance.now();
const quiet = await world(0);
const crowded = await world(OTHERS);
const buildS = (performance.now() - t0) / 1000;
const pending = Object.values(crowded.sb.deps.store.state.accounts).reduce((n, a) => n + Object.values(a.transactions).filter((t) => t.status === 'pending').length, 0);
await round(quiet); // warm-up (JIT), not measured
await round(crowded);
const ratios = { advance: [], read: [] };
const times = { quiet: { advance: [], read: [] }, crowded: { advance: [], read: [] } };
for (let r = 0; r < ROUNDS; r++) {
  const q = await round(quiet);
  const c = await round(crowded);
  ratios.advance.push(c.advanceMs / q.advanceMs);
  ratios.read.push(c.readMs / q.readMs);
  for (const [side, out] of [['quiet', q], ['crowded', c]]) {
    times[side].advance.push(out.advanceMs);
    times[side].read.push(out.readMs);
  }
}
await quiet.sb.close();
await crowded.sb.close();

const result = {
  date: new Date().toISOString(),
  others: OTHERS,
  pendingCharges: pending,
  rounds: ROUNDS,
  buildS: +buildS.toFixed(1),
  advanceMs: { quiet: +median(times.quiet.advance).toFixed(2), crowded: +median(times.crowded.advance).toFixed(2) },
  readMs: { quiet: +median(times.quiet.read).toFixed(3), crowded: +median(times.crowded.read).toFixed(3) },
  advanceRatio: +median(ratios.advance).toFixed(2),
  readRatio: +median(ratios.read).toFixed(2),
  target: 1.2,
};
result.met = result.advanceRatio <= result.target;
console.log(JSON.stringify(result));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/clocks.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
