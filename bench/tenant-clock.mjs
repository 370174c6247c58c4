// Advancing one tenant's clock with many other tenants beside it (issue 37, sandbox.md 4.6): `node bench/tenant-clock.mjs
// [TENANTS] [CHARGES]` after `npm run build` (default 10,000 other tenants holding 100,000 pending charges). In process
// (app.request), the clock frozen: the median of 15 one-day advances of a tenant with 10 pending charges of its own,
// alone and then with the others made; the target is a ratio within 1.2.
import { createSandbox } from '../dist/index.js';

const others = Number(process.argv[2] ?? 10_000);
const charges = Number(process.argv[3] ?? 100_000);
const ROUNDS = 15;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const sb = await createSandbox({ log: () => {}, clockStart: '2026-03-10T12:00:00.000Z', freezeClock: true });
const call = async (method, path, body) => {
  const res = await sb.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const tenant = async (name, clock) => (await call('POST', '/_sandbox/accounts', { name, ...(clock ? { clock: {} } : {}) })).id;

/** Median ms of ROUNDS one-day advances of a fresh tenant with its own clock and 10 pending charges made each round. */
async function advanceMs() {
  const times = [];
  for (let r = 0; r < ROUNDS; r++) {
    const id = await tenant(`measured ${r}`, true);
    for (let i = 0; i < 10; i++) await call('POST', `/_sandbox/accounts/${id}/charges`, { amount: 1, description: 'mine', expiresIn: 3600 });
    const t0 = performance.now();
    await call('POST', `/_sandbox/accounts/${id}/clock/advance`, { seconds: 86_400 });
    times.push(performance.now() - t0);
    await call('DELETE', `/_sandbox/accounts/${id}`);
  }
  return median(times);
}

await advanceMs(); // warm-up
const alone = await advanceMs();
const perTenant = Math.ceil(charges / others);
const t0 = performance.now();
for (let t = 0; t < others; t++) {
  const id = await tenant(`other ${t}`, t % 2 === 0); // half with clocks of their own, half on the sandbox clock
  for (let i = 0; i < perTenant && t * perTenant + i < charges; i++) await call('POST', `/_sandbox/accounts/${id}/charges`, { amount: 1, description: 'pending elsewhere', expiresIn: 604_800 });
}
const seedS = Math.round((performance.now() - t0) / 1000);
const beside = await advanceMs();
console.log(JSON.stringify({ others, charges, seedS, aloneMs: +alone.toFixed(2), besideMs: +beside.toFixed(2), ratio: +(beside / alone).toFixed(2) }));
await sb.close();
