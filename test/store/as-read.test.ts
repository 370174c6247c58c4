// The read of a data file counts and checks each collection as its entries go by (store/as-read.ts), so the start does
// not list a collection of millions again. What it learns must be what listing would find: a key met twice, a journal
// line that writes inside a collection, and a bad entry are the cases where it must step aside. The replay's look at
// where a journal line writes serves both that and its rule for lines under a missing record, tested here too.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { startHarness } from '../helpers/harness';
import { tempDir } from '../foundation/process';
import { journalLine, journalOf, loadDataFile, serializeInSlices } from '../../src/store/disk';
import { loadStateChecks } from '../../src/store/checks';
import { tallyOf } from '../../src/store/unit';
import type { State } from '../../src/store/state';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let base: State;
let account: string;
let txIds: string[];

beforeAll(async () => {
  await loadStateChecks();
  const dataFile = tmp.file('base.json');
  const h = await startHarness({ dataFile });
  for (let i = 0; i < 3; i++) {
    const made = await h.v2('POST', '/pix', { body: { amount: 10 + i, description: `as read ${i}`, metadata: { order: `o-${i}`, note: 'x'.repeat(40 * i) } } });
    expect(made.status).toBe(201);
  }
  await h.sb.close();
  base = loadDataFile(dataFile)!.state;
  account = Object.keys(base.accounts).find((id) => Object.keys(base.accounts[id]!.transactions).length >= 3)!;
  txIds = Object.keys(base.accounts[account!]!.transactions);
});

/** The snapshot text the sandbox writes for `state` (a collection of more than 200 entries has one a line; these are padded to it). */
async function snapshotText(state: State): Promise<string> {
  const parts: string[] = [];
  await serializeInSlices(state, 0, Infinity, () => true, { longestMs: 0 }, async (chunk) => void parts.push(chunk));
  return parts.join('');
}

/** `state` with 250 more transactions in `account` (so its collection is written one entry a line). */
function grown(): State {
  const state = structuredClone(base);
  const txs = state.accounts[account]!.transactions;
  const model = txs[txIds[0]!]!;
  for (let i = 0; i < 250; i++) {
    const id = `pad-${String(i).padStart(4, '0')}`;
    txs[id] = { ...model, id, metadata: i % 3 === 0 ? { i } : undefined };
  }
  return JSON.parse(JSON.stringify(state)) as State;
}

/** Writes `text` (and journal lines of `ops`, one line each) as a data file; returns its path. */
function dataFile(name: string, text: string, ops: unknown[][] = []): string {
  const file = tmp.file(`${name}.json`);
  writeFileSync(file, text);
  writeFileSync(journalOf(file), ops.map((op, i) => journalLine(i + 1, JSON.stringify({ o: [op] }))).join(''));
  return file;
}

/** The text with the line of transaction `id` written twice, the second time with `change` applied to the entry. */
function twice(text: string, id: string, change: (entry: Record<string, unknown>) => void): string {
  const start = text.indexOf(`\n"${id}":`) + 1;
  const end = text.indexOf('\n', start);
  const line = text.slice(start, end).replace(/,$/, '');
  const entry = JSON.parse(`{${line}}`)[id] as Record<string, unknown>;
  change(entry);
  return `${text.slice(0, end + 1)}${JSON.stringify(id)}:${JSON.stringify(entry)},${text.slice(end)}`;
}

describe('what the read counts is what listing the state counts', () => {
  const cases: { name: string; make: (text: string) => { text: string; ops?: unknown[][] }; counted: boolean }[] = [
    { name: 'a snapshot as written', make: (text) => ({ text }), counted: true },
    { name: 'a key met twice, its second entry heavier', make: (text) => ({ text: twice(text, 'pad-0001', (e) => (e.metadata = { big: 'y'.repeat(500) })) }), counted: false },
    { name: 'a journal line adds a transaction', make: (text) => ({ text, ops: [[['accounts', account, 'transactions', 'late'], { ...grown().accounts[account]!.transactions['pad-0000']!, id: 'late' }]] }), counted: false },
    { name: 'a journal line deletes one', make: (text) => ({ text, ops: [[['accounts', account, 'transactions', 'pad-0002']]] }), counted: false },
    { name: 'a journal line rewrites one, with more metadata', make: (text) => ({ text, ops: [[['accounts', account, 'transactions', 'pad-0004'], { ...grown().accounts[account]!.transactions['pad-0004']!, metadata: { k: 'z'.repeat(300) } }]] }), counted: false },
    { name: 'a journal line writes another collection', make: (text) => ({ text, ops: [[['accounts', account, 'idempotency', 'k1'], { key: 'k1', fingerprint: 'f', status: 201, body: '{}', createdAt: 1 }]] }), counted: true },
  ];
  test.each(cases)('$name', async ({ name, make, counted }) => {
    const { text, ops } = make(await snapshotText(grown()));
    const found = loadDataFile(dataFile(name.replace(/\W+/g, '-'), text, ops))!;
    const transactions = found.state.accounts[account]!.transactions;
    expect(tallyOf(found.state, found.asRead.tally)).toEqual(tallyOf(found.state));
    // Counted as read, or left to be listed: a count kept past a change would be wrong.
    expect(found.asRead.tally(transactions) !== undefined).toBe(counted);
    if (counted) expect(found.asRead.tally(transactions)!.records).toBe(Object.keys(transactions).length);
  });
});

