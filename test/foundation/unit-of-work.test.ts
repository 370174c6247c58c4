// All-or-nothing (sandbox.md 2.8, second bullet): a request or control action that answers an error has changed
// nothing, in memory or on disk, whatever throws inside it and wherever. The test hook `failWrite` makes the Nth write
// a request records throw; each verb is run with write #1, #2, ... failing in turn until it gets through.
import { existsSync, readFileSync } from 'node:fs';
import { types } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import type { UnitHooks } from '../../src/store/unit';
import { DEFAULT, failEachWrite, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { tempDir } from './process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const serialized = (h: Harness) => JSON.stringify(h.sb.deps.store.raw);

/** Every file the store keeps beside a data file, as bytes (absent files as null). */
function disk(file: string | undefined): string | null {
  if (!file) return null;
  const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '<absent>');
  return [file, `${file}.journal`].map(read).join('\n--\n');
}

async function setup(dataFile?: string) {
  const hooks: UnitHooks = { failWrite: null };
  const h = await startHarness({ testHooks: hooks, ...(dataFile ? { dataFile } : {}) });
  const token = await h.token();
  const v2 = (method: string, path: string, body?: unknown) => h.api(method, `/v2${path}`, { token, ...(body === undefined ? {} : { body }) });
  return { h, hooks, v2 };
}

type Ctx = Awaited<ReturnType<typeof setup>>;

