// Health's oldest record after a restart (services/capacity.ts oldestRecordMs) reads each account's first transaction.
// Finding the first key of a big collection lists every key, so the first one is noted as the data file is read
// (store/first-records.ts, called from store/disk.ts), and looked for only when none was noted or it is gone.
import { afterEach, expect, test, vi } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness';
import { firstRecord } from '../../src/store/first-records';
import { tempDir } from '../foundation/process';

const noted = vi.hoisted(() => [] as { collection: object; key: string; record: unknown }[]);
vi.mock('../../src/store/first-records', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/store/first-records')>();
  return {
    ...real,
    noteFirstRecord: (collection: object, key: string, record: unknown) => {
      noted.push({ collection, key, record });
      real.noteFirstRecord(collection, key, record);
    },
  };
});

const harnesses: Harness[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.sb.close();
  for (const c of cleanups.splice(0)) c();
});

test('a restart notes the first record of each account as it reads the data file, and health reports the oldest of them', async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const dataFile = tmp.file('state.json');
  const first = await startHarness({ dataFile });
  await first.sb.close();
  noted.length = 0;
  const second = await startHarness({ dataFile });
  harnesses.push(second);
  const accounts = Object.values(second.sb.deps.store.state.accounts).filter((a) => Object.keys(a.transactions).length > 0);
  expect(accounts.length, 'the fixtures hold transactions').toBeGreaterThan(0);
  for (const account of accounts) {
    const key = Object.keys(account.transactions)[0]!;
    expect(noted.filter((n) => n.collection === account.transactions)).toEqual([{ collection: account.transactions, key, record: account.transactions[key] }]);
    expect(firstRecord(account.transactions)).toBe(account.transactions[key]);
  }
  const every = accounts.flatMap((a) => Object.values(a.transactions).map((t) => t.createdAt));
  expect((await second.control('GET', '/health')).body.oldestRecordAt).toBe(new Date(Math.min(...every)).toISOString());
});

test('a first record that is gone is looked for again: the next one is the first', () => {
  const transactions: Record<string, { n: number }> = { b: { n: 1 }, a: { n: 2 } };
  expect(firstRecord(transactions)).toBe(transactions.b);
  delete transactions.b;
  expect(firstRecord(transactions)).toBe(transactions.a);
  delete transactions.a;
  expect(firstRecord(transactions)).toBeUndefined();
});
