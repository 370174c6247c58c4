// State in a data file (sandbox.md 1: `--data FILE` keeps state and resumes from it on restart): in process, across
// a restart of the built CLI, and under 50 concurrent writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { createSandbox } from '../../src/app';
import { readDataFile } from '../../src/store/store';
import { DEFAULT, T0 } from '../helpers/harness';
import { http, killLeftovers, startCli, tempDir } from './process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  killLeftovers();
  for (const c of cleanups.splice(0)) c();
});

function dataFile() {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  return tmp.file('state.json');
}

// The snapshot and the journal together (what a restart would load).
const readState = (file: string) => readDataFile(file) as any;

async function login(url: string) {
  const res = await http(url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

test('in process: a sandbox opened on the same data file finds the state, the clock and the signing key', async () => {
  const file = dataFile();
  const first = await createSandbox({ log: () => {}, dataFile: file, clockStart: T0, freezeClock: true });
  await first.listen({ port: 0 });
  const token = await login(first.url!);
  const project = await http(first.url!, 'POST', '/v2/projects', { token, body: { name: 'Guardado', color: '#123456' } });
  expect(project.status, project.text).toBe(201);
  const advanced = await http(first.url!, 'POST', '/_sandbox/clock/advance', { body: { seconds: 120 } });
  expect(advanced.status, advanced.text).toBe(200);
  await first.close();

  const second = await createSandbox({ log: () => {}, dataFile: file, clockStart: '2030-01-01T00:00:00Z' });
  try {
    await second.listen({ port: 0 });
    const clock = await http(second.url!, 'GET', '/_sandbox/clock');
    expect(clock.body, `${clock.text}: the saved clock wins over clockStart`).toEqual({ now: new Date(Date.parse(T0) + 120_000).toISOString(), frozen: true });
    const read = await http(second.url!, 'GET', `/v2/projects/${project.body.id}`, { token });
    expect(read.status, read.text).toBe(200);
    expect(read.body, read.text).toEqual(project.body);
    const health = await http(second.url!, 'GET', '/_sandbox/health');
    expect(health.body.persistent, health.text).toBe(true);
  } finally {
    await second.close();
  }
});

test('in process: the data file already holds a change when the response reporting it arrives', async () => {
  const file = dataFile();
  const sb = await createSandbox({ log: () => {}, dataFile: file, clockStart: T0, freezeClock: true });
  try {
    await sb.listen({ port: 0 });
    const token = await login(sb.url!);
    const sub = await http(sb.url!, 'POST', '/v2/sub-accounts', { token, body: { reference: 'loja-gravada', name: 'Gravada' } });
    expect(sub.status, sub.text).toBe(201);
    const saved = readState(file).accounts[DEFAULT.accountId];
    expect(saved.subAccounts.map((s: { reference: string }) => s.reference)).toContain('loja-gravada');
  } finally {
    await sb.close();
  }
});

test('CLI: a project and a sub-account survive a restart on the same --data file, and the same token still works', async () => {
  const file = dataFile();
  const first = await startCli(['--port', '0', '--data', file]);
  expect(first.stdout(), first.stdout()).toContain(`state       file ${file}`);
  const token = await login(first.url);
  const project = await http(first.url, 'POST', '/v2/projects', { token, body: { name: 'Sobrevivente', color: '#00FF00', description: 'antes do restart' } });
  expect(project.status, project.text).toBe(201);
  const sub = await http(first.url, 'POST', '/v2/sub-accounts', { token, body: { reference: 'loja-persistida', name: 'Persistida' } });
  expect(sub.status, sub.text).toBe(201);
  expect(await first.stop(), first.stderr()).toBe(0);

  const second = await startCli(['--port', '0', '--data', file]);
  const read = await http(second.url, 'GET', `/v2/projects/${project.body.id}`, { token });
  expect(read.status, `${read.text}\n${second.stderr()}`).toBe(200);
  expect(read.body, read.text).toEqual(project.body);
  const subs = await http(second.url, 'GET', '/v2/sub-accounts', { token });
  expect(subs.body.data, subs.text).toContainEqual(sub.body);
  const wallet = await http(second.url, 'GET', '/v2/account', { token, headers: { 'x-sub-account': 'loja-persistida' } });
  expect(wallet.status, wallet.text).toBe(200);
  expect(wallet.body.account.id, wallet.text).toBe(sub.body.id);
  // The fixtures were not loaded a second time over the saved state.
  const projects = await http(second.url, 'GET', '/v2/projects', { token });
  expect(projects.body.total, projects.text).toBe(2);
  expect(await second.stop(), second.stderr()).toBe(0);
});

test('CLI: 50 concurrent POST /v2/projects all answer 201 and the data file then holds all 50', async () => {
  const file = dataFile();
  const cli = await startCli(['--port', '0', '--data', file]);
  const token = await login(cli.url);
  const names = Array.from({ length: 50 }, (_, i) => `Concorrente ${String(i).padStart(2, '0')}`);
  const results = await Promise.all(names.map((name) => http(cli.url, 'POST', '/v2/projects', { token, body: { name, color: '#ABCDEF' } })));
  const failed = results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text}`);
  expect(failed, failed.join('\n')).toEqual([]);
  const ids = results.map((r) => r.body.id as string);
  expect(new Set(ids).size).toBe(50);

  // Read while it is still running: every 201 above was on disk before it was sent.
  const saved = readState(file).accounts[DEFAULT.accountId].projects as { id: string; name: string }[];
  expect(saved.map((p) => p.name).sort()).toEqual(['Loja Online', ...names].sort());
  expect(saved.map((p) => p.id)).toEqual(expect.arrayContaining(ids));

  const list = await http(cli.url, 'GET', '/v2/projects?limit=100', { token });
  expect(list.body.total, list.text).toBe(51);
  expect(await cli.stop(), cli.stderr()).toBe(0);
  expect(readState(file).accounts[DEFAULT.accountId].projects).toHaveLength(51);
});

test('a data file written before deliveries and balance blocks existed still loads and works', async () => {
  const tmp = tempDir();
  const file = tmp.file('state.json');
  const first = await createSandbox({ log: () => {}, dataFile: file, freezeClock: true });
  await first.close();
  const old = JSON.parse(readFileSync(file, 'utf8'));
  for (const account of Object.values(old.accounts) as Record<string, unknown>[]) {
    delete account.deliveries;
    delete account.balanceBlocks;
    delete account.events;
  }
  writeFileSync(file, JSON.stringify(old));
  const again = await createSandbox({ log: () => {}, dataFile: file });
  const auth = await again.app.request('/v2/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' }) });
  const token = ((await auth.json()) as { access_token: string }).access_token;
  const created = await again.app.request('/v2/pix', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 10, description: 'x' }) });
  const { id } = (await created.json()) as { id: string };
  const paid = await again.app.request(`/_sandbox/transactions/${id}/pay`, { method: 'POST' });
  expect(paid.status).toBe(200);
  const blocked = await again.app.request(`/_sandbox/transactions/${id}/block`, { method: 'POST' });
  expect(blocked.status, await blocked.clone().text()).toBe(200);
  expect((await again.app.request('/v2/balance-blocks', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  await again.close();
  tmp.cleanup();
});
