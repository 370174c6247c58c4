// Storage (sandbox.md 6): journal + snapshot, one process per file, bad files refused untouched, a torn journal tail,
// a full disk answered 503 with nothing kept, a file of the previous format, and a crash test (SIGKILL under load).
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { ledgerSums } from '../../src/domain/ledger';
import { readDataFile } from '../../src/store/store';
import { journalCrc, journalLine } from '../../src/store/disk';
import { crc32 } from '../../src/lib/crc32';
import type { UnitHooks } from '../../src/store/unit';
import { DEFAULT, T0 } from '../helpers/harness';
import { tempDir } from '../foundation/process';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const V1 = fileURLToPath(new URL('../fixtures/state-v1.json', import.meta.url));
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function dataFile(name = 'state.json') {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  return tmp.file(name);
}

async function open(file: string, extra: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await createSandbox({ log: () => {}, dataFile: file, clockStart: T0, freezeClock: true, ...extra });
  cleanups.push(() => sb.close());
  return sb;
}

async function call(sb: Sandbox, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await sb.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

const adjustPath = `/_sandbox/accounts/${DEFAULT.accountId}/adjustments`;

/** Every wallet's balance equals the sum of its ledger entries, and every adjustment has its ledger entry. */
function expectWhole(state: ReturnType<typeof readDataFile>) {
  for (const account of Object.values(state.accounts)) {
    const sums = ledgerSums(account);
    for (const wallet of Object.values(account.wallets)) expect(wallet.balances, `wallet ${wallet.id}`).toEqual(sums[wallet.id]);
    const ledgered = new Set(account.ledger.map((e) => e.transactionId));
    for (const tx of Object.values(account.transactions)) if (tx.type === 'adjustment') expect(ledgered.has(tx.id), `adjustment ${tx.id} has its ledger entry`).toBe(true);
  }
}

describe('journal and snapshot', () => {
  test('a change is in the journal when its answer arrives; a restart finds it; a clean stop folds it into the snapshot', async () => {
    const file = dataFile();
    const sb = await open(file);
    const res = await call(sb, 'POST', adjustPath, { amount: 12.34 });
    expect(res.status, res.text).toBe(201);
    const line = readFileSync(`${file}.journal`, 'utf8').trim().split('\n').at(-1)!;
    expect(JSON.parse(line).o.map((op: unknown[]) => (op[0] as string[]).join('/'))).toContain(`accounts/${DEFAULT.accountId}/transactions/${res.body.id}`);
    expect(readDataFile(file).accounts[DEFAULT.accountId]!.transactions[res.body.id]).toBeDefined();
    await sb.close();
    expect(existsSync(`${file}.journal`), 'the journal is folded and gone').toBe(false);
    expect(existsSync(`${file}.lock`), 'the lock is let go').toBe(false);
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot.version).toBe(2);
    expect(snapshot.accounts[DEFAULT.accountId].transactions[res.body.id].amount).toBe(1234);
  });

  test('a pending charge expires at its date after a restart: its expiry is read from the charge (no job is stored for it)', async () => {
    const file = dataFile();
    let sb = await open(file);
    const made = await call(sb, 'POST', `/_sandbox/accounts/${DEFAULT.accountId}/charges`, { amount: 5, description: 'expira depois', expiresIn: 600 });
    expect(made.status, made.text).toBe(201);
    expect(Object.values(sb.deps.store.raw.jobs).map((j) => j.ref)).not.toContain(made.body.id);
    await sb.close();
    sb = await open(file);
    const status = () => sb.deps.store.raw.accounts[DEFAULT.accountId]!.transactions[made.body.id]!.status;
    expect((await call(sb, 'POST', '/_sandbox/clock/advance', { seconds: 599 })).status).toBe(200);
    expect(status()).toBe('pending');
    expect((await call(sb, 'POST', '/_sandbox/clock/advance', { seconds: 1 })).status).toBe(200);
    expect(status()).toBe('cancelled');
  });

  test('a GET answers without waiting for a write in progress', async () => {
    const file = dataFile();
    const sb = await open(file);
    const write = call(sb, 'POST', adjustPath, { amount: 1 });
    const read = await call(sb, 'GET', `/_sandbox/accounts/${DEFAULT.accountId}`);
    expect(read.status, read.text).toBe(200);
    expect((await write).status).toBe(201);
  });

  test('a torn last journal line (a crash mid-append) is ignored with a warning; the lines before it load', async () => {
    const file = dataFile();
    const first = await open(file);
    const kept = await call(first, 'POST', adjustPath, { amount: 7 });
    expect(kept.status).toBe(201);
    const journal = readFileSync(`${file}.journal`, 'utf8');
    const snapshot = readFileSync(file, 'utf8');
    await first.close();
    // What a SIGKILL mid-append leaves: the snapshot of before, the journal with a line cut short.
    writeFileSync(file, snapshot);
    writeFileSync(`${file}.journal`, `${journal}{"n":99,"o":[[["accounts","x"`);
    const lines: string[] = [];
    const again = await open(file, { log: (l) => lines.push(l) });
    expect(lines.join('\n')).toMatch(/last line of .*state\.json\.journal \(line \d+\) is incomplete/);
    expect((await call(again, 'GET', `/_sandbox/accounts/${DEFAULT.accountId}`)).status).toBe(200);
    expect(again.deps.store.raw.accounts[DEFAULT.accountId]!.transactions[kept.body.id]).toBeDefined();
    const next = await call(again, 'POST', adjustPath, { amount: 1 });
    expect(next.status).toBe(201);
    expect(readFileSync(`${file}.journal`, 'utf8')).not.toContain('"n":99');
    expect(readDataFile(file).accounts[DEFAULT.accountId]!.transactions[next.body.id]).toBeDefined();
  });
});