describe('the shape check of entries as read', () => {
  const bad = (e: Record<string, unknown>) => (e.amount = '12');
  const cases: { name: string; make: (text: string) => string; problem: string | null }[] = [
    { name: 'every entry sound', make: (text) => text, problem: null },
    { name: 'a bad entry', make: (text) => text.replace(/("pad-0007":\{[^\n]*?"amount":)\d+/, '$1"12"'), problem: 'accounts.ACCOUNT.transactions.pad-0007.amount: expected an integer, received string' },
    { name: 'a bad entry replaced by a sound one of the same key', make: (text) => twice(text.replace(/("pad-0007":\{[^\n]*?"amount":)\d+/, '$1"12"'), 'pad-0007', (e) => (e.amount = 12)), problem: null },
    { name: 'a sound entry replaced by a bad one', make: (text) => twice(text, 'pad-0007', bad), problem: 'accounts.ACCOUNT.transactions.pad-0007.amount: expected an integer, received string' },
  ];
  test.each(cases)('$name', async ({ name, make, problem }) => {
    const file = dataFile(`shape-${name.replace(/\W+/g, '-')}`, make(await snapshotText(grown())));
    if (problem === null) {
      const found = loadDataFile(file)!;
      expect(found.asRead.checked(found.state.accounts[account]!.transactions)).toBe(name === 'every entry sound');
    } else expect(() => loadDataFile(file)).toThrow(problem.replace('ACCOUNT', account));
  });
});

test('a restart reports the records it holds as counted while reading (health, on a real port)', async () => {
  const file = dataFile('health', await snapshotText(grown()));
  const h = await startHarness({ dataFile: file }, 'port');
  try {
    const health = await h.control('GET', '/health');
    const held = Object.values(loadDataFile(file)!.state.accounts).reduce((n, a) => n + Object.keys(a.transactions).length, 0);
    expect(health.status).toBe(200);
    expect(health.body.records).toBe(held);
  } finally {
    await h.sb.close();
  }
});

describe('journal lines that write under a record that is missing', () => {
  const entry = () => ({ ...grown().accounts[account]!.transactions['pad-0000']!, id: 't1' });
  const ghost = () => ({ ...grown().accounts[account]!, id: 'ghost' });
  const cases: { name: string; ops: () => unknown[][]; problem: RegExp | null }[] = [
    { name: 'an entry of an account no line makes', ops: () => [[['accounts', 'ghost', 'transactions', 't1'], entry()]], problem: /writes accounts\.ghost\.transactions\.t1, whose account ghost does not exist and is made by no later line/ },
    { name: 'the same, and a later line makes the account', ops: () => [[['accounts', 'ghost', 'transactions', 't1'], entry()], [['accounts', 'ghost'], ghost()]], problem: null },
    { name: 'the same, and a later line removes the account', ops: () => [[['accounts', 'ghost', 'transactions', 't1'], entry()], [['accounts', 'ghost']]], problem: null },
    { name: 'an entry of an account that exists', ops: () => [[['accounts', account, 'transactions', 't1'], entry()]], problem: null },
  ];
  test.each(cases)('$name', async ({ name, ops, problem }) => {
    const file = dataFile(`orphan-${name.replace(/\W+/g, '-')}`, await snapshotText(grown()), ops());
    if (problem) expect(() => loadDataFile(file)).toThrow(problem);
    else expect(loadDataFile(file)!.state.accounts[account]!.transactions['t1'] !== undefined).toBe(name === 'an entry of an account that exists');
  });
});
