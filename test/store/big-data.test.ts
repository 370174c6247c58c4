// A data file past 512 MiB (sandbox.md 6.1): V8 caps a string at 512 MiB, and a snapshot read as one string failed
// from about 800,000 stored charges, a file the sandbox had written itself. The file is written by a generator (not
// HTTP calls) in the layout of sandboxes before issue 39 (the whole snapshot on one line); the built CLI starts on it,
// answers a stored charge, takes a new one, folds everything at its clean stop (writing the file again, one entry a
// line), and a second start reads both back. Each charge carries a 2,000-character description, the same in all of
// them, so the file passes 512 MiB with about 210,000 charges, not 820,000: the load parses every byte all the same,
// and the sandbox keeps one copy of a description its charges share, so the test costs a fraction of the time and
// memory. It needs about 1.2 GB of free disk (the file and the fold's new copy beside it) and says so otherwise.
import { readFileSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { createSandbox } from '../../src/app';
import { writeSeedFile } from '../../bench/seed-file.mjs';
import { DEFAULT, T0 } from '../helpers/harness';
import { killLeftovers, startCli, tempDir } from '../foundation/process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  killLeftovers();
  for (const c of cleanups.splice(0)) c();
});

const STRING_CAP = 0x1fffffe8; // V8's longest string, in characters: the file passes it by a few MB
const TARGET_BYTES = STRING_CAP + 24_000_000;
const NEEDED_BYTES = 2 * TARGET_BYTES + 200_000_000;
const free = statfsSync(tmpdir());
const room = free.bavail * free.bsize >= NEEDED_BYTES;
if (!room) console.log(`big-data.test.ts: skipped, ${tmpdir()} has ${Math.round((free.bavail * free.bsize) / 1e6)} MB free and the test needs ${Math.round(NEEDED_BYTES / 1e6)} MB.`);

/** One charge made by a sandbox, cancelled (nothing falls due for it), with a long description, and its state. */
async function sampleCharge(file: string) {
  const sb = await createSandbox({ log: () => {}, dataFile: file, clockStart: T0, freezeClock: true });
  const res = await sb.app.request(`/_sandbox/accounts/${DEFAULT.accountId}/charges`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 25.9, description: 'sample' }) });
  const { id } = (await res.json()) as { id: string };
  expect(res.status).toBe(201);
  await sb.close();
  const state = JSON.parse(readFileSync(file, 'utf8'));
  const charge = state.accounts[DEFAULT.accountId].transactions[id];
  delete state.accounts[DEFAULT.accountId].transactions[id];
  state.jobs = {};
  const description = 'Charge of a CI job that made a tenant and left it behind. '.repeat(40).slice(0, 2000);
  return { state: JSON.stringify(state), id, charge: JSON.stringify({ ...charge, status: 'cancelled', description }) };
}

async function chargeOf(url: string, token: string, id: string) {
  const res = await fetch(`${url}/v2/transactions/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { id: string; status: string; description: string | null } };
}

async function tokenOf(url: string) {
  const res = await fetch(`${url}/v2/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }) });
  return ((await res.json()) as { access_token: string }).access_token;
}

test.skipIf(!room)('a data file past 512 MiB (one line, as earlier versions wrote it) starts, answers its charges, takes a new one and folds; the folded file starts again', { timeout: 300_000 }, async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const sample = await sampleCharge(tmp.file('sample.json'));
  const perCharge = sample.charge.length + 40;
  const n = Math.ceil((TARGET_BYTES - sample.state.length) / perCharge);
  const file = tmp.file('big.json');
  const { bytes, first, last } = writeSeedFile(file, { state: sample.state, charge: sample.charge, id: sample.id, accountId: DEFAULT.accountId, n, oneLine: true });
  expect(bytes, 'the file passes the longest string V8 makes').toBeGreaterThan(STRING_CAP);

  const t = [performance.now()];
  const wait = 240_000;
  const one = await startCli(['--port', '0', '--data', file], {}, wait);
  t.push(performance.now());
  const token = await tokenOf(one.url);
  for (const id of [first, last]) {
    const got = await chargeOf(one.url, token, id);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toMatchObject({ id, status: 'cancelled', description: expect.stringMatching(/^Charge of a CI job/) });
  }
  const made = await fetch(`${one.url}/v2/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 12.34, description: 'after the restart' }) });
  const fresh = (await made.json()) as { id: string };
  expect(made.status, JSON.stringify(fresh)).toBe(201);
  const health = (await (await fetch(`${one.url}/_sandbox/health`)).json()) as { rssBytes: number };
  expect(await one.stop(), one.stderr()).toBe(0);
  t.push(performance.now());

  // The clean stop folded the journal: the file was written again (one entry a line) and is still past the cap.
  const folded = statSync(file).size;
  expect(folded).toBeGreaterThan(STRING_CAP);
  const two = await startCli(['--port', '0', '--data', file], {}, wait);
  t.push(performance.now());
  const [start, stop, restart] = t.slice(1).map((x, i) => Math.round((x - t[i]!) / 1000));
  console.log(`big-data.test.ts: ${n} charges, ${bytes} bytes: start ${start} s (RSS then ${Math.round(health.rssBytes / 1e6)} MB), clean stop ${stop} s, second start ${restart} s`);
  const again = await tokenOf(two.url);
  for (const [id, status] of [[first, 'cancelled'], [fresh.id, 'pending']] as const) {
    const got = await chargeOf(two.url, again, id);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.status).toBe(status);
  }
});