/** The sandbox as built (dist/, which `npm test` builds first): its background folds run in a thread of their own. */
const BUILT = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
async function openBuilt(file: string, extra: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
  if (!existsSync(BUILT)) throw new Error("dist/ is not built: run 'node scripts/build.mjs' (npm test does this before vitest)");
  const built = (await import(BUILT)) as { createSandbox: typeof createSandbox };
  const sb = await built.createSandbox({ log: () => {}, dataFile: file, clockStart: T0, freezeClock: true, ...extra });
  cleanups.push(() => sb.close());
  return sb;
}

type Account = ReturnType<typeof readDataFile>['accounts'][string];
/** A record that start-up would refuse, written through a unit of work (so it is in the journal), and its repair. */
const badRecords: [string, (a: Account) => void, (a: Account) => void, RegExp][] = [
  ['a charge whose amount is a string', (a) => ((a.transactions['tx-bad'] as unknown) = { ...Object.values(a.transactions)[0], id: 'tx-bad', amount: '12.34' }), (a) => delete a.transactions['tx-bad'], /transactions\.tx-bad\.amount: expected an integer, received string/],
  ['a wallet whose balance is not whole cents', (a) => (Object.values(a.wallets)[0]!.balances.available += 0.5), (a) => (Object.values(a.wallets)[0]!.balances.available -= 0.5), /wallets\.[^.]+\.balances\.available/],
  ['an idempotency entry whose status is a string', (a) => ((a.idempotency['k-bad'] as unknown) = { key: 'k-bad', fingerprint: 'f', status: '201', body: '{}', createdAt: 1 }), (a) => delete a.idempotency['k-bad'], /idempotency\.k-bad\.status: expected an integer, received string/],
];

