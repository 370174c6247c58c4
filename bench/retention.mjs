// npm run bench:retention: what a big retention sweep costs the requests around it (issue 39, sandbox.md 6.1). In
// process (the built package, app.request), on a data file: a tenant holds 100,000 settled transactions (50,000
// payments, each with its refund) made two days earlier; `--retain-transactions 1d`. `POST /v2/pix` p99 is measured
// alone, then while a clock advance runs the sweep that deletes all 100,000 (in units of 250, then one ledger and events
// rewrite), then alone again; the sweep's time is the advance's. Target: create p99 during the sweep within 2x of alone.
// Writes bench/results/retention.json (npm run bench puts it in its table). `--groups=N` changes the 50,000.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../dist/index.js';
import { callerOf } from './in-process.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const GROUPS = arg('groups', 50_000);
const LOOPS = 4;
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const p99 = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length * 0.99)];
const round = (ms) => Math.round(ms * 10) / 10;

const dir = mkdtempSync(join(tmpdir(), 'retention-bench-'));
try {
  const sb = await createSandbox({ dataFile: join(dir, 'state.json'), log: () => {}, clockStart: '2026-03-10T12:00:00Z', freezeClock: true, retainTransactions: '1d' });
  const call = callerOf(sb);
  const token = (await call('POST', '/v2/auth', { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' })).access_token;

  // The old transactions, written straight into the state (a unit of their own): a payment credits 10.00 and its
  // refund debits it, so the balance is unchanged and the ledger holds both lines.
  const sample = await call('POST', `/_sandbox/accounts/${ACCOUNT}/charges`, { amount: 10, description: 'sample' });
  await call('POST', `/_sandbox/transactions/${sample.id}/pay`);
  const store = sb.deps.store;
  await store.atomically('system', () => {
    const account = store.state.accounts[ACCOUNT];
    const tx = store.raw.accounts[ACCOUNT].transactions[sample.id];
    for (let i = 0; i < GROUPS; i++) {
      const id = `old-${i}`;
      account.transactions[id] = { ...tx, id, charge: undefined };
      account.transactions[`${id}-refund`] = { ...tx, id: `${id}-refund`, type: 'refund', relatedTransactionId: id, charge: undefined };
      account.ledger.push({ id: `${id}-l`, walletId: tx.walletId, bucket: 'available', amount: 1000, transactionId: id, at: tx.createdAt });
      account.ledger.push({ id: `${id}-r`, walletId: tx.walletId, bucket: 'available', amount: -1000, transactionId: `${id}-refund`, at: tx.createdAt });
    }
  }).durable;
  const held = store.records;

  /** Creates from LOOPS loops until `until()` says stop (or `count` each); their latencies in ms. */
  const creates = async (until, count = Infinity) => {
    const times = [];
    await Promise.all(
      Array.from({ length: LOOPS }, async () => {
        for (let i = 0; i < count && !until(); i++) {
          const t0 = performance.now();
          await call('POST', '/v2/pix', { amount: 12.5, description: 'during' }, token);
          times.push(performance.now() - t0);
        }
      }),
    );
    return times;
  };
  await creates(() => false, 200); // warm-up
  const before = await creates(() => false, 500);

  let done = false;
  const t0 = performance.now();
  const sweep = call('POST', '/_sandbox/clock/advance', { seconds: 2 * 86_400 }).then(() => {
    done = true;
    return performance.now() - t0;
  });
  const during = await creates(() => done);
  const sweepMs = await sweep;
  const after = await creates(() => false, 500);
  const health = await call('GET', '/_sandbox/health');
  await sb.close();

  const alone = [...before, ...after];
  const result = {
    date: new Date().toISOString(),
    deleted: health.retention.deleted.transactions,
    recordsBefore: held,
    recordsAfter: health.records,
    sweepMs: Math.round(sweepMs),
    createsDuring: during.length,
    p99Ms: { alone: round(p99(alone)), during: round(p99(during)) },
  };
  result.ratio = round(result.p99Ms.during / result.p99Ms.alone) || null;
  result.met = result.deleted >= 2 * GROUPS && result.ratio !== null && result.ratio <= 2;
  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('results/retention.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