async function charge(ctx: Ctx, amount = 100): Promise<string> {
  const res = await ctx.v2('POST', '/pix', { amount, description: 'tudo ou nada' });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function paid(ctx: Ctx, amount = 100): Promise<string> {
  const id = await charge(ctx, amount);
  const res = await ctx.h.control('POST', `/transactions/${id}/pay`);
  expect(res.status, res.text).toBe(200);
  return id;
}

const WITHDRAWAL = { amount: 5, pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Fulano', holderDocument: '12345678909', holderDocumentType: 'cpf' };

async function withdrawal(ctx: Ctx): Promise<string> {
  const res = await ctx.v2('POST', '/withdrawals', WITHDRAWAL);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function refund(ctx: Ctx): Promise<string> {
  const id = await paid(ctx);
  const res = await ctx.v2('POST', `/transactions/${id}/refund`, { reason: 'cliente desistiu' });
  expect(res.status, res.text).toBeLessThan(300);
  return res.headers.get('location')!.replace('/v2/transactions/', '');
}

async function block(ctx: Ctx): Promise<string> {
  const id = await paid(ctx);
  const res = await ctx.h.control('POST', `/transactions/${id}/block`);
  expect(res.status, res.text).toBe(200);
  return res.body.id ?? res.body.balanceBlock?.id ?? res.body.block?.id;
}

/** Each verb: prepare what it needs (no fault), then the request under test. */
const VERBS: [string, (ctx: Ctx) => Promise<() => Promise<ApiResponse>>][] = [
  ['POST /v2/pix (create a charge)', async (ctx) => () => ctx.v2('POST', '/pix', { amount: 250, description: 'nova' })],
  ['pay', async (ctx) => { const id = await charge(ctx); return () => ctx.h.control('POST', `/transactions/${id}/pay`); }],
  ['expire', async (ctx) => { const id = await charge(ctx); return () => ctx.h.control('POST', `/transactions/${id}/expire`); }],
  ['refund request', async (ctx) => { const id = await paid(ctx); return () => ctx.v2('POST', `/transactions/${id}/refund`, { reason: 'r' }); }],
  ['refund completion', async (ctx) => { const id = await refund(ctx); return () => ctx.h.control('POST', `/transactions/${id}/complete`); }],
  ['withdrawal create', async (ctx) => () => ctx.v2('POST', '/withdrawals', WITHDRAWAL)],
  ['withdrawal fail', async (ctx) => { const id = await withdrawal(ctx); return () => ctx.h.control('POST', `/transactions/${id}/fail`); }],
  [
    'withdrawal reverse',
    async (ctx) => {
      const id = await withdrawal(ctx);
      const done = await ctx.h.control('POST', `/transactions/${id}/complete`);
      expect(done.status, done.text).toBe(200);
      return () => ctx.h.control('POST', `/transactions/${id}/reverse`);
    },
  ],
  ['block create', async (ctx) => { const id = await paid(ctx); return () => ctx.h.control('POST', `/transactions/${id}/block`); }],
  ['block approve', async (ctx) => { const id = await block(ctx); return () => ctx.h.control('POST', `/balance-blocks/${id}/approve`); }],
  [
    'account creation',
    async (ctx) => () =>
      ctx.h.control('POST', '/accounts', {
        name: 'Loja Atomica',
        balance: 50,
        subAccounts: [{ reference: 'filial-a', name: 'Filial A' }, { reference: 'filial-b', name: 'Filial B', balance: 10 }],
        projects: [{ name: 'Projeto', color: '#112233' }],
        webhooks: [{ url: 'http://127.0.0.1:9/hook' }],
      }),
  ],
];

/** Runs `request` with write #1, #2, ... failing until it succeeds; returns how many writes it made. */
async function faultEachWrite(ctx: Ctx, dataFile: string | undefined, request: () => Promise<ApiResponse>): Promise<number> {
  let before = '';
  let onDisk: string | null = null;
  const taken = () => {
    before = serialized(ctx.h);
    onDisk = disk(dataFile);
    return request();
  };
  return failEachWrite(ctx.hooks, taken, (res, n) => {
    expect(res.body.statusCode, res.text).toBe(500);
    expect(res.body.traceId, res.text).toEqual(expect.any(String));
    expect(serialized(ctx.h), `write #${n} failed: the state is as it was`).toBe(before);
    expect(disk(dataFile), `write #${n} failed: the files are as they were`).toBe(onDisk);
  });
}

describe('a fault at any write of a verb leaves the state (and the files) byte for byte as they were', () => {
  test.each(VERBS)('%s', async (_name, prepare) => {
    const ctx = await setup();
    const request = await prepare(ctx);
    const writes = await faultEachWrite(ctx, undefined, request);
    expect(writes, 'the verb records writes').toBeGreaterThan(0);
  });

  test.each(VERBS.filter(([name]) => ['pay', 'refund request', 'withdrawal create', 'account creation'].includes(name)))('with a data file: %s', async (_name, prepare) => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const file = tmp.file('state.json');
    const ctx = await setup(file);
    try {
      const request = await prepare(ctx);
      await ctx.h.sb.deps.store.flush();
      expect(await faultEachWrite(ctx, file, request)).toBeGreaterThan(0);
    } finally {
      await ctx.h.sb.close();
    }
  });
});

test('year 9999 regression: the clock cannot be advanced past the last representable date, and the advance changes nothing', async () => {
  const ctx = await setup();
  const { h } = ctx;
  const set = await h.control('PUT', '/clock', { now: '9999-12-31T23:59:59.000Z', frozen: true });
  expect(set.status, set.text).toBe(200);
  const created = await h.v2('POST', '/pix', { body: { amount: 100, description: 'fim dos tempos' } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const before = serialized(h);
  // Refused at the clock (400 naming seconds) instead of failing later when a time is printed.
  const moved = await h.advance(5);
  expect(moved.status, moved.text).toBe(400);
  expect(serialized(h), 'the clock, the charge and every balance are as they were').toBe(before);
  const res = await h.control('POST', `/transactions/${id}/pay`);
  expect(res.status, res.text).toBe(200);
  expect(h.sb.deps.store.account(DEFAULT.accountId).transactions[id]!.status).toBe('completed');
});

test('a deadline whose run throws changes nothing and is not run again by this process', async () => {
  const ctx = await setup();
  const { h } = ctx;
  const id = await charge(ctx);
  ctx.hooks.failWrite = { kind: 'job', n: 2 };
  const before = JSON.parse(serialized(h));
  const { expiresAt } = before.accounts[DEFAULT.accountId].transactions[id].charge;
  const moved = await h.control('PUT', '/clock', { now: new Date(expiresAt + 1000).toISOString(), frozen: true });
  ctx.hooks.failWrite = null;
  expect(moved.status, moved.text).toBe(200);
  expect(JSON.parse(serialized(h)).accounts, 'the failed expiry changed nothing').toEqual(before.accounts);
  // Given up, as a dropped job: the walk of the clock goes on past it without trying again.
  const later = await h.control('POST', '/clock/advance', { seconds: 60 });
  expect(later.status, later.text).toBe(200);
  expect(JSON.parse(serialized(h)).accounts[DEFAULT.accountId].transactions[id].status).toBe('pending');
});

// The current unit is carried through synchronous calls only (store/unit.ts): each request's middleware and handlers
// start in its unit, and concurrent requests interleave at their awaits.
test('concurrent creates each write into their own unit: one journal line per charge, holding that charge only', async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('state.json');
  const ctx = await setup(file);
  try {
    await ctx.h.sb.deps.store.flush();
    const journal = () => readFileSync(`${file}.journal`, 'utf8').split('\n').filter(Boolean);
    const before = journal().length;
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => charge(ctx, 100 + i)));
    await ctx.h.sb.deps.store.flush();
    const lines = journal()
      .slice(before)
      .map((line) => (JSON.parse(line) as { o: [(string | number)[], unknown?][] }).o);
    const charged = lines.map((ops) => ops.filter(([path]) => path[2] === 'transactions').map(([path]) => path[3]));
    expect(charged.map((c) => c.length)).toEqual(ids.map(() => 1));
    expect(charged.flat().sort()).toEqual([...ids].sort());
  } finally {
    await ctx.h.sb.close();
  }
});

test('a write through the state while a unit is open but not current throws and changes nothing; in the unit it is recorded and undone', async () => {
  const { h } = await setup();
  const store = h.sb.deps.store;
  const name = store.raw.accounts[DEFAULT.accountId]!.name;
  const unit = store.begin('request');
  try {
    const account = store.state.accounts[DEFAULT.accountId]!; // a view, as read after an await of a request
    const before = serialized(h);
    expect(() => {
      account.name = 'written outside the unit';
    }).toThrow(/outside any unit of work/);
    expect(serialized(h)).toBe(before);
    store.run(unit, () => {
      account.name = 'written in the unit';
    });
    expect(store.raw.accounts[DEFAULT.accountId]!.name).toBe('written in the unit');
  } finally {
    store.rollback(unit);
  }
  expect(store.raw.accounts[DEFAULT.accountId]!.name).toBe(name);
});

test('a push onto an array read through the state writes each element past the end: undone with its unit, kept raw, journaled as appended elements', async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('state.json');
  const { h } = await setup(file);
  try {
    const store = h.sb.deps.store;
    const raw = store.raw.accounts[DEFAULT.accountId]!;
    const account = () => store.state.accounts[DEFAULT.accountId]!;
    const n = raw.events.length;
    const event = (id: string) => ({ id, event: 'payment_completed' as const, eventId: id, walletId: DEFAULT.accountId, subAccount: null, createdAt: 0, body: '{}' });
    // Outside any unit while another one is open (a request awaiting its flush), the state is a view: a write throws.
    const other = store.begin('system');
    expect(() => account().events.push(event('pushed'))).toThrow(/outside any unit of work/);
    store.rollback(other);
    expect(() =>
      store.atomically('system', () => {
        expect(account().events.push(event('undone-1'), event('undone-2'))).toBe(n + 2);
        throw new Error('undone');
      }),
    ).toThrow('undone');
    expect(raw.events).toHaveLength(n);

    await store.flush();
    const journal = () => readFileSync(`${file}.journal`, 'utf8').split('\n').filter(Boolean);
    const before = journal().length;
    await store.atomically('system', () => account().events.push(event('kept'))).durable;
    // An element read through the state (a view) is kept as the raw object.
    await store.atomically('system', () => account().events.push(account().events[n]!)).durable;
    expect(raw.events.slice(n).map((e) => e.id)).toEqual(['kept', 'kept']);
    expect(raw.events[n + 1]).toBe(raw.events[n]);
    expect(types.isProxy(raw.events[n + 1])).toBe(false);
    const paths = journal()
      .slice(before)
      .map((line) => (JSON.parse(line) as { o: [(string | number)[], unknown?][] }).o.map(([path]) => path));
    expect(paths).toEqual([[['accounts', DEFAULT.accountId, 'events', n]], [['accounts', DEFAULT.accountId, 'events', n + 1]]]);
  } finally {
    await h.sb.close();
  }
});