describe.each([
  ['in process (from source)', open, 0],
  ['in a thread of its own (as built)', openBuilt, 1],
] as const)('a background fold %s', (_, opener, offThread) => {
  test('past the threshold folds the journal into the snapshot; nothing is lost, and a restart loads it', async () => {
    const file = dataFile();
    const sb = await opener(file, { compactAfterBytes: 4000 });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await call(sb, 'POST', adjustPath, { amount: 1 });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    await sb.deps.store.flush();
    while (sb.deps.store.compaction!.runs === 0) await new Promise((r) => setImmediate(r));
    expect(Math.min(sb.deps.store.compaction!.offThread, 1), 'where the folds ran').toBe(offThread);
    expect(sb.deps.store.compaction!.abandoned).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).journalSeq, 'the snapshot has moved on').toBeGreaterThan(0);
    const state = readDataFile(file);
    for (const id of ids) expect(state.accounts[DEFAULT.accountId]!.transactions[id], id).toBeDefined();
    expectWhole(state);
  });

  test('folds that follow each other (the thread keeps the state it wrote for the next one) lose nothing', async () => {
    const file = dataFile();
    const sb = await opener(file, { compactAfterBytes: 1 });
    const store = sb.deps.store;
    for (let round = 0; round < 3; round++) {
      const runs = store.compaction!.runs;
      for (let i = 0; i < 5; i++) expect((await call(sb, 'POST', adjustPath, { amount: 1 })).status).toBe(201);
      await store.flush();
      while (store.compaction!.runs <= runs) await new Promise((r) => setImmediate(r));
    }
    expect(store.compaction!.runs).toBeGreaterThanOrEqual(3);
    expect(store.compaction!.abandoned).toBe(0);
    expect(JSON.parse(JSON.stringify(readDataFile(file))), 'snapshot + journal, as a restart reads them').toEqual(JSON.parse(JSON.stringify(store.raw)));
  });

  test.each(badRecords)('checks what it writes: with %s the snapshot stays byte for byte, the journal keeps everything, the log says what is wrong', async (_name, spoil, repair, problem) => {
    const file = dataFile();
    await (await opener(file)).close(); // the fixtures folded into the snapshot: the journal starts empty
    const before = readFileSync(file);
    const lines: string[] = [];
    const sb = await opener(file, { compactAfterBytes: 1, log: (l) => lines.push(l) });
    const store = sb.deps.store;
    await store.atomically('job', () => spoil(store.state.accounts[DEFAULT.accountId]!)).durable;
    while (store.compaction!.abandoned === 0) await new Promise((r) => setImmediate(r));
    expect(store.compaction!.runs).toBe(0);
    expect(readFileSync(file).equals(before), 'the snapshot was not replaced').toBe(true);
    expect(lines.find((l) => l.includes('could not fold'))).toMatch(problem);
    expect(() => readDataFile(file), 'the journal still holds the line, and start-up refuses it too').toThrow(problem);
    await store.atomically('job', () => repair(store.state.accounts[DEFAULT.accountId]!)).durable;
  });
});

describe('a change that cannot be written', () => {
  test('answers 503 STORAGE_UNAVAILABLE, is not kept, reads go on, and the next write succeeds', async () => {
    const file = dataFile();
    const hooks: UnitHooks = {};
    const sb = await open(file, { testHooks: hooks });
    const before = JSON.stringify(sb.deps.store.raw);
    const journal = readFileSync(`${file}.journal`, 'utf8');
    hooks.failStorage = 1;
    const failed = await call(sb, 'POST', adjustPath, { amount: 5 });
    expect(failed.status, failed.text).toBe(503);
    expect(failed.body.details.code).toBe('STORAGE_UNAVAILABLE');
    expect(failed.body.message).toMatch(/could not be written/);
    expect(JSON.stringify(sb.deps.store.raw), 'not kept in memory').toBe(before);
    expect(readFileSync(`${file}.journal`, 'utf8'), 'nothing of it on disk').toBe(journal);
    expect((await call(sb, 'GET', `/_sandbox/accounts/${DEFAULT.accountId}`)).status).toBe(200);
    const ok = await call(sb, 'POST', adjustPath, { amount: 5 });
    expect(ok.status, ok.text).toBe(201);
    expect(readDataFile(file).accounts[DEFAULT.accountId]!.transactions[ok.body.id]).toBeDefined();
  });

  test('every unit queued behind a failed write is undone too, newest first, and answered 503', async () => {
    const file = dataFile();
    const hooks: UnitHooks = {};
    const sb = await open(file, { testHooks: hooks });
    const before = JSON.stringify(sb.deps.store.raw);
    hooks.failStorage = 1;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => call(sb, 'POST', adjustPath, { amount: i + 1 })));
    expect(results.map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503]);
    expect(JSON.stringify(sb.deps.store.raw)).toBe(before);
    expectWhole(readDataFile(file));
  });
});

