// Retention of tenants (sandbox.md 6.1, docs/data.md): --retain deletes tenants made through the control API that no
// request has touched for that long on their clock; fixture tenants stay; a tenant's own `retain` overrides it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readCliConfig } from '../../src/config';
import { createSandbox } from '../../src/app';
import { DEFAULT, startHarness, type Harness, T0 } from '../helpers/harness';
import { parseDuration } from '../../src/lib/duration';

const HOUR = 3600;
const DAY = 24 * HOUR;
let h: Harness;
afterEach(async () => h?.sb.close());

/** A tenant made through the control API, with its own credential; `spec` adds to it. */
async function tenant(spec: Record<string, unknown> = {}) {
  const res = await h.control('POST', '/accounts', { name: 'CI job', ...spec });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, clientId: res.body.credentials[0].clientId as string, clientSecret: res.body.credentials[0].clientSecret as string };
}
const exists = async (id: string) => (await h.control('GET', `/accounts/${id}`)).status === 200;

describe('--retain deletes tenants untouched for that long', () => {
  test('a control-made tenant untouched for the period goes; the fixtures stay; health says what it did', async () => {
    h = await startHarness({ retain: '1d' });
    const t = await tenant();
    await h.advance(DAY - 60);
    expect(await exists(t.id)).toBe(true); // the GET touched it, a minute before it would have gone
    await h.advance(DAY - 30);
    expect(await exists(t.id)).toBe(true);
    await h.advance(DAY);
    expect(await exists(t.id)).toBe(false);
    expect(await exists(DEFAULT.accountId)).toBe(true);
    const health = (await h.control('GET', '/health')).body;
    expect(health.retention).toMatchObject({ retain: '1d', retainTransactions: null, lastRun: { tenantsDeleted: 1 }, deleted: { tenants: 1, transactions: 0 } });
    const page = await (await h.sb.app.request('/')).text();
    expect(page).toMatch(/id="records-line">[^<]*(<[^p][^>]*>[^<]*)*; retention deletes tenants untouched for 1d</);
  });

  // What touches a tenant: each face's request as it, and a control request naming it or a record of it.
  test.each([
    ['a v2 request', async (t: Awaited<ReturnType<typeof tenant>>) => {
      const auth = await h.api('POST', '/v2/auth', { body: { client_id: t.clientId, client_secret: t.clientSecret } });
      return (await h.api('GET', '/v2/account', { token: auth.body.access_token })).status;
    }],
    ['a v1 request', async (t: Awaited<ReturnType<typeof tenant>>) => {
      const key = (await h.control('GET', `/accounts/${t.id}`)).body.apiKeys[0].key;
      await h.advance(DAY - 60); // the GET above touched it too: start again from here
      return (await h.api('GET', '/v1/account', { headers: { 'x-api-key': key } })).status;
    }],
    ['a control request on one of its records', async (t: Awaited<ReturnType<typeof tenant>>) => {
      const auth = await h.api('POST', '/v2/auth', { body: { client_id: t.clientId, client_secret: t.clientSecret } });
      const pix = await h.api('POST', '/v2/pix', { token: auth.body.access_token, body: { amount: 10, description: 'x' } });
      await h.advance(DAY - 60);
      return (await h.control('POST', `/transactions/${pix.body.id}/pay`)).status;
    }],
  ])('%s touches it', async (_, touch) => {
    h = await startHarness({ retain: '1d' });
    const t = await tenant();
    await h.advance(DAY - 60);
    expect(await touch(t)).toBe(200);
    await h.advance(DAY - 30);
    // untouched by the advances (they name no tenant), so it stands a day after the touch, not after its creation
    expect(h.sb.deps.store.raw.accounts[t.id]).toBeDefined();
    await h.advance(60);
    expect(h.sb.deps.store.raw.accounts[t.id]).toBeUndefined();
  });

  test("a tenant's own retain overrides --retain, and PATCH null goes back to it; without --retain only such tenants go", async () => {
    h = await startHarness();
    const own = await tenant({ retain: '2h' });
    const plain = await tenant();
    const shown = (await h.control('GET', `/accounts/${own.id}`)).body.retention;
    expect(shown).toMatchObject({ retain: '2h', own: true, deletedAfter: new Date(Date.parse(T0) + 2 * HOUR * 1000).toISOString() });
    expect((await h.control('GET', `/accounts/${plain.id}`)).body.retention).toMatchObject({ retain: null, own: false, deletedAfter: null });
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}`)).body.retention).toMatchObject({ retain: null, own: false });
    await h.advance(3 * HOUR);
    expect(h.sb.deps.store.raw.accounts[own.id]).toBeUndefined();
    expect(h.sb.deps.store.raw.accounts[plain.id]).toBeDefined();

    await h.sb.close();
    h = await startHarness({ retain: '1h' });
    const patched = await tenant({ retain: '30d' });
    expect((await h.control('PATCH', `/accounts/${patched.id}`, { retain: null })).body.retention).toMatchObject({ retain: '1h', own: false });
    await h.advance(2 * HOUR);
    expect(h.sb.deps.store.raw.accounts[patched.id]).toBeUndefined();
  });

  test("a tenant on its own clock goes by that clock, and its own clock's advance does not delete it", async () => {
    h = await startHarness({ retain: '1d' });
    const t = await tenant({ clock: {} });
    const moved = await h.control('POST', `/accounts/${t.id}/clock/advance`, { seconds: 3 * DAY });
    expect(moved.status, moved.text).toBe(200);
    expect(await exists(t.id)).toBe(true); // the request that moved it touched it when done
    // the sandbox clock does not move it; its own does
    await h.advance(2 * DAY);
    expect(h.sb.deps.store.raw.accounts[t.id]).toBeDefined();
    const other = await tenant({ clock: {} });
    await h.control('POST', `/accounts/${other.id}/clock/advance`, { seconds: DAY + 1 });
    expect(h.sb.deps.store.raw.accounts[other.id]).toBeDefined();
  });

  test('touches survive a restart with a data file (saved by the sweep), and a fixture tenant of an older file stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retain-'));
    try {
      const dataFile = join(dir, 'state.json');
      h = await startHarness({ retain: '1d', dataFile });
      const t = await tenant();
      await h.advance(DAY - 60);
      expect(await exists(t.id)).toBe(true); // touched at T0 + 1d - 60s
      await h.advance(60); // the sweep saves the touch
      // An older file's fixture tenants carry no marker: the fixtures' ids say which they are.
      await h.sb.deps.store.atomically('system', () => delete h.sb.deps.store.state.accounts[DEFAULT.accountId]!.fixture).durable;
      await h.sb.close();
      h = await startHarness({ retain: '1d', dataFile });
      await h.advance(DAY - 120);
      expect(h.sb.deps.store.raw.accounts[t.id]).toBeDefined();
      await h.advance(120);
      expect(h.sb.deps.store.raw.accounts[t.id]).toBeUndefined();
      expect(h.sb.deps.store.raw.accounts[DEFAULT.accountId]).toBeDefined();
    } finally {
      await h.sb.close();
      h = undefined as unknown as Harness;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bad retention values get a clear answer, and nothing changes', () => {
  test.each([['7'], ['1d-'], ['1x'], ['d'], ['0d'], ['1.5d'], ['']])('--retain %j is refused at start', (value) => {
    const cli = readCliConfig(['--retain', value], {});
    expect(cli).toEqual({ error: expect.stringContaining("--retain must be a number with a unit (s, m, h, d or w), like 7d") });
    expect(readCliConfig([], { SANDBOX_RETAIN_TRANSACTIONS: value })).toEqual({ error: expect.stringContaining('--retain-transactions must be') });
  });

  test('createSandbox refuses a bad duration', async () => {
    await expect(createSandbox({ log: () => {}, retain: '7' })).rejects.toThrow(/retain must be a number with a unit/);
  });

  test.each([
    ['POST', { retain: '3' }],
    ['POST', { retain: 7 }],
    ['PATCH', { retain: 'forever' }],
  ])('%s /_sandbox/accounts with retain %j is a 400 naming it', async (method, body) => {
    h = await startHarness();
    const before = Object.keys(h.sb.deps.store.raw.accounts).length;
    const res = method === 'POST' ? await h.control('POST', '/accounts', body) : await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain('retain');
    expect(Object.keys(h.sb.deps.store.raw.accounts)).toHaveLength(before);
    expect(h.sb.deps.store.raw.accounts[DEFAULT.accountId]!.retainMs).toBeUndefined();
  });

  test.each([
    ['30s', 30_000],
    ['15m', 900_000],
    ['12h', 43_200_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
    ['1d12h', 129_600_000],
    ['1D', 86_400_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
});
