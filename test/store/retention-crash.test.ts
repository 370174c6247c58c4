// A kill -9 during a retention sweep (sandbox.md 6.1): restarted on the same files, no answered write is lost, no
// transaction group is half deleted, and every balance still equals its ledger.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { createSandbox } from '../../src/app';
import type { Transaction } from '../../src/domain/types';
import { DEFAULT, expectLedgerBalanced, T0 } from '../helpers/harness';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'retention-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const GROUPS = 4000;

/** A data file whose default tenant holds GROUPS paid payments, each with its refund: all more than a day old after the advance. */
async function seed(file: string) {
  const sb = await createSandbox({ dataFile: file, log: () => {}, clockStart: T0, freezeClock: true });
  const call = (method: string, path: string, body?: unknown) => sb.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const made = (await (await call('POST', `/_sandbox/accounts/${DEFAULT.accountId}/charges`, { amount: 10, description: 'sample' })).json()) as { id: string };
  expect((await call('POST', `/_sandbox/transactions/${made.id}/pay`)).status).toBe(200);
  await sb.close();
  const state = JSON.parse(readFileSync(file, 'utf8'));
  const account = state.accounts[DEFAULT.accountId];
  const sample = account.transactions[made.id] as Transaction;
  const wallet = account.wallets[sample.walletId];
  for (let i = 0; i < GROUPS; i++) {
    const id = `seed-${i}`;
    const refundId = `seed-${i}-refund`;
    account.transactions[id] = { ...sample, id, status: 'completed' };
    account.transactions[refundId] = { ...sample, id: refundId, type: 'refund', relatedTransactionId: id, charge: undefined };
    // the payment credits 10.00 and the refund debits it: the wallet's balance does not change, the ledger has both
    account.ledger.push({ id: `${id}-l`, walletId: wallet.id, bucket: 'available', amount: 1000, transactionId: id, at: sample.createdAt });
    account.ledger.push({ id: `${refundId}-l`, walletId: wallet.id, bucket: 'available', amount: -1000, transactionId: refundId, at: sample.createdAt });
  }
  writeFileSync(file, JSON.stringify(state));
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

function startChild(file: string, onLine: (line: string, child: ChildProcess) => void): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CHILD, file], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CHILD_OPTIONS: JSON.stringify({ retainTransactions: '1d' }) } });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 15_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      for (const line of d.split('\n')) onLine(line, child);
      const m = /ready (http:\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${out}`)));
  });
}

test('kill -9 during a retention sweep: answered writes kept, groups whole, balances equal the ledger', { timeout: 90_000 }, async () => {
  if (!existsSync(BUILT)) throw new Error("dist/ is not built: run 'node scripts/build.mjs' (npm test does this before vitest)");
  const file = join(dir, 'state.json');
  let midSweep = 0;
  for (let round = 0; round < 4; round++) {
    rmSync(file, { force: true });
    rmSync(`${file}.journal`, { force: true });
    await seed(file);
    // Even rounds are killed as soon as the sweep says it is deleting in batches; odd ones at a random moment.
    const { child, url } = await startChild(file, (line, c) => {
      if (round % 2 === 0 && line.includes('retention: deleting the settled transactions')) c.kill('SIGKILL');
    });
    const answered = new Set<string>();
    let alive = true;
    const died = exited(child).then(() => (alive = false));
    // Projects: writes that retention never deletes (an adjustment made now would be old after the advance).
    const auth = await fetch(`${url}/v2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }) });
    const token = ((await auth.json()) as { access_token: string }).access_token;
    let n = 0;
    const makeProject = async () => {
      const name = `r${round}-${n++}`;
      const res = await fetch(`${url}/v2/projects`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name, color: '#123456' }) });
      if (res.status === 201) answered.add(name);
    };
    const writer = async () => {
      while (alive) await makeProject().catch(() => (alive = false)); // refused: killed
    };
    for (let i = 0; i < 5; i++) await makeProject();
    // The advance runs the sweep before it answers; projects are made beside it.
    void fetch(`${url}/_sandbox/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 2 * 86_400 }) }).catch(() => {});
    const writers = Promise.all([writer(), writer()]);
    setTimeout(() => child.kill('SIGKILL'), round % 2 === 0 ? 10_000 : 20 + Math.floor(Math.random() * 200));
    await died;
    await writers;

    const sb = await createSandbox({ dataFile: file, log: () => {} });
    try {
      const account = sb.deps.store.raw.accounts[DEFAULT.accountId]!;
      const txs = account.transactions;
      const names = new Set(account.projects.map((p) => p.name));
      for (const name of answered) expect(names.has(name), `answered project ${name} (round ${round})`).toBe(true);
      let left = 0;
      for (let i = 0; i < GROUPS; i++) {
        expect(Object.hasOwn(txs, `seed-${i}`), `seed-${i} and its refund go together (round ${round})`).toBe(Object.hasOwn(txs, `seed-${i}-refund`));
        if (Object.hasOwn(txs, `seed-${i}`)) left++;
      }
      if (left > 0 && left < GROUPS) midSweep++;
      expect(answered.size).toBeGreaterThanOrEqual(5);
      expectLedgerBalanced(sb);
    } finally {
      await sb.close();
    }
  }
  expect(midSweep, 'at least one kill landed in the middle of the sweep').toBeGreaterThan(0);
});