describe('one process per data file', () => {
  test('a second sandbox on the same file refuses to start and names the holder', async () => {
    const file = dataFile();
    await open(file);
    await expect(createSandbox({ log: () => {}, dataFile: file })).rejects.toThrow(new RegExp(`in use by process ${process.pid} on ${hostname()}`));
  });

  test('a second process refuses to start; a lock left by a dead process is taken over', async () => {
    const file = dataFile();
    const first = await startChild(file);
    const second = await runChild(file);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(`in use by process ${first.child.pid}`);
    first.child.kill('SIGKILL');
    await exited(first.child);
    const lock = JSON.parse(readFileSync(`${file}.lock`, 'utf8'));
    expect(lock.pid, 'the dead process left its lock').toBe(first.child.pid);
    const third = await startChild(file);
    expect(third.out()).toMatch(new RegExp(`taking over the lock .*process ${first.child.pid} .* is gone`));
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(third.child.pid);
    third.child.kill('SIGTERM');
    expect(await exited(third.child)).toBe(0);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

describe('a data file that is not a sandbox state stops the start, named, and is left byte for byte', () => {
  const v1 = readFileSync(V1, 'utf8');
  const wrongShape = JSON.parse(v1);
  wrongShape.accounts[DEFAULT.accountId].transactions[Object.keys(wrongShape.accounts[DEFAULT.accountId].transactions)[0]!].amount = 'dez';
  test.each([
    ['empty (0 bytes)', '', /is empty/],
    ['only whitespace', ' \n\t\n', /is empty/],
    ['not JSON', '{"version": 1, "accounts": ', /is not valid JSON/],
    ['cut short in the middle of a charge', v1.slice(0, v1.indexOf('"amount"', v1.indexOf('"transactions"'))), /is not valid JSON \(it ends at byte \d+ in the middle of the value that begins at byte \d+: the file was cut short\)/],
    ['null', 'null', /holds null, not a sandbox state/],
    ['an array', '[]', /holds an array/],
    ['another version', JSON.stringify({ version: 999, accounts: {} }), /has state version 999/],
    ['no version', JSON.stringify({ accounts: {} }), /has state version missing/],
    ['version only', '{"version":1}', /shape of a sandbox state: clock: .*/],
    ['accounts null', JSON.stringify({ ...JSON.parse(v1), accounts: null }), /accounts: /],
    ['a wrong field deep inside', JSON.stringify(wrongShape), new RegExp(`accounts\\.${DEFAULT.accountId}\\.transactions\\.[0-9a-f-]+\\.amount: `)],
  ])('%s', async (_name, text, message) => {
    const file = dataFile();
    writeFileSync(file, text);
    const error = await createSandbox({ log: () => {}, dataFile: file }).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(error).toMatch(message);
    expect(error).toContain(file);
    expect(readFileSync(file, 'utf8'), 'untouched').toBe(text);
    expect(existsSync(`${file}.journal`), 'no journal made').toBe(false);
    expect(existsSync(`${file}.lock`), 'the lock is let go').toBe(false);
  });

  test('a journal without its data file stops the start', async () => {
    const file = dataFile();
    writeFileSync(`${file}.journal`, '{"n":1,"o":[]}\n');
    await expect(createSandbox({ log: () => {}, dataFile: file })).rejects.toThrow(/is missing but its journal/);
    expect(existsSync(file)).toBe(false);
  });
});

test('migration: a data file of state version 1 (jobs as a list) loads and works', async () => {
  const file = dataFile();
  copyFileSync(V1, file);
  const old = JSON.parse(readFileSync(V1, 'utf8'));
  const sb = await open(file);
  const account = sb.deps.store.raw.accounts[DEFAULT.accountId]!;
  expect(Object.keys(account.transactions).sort()).toEqual(Object.keys(old.accounts[DEFAULT.accountId].transactions).sort());
  expect(Object.keys(account.deliveries)).toHaveLength(Object.keys(old.accounts[DEFAULT.accountId].deliveries).length);
  expect(Object.keys(account.balanceBlocks)).toHaveLength(1);
  expect(Object.keys(sb.deps.store.raw.jobs).sort()).toEqual(old.jobs.map((j: { id: string }) => j.id).sort());
  const pending = Object.values(account.transactions).find((t) => t.charge && t.status === 'pending')!;
  const paid = await call(sb, 'POST', `/_sandbox/transactions/${pending.id}/pay`);
  expect(paid.status, paid.text).toBe(200);
  expectWhole(sb.deps.store.raw);
  await sb.close();
  expect(JSON.parse(readFileSync(file, 'utf8')).version, 'written back in the current version at a clean stop').toBe(2);
});

// --- child processes ---

interface Child {
  child: ChildProcess;
  url: string;
  out(): string;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => child.once('exit', (code) => r(code)));
}

function startChild(file: string, compactAfterBytes = 8 * 1024 * 1024, onLine?: (line: string, child: ChildProcess) => void): Promise<Child> {
  const child = spawn(process.execPath, [CHILD, file, String(compactAfterBytes)], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line: ${out} ${err}`)), 15_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      for (const line of d.split('\n')) onLine?.(line, child);
      const m = /ready (http:\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, out: () => out });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited ${code}: ${out} ${err}`));
    });
  });
}

async function runChild(file: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CHILD, file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout!.resume();
  const code = await exited(child);
  return { code, stderr };
}

/** A state file with the v1 fixture's account and `n` extra charges: big enough that folding it takes a while. */
function seed(file: string, n: number) {
  const state = JSON.parse(readFileSync(V1, 'utf8'));
  const txs = state.accounts[DEFAULT.accountId].transactions;
  const sample = Object.values(txs).find((t: any) => t.charge) as Record<string, unknown>;
  for (let i = 0; i < n; i++) {
    const id = `seed-${String(i).padStart(6, '0')}`;
    txs[id] = { ...sample, id, status: 'cancelled' };
  }
  writeFileSync(file, JSON.stringify(state));
}

test('crash test: SIGKILL at random points under write load (and mid-fold), restarted on the same files: every answered write is there, nothing half', { timeout: 60_000 }, async () => {
  const file = dataFile();
  seed(file, 4000);
  const answered = { projects: new Set<string>(), adjustments: new Set<string>() };
  const sent = new Set<string>();
  let midFold = 0;
  const rounds = 6;
  for (let round = 0; round < rounds; round++) {
    // Odd rounds are killed as soon as a fold starts; even ones at a random moment.
    const killOnFold = round % 2 === 1;
    let folding = false;
    const c = await startChild(file, 30_000, (line, child) => {
      if (line.includes('folding the journal')) {
        folding = true;
        if (killOnFold) child.kill('SIGKILL');
      }
      if (line.includes('folded into')) folding = false;
    });
    const auth = await fetch(`${c.url}/v2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }) });
    const token = ((await auth.json()) as { access_token: string }).access_token;
    let alive = true;
    const died = exited(c.child).then(() => (alive = false));
    const worker = async (w: number) => {
      for (let i = 0; alive; i++) {
        try {
          if (i % 2 === 0) {
            const name = `r${round}w${w}i${i}`;
            sent.add(name);
            const res = await fetch(`${c.url}/v2/projects`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name, color: '#123456' }) });
            if (res.status === 201) answered.projects.add(name);
          } else {
            const res = await fetch(`${c.url}${adjustPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 0.01 }) });
            if (res.status === 201) answered.adjustments.add(((await res.json()) as { id: string }).id);
          }
        } catch {
          return; // killed
        }
      }
    };
    const workers = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    if (!killOnFold) setTimeout(() => c.child.kill('SIGKILL'), 150 + Math.floor(Math.random() * 500));
    else setTimeout(() => c.child.kill('SIGKILL'), 5000); // no fold started: stop anyway
    await died;
    await workers;
    if (folding) midFold++;

    const state = readDataFile(file);
    const account = state.accounts[DEFAULT.accountId]!;
    const names = new Set(account.projects.map((p) => p.name));
    for (const name of answered.projects) expect(names.has(name), `answered project ${name} (round ${round})`).toBe(true);
    for (const name of names) expect(name === 'Loja Online' || sent.has(name), `unknown project ${name}`).toBe(true);
    for (const id of answered.adjustments) expect(account.transactions[id], `answered adjustment ${id} (round ${round})`).toBeDefined();
    expect(Object.keys(account.transactions).filter((id) => id.startsWith('seed-'))).toHaveLength(4000);
    expectWhole(state);
  }
  expect(answered.projects.size + answered.adjustments.size).toBeGreaterThan(50);
  expect(midFold, 'at least one kill landed while a fold was running').toBeGreaterThan(0);
  // The last restart is clean.
  const last = await startChild(file);
  last.child.kill('SIGTERM');
  expect(await exited(last.child)).toBe(0);
  expectWhole(readDataFile(file));
  expect(existsSync(`${file}.journal`), 'a clean stop folds the journal').toBe(false);
});

// --- a journal that checks itself, files deleted or replaced while running, the lock on the real path (sandbox.md 11) ---

/** What a SIGKILL after three answered adjustments leaves: the snapshot of before and a journal of their lines. */
async function crashImage() {
  const file = dataFile();
  const sb = await open(file);
  const ids: string[] = [];
  for (const amount of [1, 2, 3]) ids.push((await call(sb, 'POST', adjustPath, { amount })).body.id);
  const snapshot = readFileSync(file, 'utf8');
  const journal = readFileSync(`${file}.journal`, 'utf8');
  await sb.close();
  cleanups.pop();
  writeFileSync(file, snapshot);
  writeFileSync(`${file}.journal`, journal);
  return { file, ids, lines: journal.trimEnd().split('\n') };
}

type Entry = { n: number; c: string; o: [unknown[], unknown?][] };
/** A line rewritten with a valid checksum: only the schema and id checks can catch what `change` did. */
const resealed = (line: string, change: (e: Entry) => void) => {
  const entry = JSON.parse(line) as Entry;
  change(entry);
  return journalLine(entry.n, JSON.stringify({ o: entry.o })).trimEnd();
};
const txOp = (e: Entry) => e.o.find((op) => op[0][2] === 'transactions')!;

describe('a journal line that is not what was written stops the start, with its line number and what is wrong; nothing is rewritten', () => {
  test.each([
    ['a wrong type (amount "lots")', (l: string) => resealed(l, (e) => ((txOp(e)[1] as { amount: unknown }).amount = 'lots')), /: .*amount: expected an integer, received string/],
    ['a changed account id', (l: string) => resealed(l, (e) => e.o.forEach((op) => op[0].length > 2 && (op[0][1] = '99999999-9999-4999-8999-999999999999'))), / writes accounts\.99999999-.*does not exist/],
    ['a transaction filed under another id', (l: string) => resealed(l, (e) => (txOp(e)[0][3] = 'another-id')), /: .*its id .* is not the key it is filed under \(another-id\)/],
    ['a flipped bit', (l: string) => l.replace('"amount":100,', '"amount":101,'), /: its checksum is [0-9a-f]{8} but its content sums to [0-9a-f]{8}/],
    ['a line without its checksum', (l: string) => l.replace(/"c":"[0-9a-f]{8}",/, ''), /: it carries no valid checksum/],
    ['a record that is no part of a state', (l: string) => resealed(l, (e) => e.o.push([['accounts', 'x', 'transactions', 'y', 'deeper'], 1])), /: accounts\.x\.transactions\.y\.deeper is not a record/],
  ])('%s', async (_name, tamper, message) => {
    const { file, ids, lines } = await crashImage();
    const at = lines.findIndex((l) => l.includes(`"transactions","${ids[0]}"`));
    expect(lines[at]).toContain('"amount":100,');
    lines[at] = tamper(lines[at]!);
    writeFileSync(`${file}.journal`, `${lines.join('\n')}\n`);
    const before = [readFileSync(file), readFileSync(`${file}.journal`)];
    const refused = await createSandbox({ log: () => {}, dataFile: file }).then(() => 'started', (err: Error) => err.message);
    expect(refused).toMatch(new RegExp(`line ${at + 1}${message.source}`));
    expect([readFileSync(file), readFileSync(`${file}.journal`)], 'left byte for byte').toEqual(before);
    expect(existsSync(`${file}.lock`), 'the lock is let go').toBe(false);
  });

  test("the line checksum is zlib's CRC-32 of the UTF-8 bytes, the same with or without node:zlib's crc32 (Node < 20.15)", () => {
    for (const text of ['', '{"n":1,"o":[]}', 'Ação São Paulo ✓ 💸']) expect(journalCrc(text)).toBe(crc32(Buffer.from(text)));
    expect(journalCrc('123456789')).toBe(0xcbf43926); // the standard check value
  });

  test('an untouched crash image loads every line; lines of the previous format (no checksum) still load after a snapshot of that format', async () => {
    const { file, ids, lines } = await crashImage();
    expect(Object.keys(readDataFile(file).accounts[DEFAULT.accountId]!.transactions)).toEqual(expect.arrayContaining(ids));
    writeFileSync(file, readFileSync(file, 'utf8').replace(/,?"journalFormat":\d+/, ''));
    writeFileSync(`${file}.journal`, `${lines.map((l) => l.replace(/"c":"[0-9a-f]{8}",/, '')).join('\n')}\n`);
    expect(Object.keys(readDataFile(file).accounts[DEFAULT.accountId]!.transactions)).toEqual(expect.arrayContaining(ids));
  });

  test('a line that wrote under an account later deleted (the fold overlapped) loads', async () => {
    const file = dataFile();
    const sb = await open(file);
    const made = await call(sb, 'POST', '/_sandbox/accounts', { name: 'short-lived' });
    const snapshot = readFileSync(file, 'utf8');
    await call(sb, 'POST', `/_sandbox/accounts/${made.body.id}/adjustments`, { amount: 1 });
    expect((await call(sb, 'DELETE', `/_sandbox/accounts/${made.body.id}`)).status).toBe(200);
    const journal = readFileSync(`${file}.journal`, 'utf8');
    await sb.close();
    cleanups.pop();
    // The snapshot no longer has the account (a fold that ran after its deletion), the journal still writes under it.
    const state = JSON.parse(snapshot);
    delete state.accounts[made.body.id];
    writeFileSync(file, JSON.stringify(state));
    writeFileSync(`${file}.journal`, journal);
    expect(readDataFile(file).accounts[made.body.id]).toBeUndefined();
  });
});

describe('files deleted or replaced while running', () => {
  test.each([
    ['the journal', (f: string) => rmSync(`${f}.journal`)],
    ['the data file', (f: string) => rmSync(f)],
    ['the lock', (f: string) => rmSync(`${f}.lock`)],
    ['the data file, replaced by a copy', (f: string) => (copyFileSync(f, `${f}.copy`), renameSync(`${f}.copy`, f))],
    ['all three', (f: string) => ['', '.journal', '.lock'].forEach((s) => rmSync(`${f}${s}`))],
  ])('%s: writes answer 503 STORAGE_UNAVAILABLE until a fresh snapshot and journal are at the path, said in the log', async (_name, remove) => {
    const file = dataFile();
    const lines: string[] = [];
    const sb = await open(file, { log: (l) => lines.push(l) });
    const kept = await call(sb, 'POST', adjustPath, { amount: 5 });
    expect(kept.status).toBe(201);
    remove(file);
    const refused = await call(sb, 'POST', adjustPath, { amount: 6 });
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body.details.code).toBe('STORAGE_UNAVAILABLE');
    expect(refused.body.message).toMatch(/deleted or replaced/);
    expect((await call(sb, 'GET', `/_sandbox/accounts/${DEFAULT.accountId}`)).status, 'reads go on').toBe(200);
    // In process, a refused write never waits on I/O: the loop yields to the event loop, where the rebuild's writes run.
    const nextTurn = () => new Promise((r) => setImmediate(r));
    let after = await call(sb, 'POST', adjustPath, { amount: 7 });
    for (let i = 0; i < 1000 && after.status === 503; i++) {
      await nextTurn();
      after = await call(sb, 'POST', adjustPath, { amount: 7 });
    }
    expect(after.status, `${after.text}\n${lines.join("\n")}`).toBe(201);
    expect(lines.join('\n')).toMatch(/was deleted or replaced while the sandbox ran; 1 change\(s\) undone and answered 503/);
    expect(lines.join('\n')).toMatch(/wrote a fresh snapshot and journal at .*state\.json/);
    expect(existsSync(file) && existsSync(`${file}.journal`) && existsSync(`${file}.lock`)).toBe(true);
    // What the files at the path hold now, read as a restart after a crash would: the answered writes, not the refused one.
    const state = readDataFile(file);
    const txs = state.accounts[DEFAULT.accountId]!.transactions;
    expect(txs[kept.body.id]).toBeDefined();
    expect(txs[after.body.id]).toBeDefined();
    expect(Object.values(txs).filter((t) => t.amount === 600)).toEqual([]);
    expectWhole(state);
  });

  test('deleted files, then SIGKILL: a restart has every answered write, and a second process is refused meanwhile', { timeout: 30_000 }, async () => {
    const file = dataFile();
    const first = await startChild(file);
    const post = async (amount: number) => {
      const res = await fetch(`${first.url}${adjustPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }) });
      return { status: res.status, body: (await res.json()) as { id: string } };
    };
    const answered: string[] = [];
    for (let i = 1; i <= 5; i++) answered.push((await post(i)).body.id);
    for (const suffix of ['', '.journal', '.lock']) rmSync(`${file}${suffix}`);
    const refused: number[] = [];
    while (answered.length < 15) {
      const res = await post(answered.length + 1);
      if (res.status === 201) answered.push(res.body.id);
      else refused.push(res.status);
      expect(refused.length).toBeLessThan(200);
    }
    expect(refused[0]).toBe(503);
    expect(first.out()).toMatch(/deleted or replaced/);
    const second = await runChild(file);
    expect(second.code, 'a second sandbox on the path is refused while the first runs').not.toBe(0);
    expect(second.stderr).toContain(`in use by process ${first.child.pid}`);
    first.child.kill('SIGKILL');
    await exited(first.child);
    const txs = readDataFile(file).accounts[DEFAULT.accountId]!.transactions;
    for (const id of answered) expect(txs[id], `answered write ${id}`).toBeDefined();
    expectWhole(readDataFile(file));
  });
});

describe('the lock is on the real path', () => {
  test('a second process given a symlink to the data file is refused, and the link is left a link', async () => {
    const file = dataFile();
    const first = await startChild(file);
    const linkDir = tempDir();
    cleanups.push(linkDir.cleanup);
    const link = linkDir.file('link.json');
    symlinkSync(file, link);
    const second = await runChild(link);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(`in use by process ${first.child.pid}`);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    // Through the link now: the snapshot is written at the real file, the link stays a link.
    const third = await startChild(link);
    expect((await fetch(`${third.url}${adjustPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' })).status).toBe(201);
    expect(existsSync(`${file}.lock`), 'the lock is beside the real file').toBe(true);
    third.child.kill('SIGTERM');
    expect(await exited(third.child)).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(`${link}.journal`) || existsSync(`${link}.lock`)).toBe(false);
  });
});
