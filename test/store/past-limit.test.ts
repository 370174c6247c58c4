// What a start past its record limit says (sandbox.md 6.1, docs/data.md): a file holding more records than the limit
// starts, and its banner and health say why it is read but not grown, where the limit comes from and what to restart
// with. The CLI runs on a real port.
import { afterEach, expect, test } from 'vitest';
import { BYTES_PER_RECORD, HEAP_SHARE } from '../../src/services/capacity';
import { DEFAULT, startHarness } from '../helpers/harness';
import { http, killLeftovers, startCli, tempDir } from '../foundation/process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  killLeftovers();
  for (const c of cleanups.splice(0)) c();
});

test('a data file holding more records than --max-records starts, reads them all, refuses creates, and its banner and health say why and what raises the limit', { timeout: 60_000 }, async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('state.json');
  const first = await startHarness({ dataFile: file });
  const made: string[] = [];
  for (let i = 0; i < 3; i++) made.push((await first.control('POST', `/accounts/${DEFAULT.accountId}/charges`, { amount: 1, description: 'a' })).body.id);
  const held = first.sb.deps.store.records;
  await first.sb.close();

  const limit = held - 2;
  const cli = await startCli(['--port', '0', '--data', file, '--max-records', String(limit)]);
  const health = await http(cli.url, 'GET', '/_sandbox/health');
  expect(health.body).toMatchObject({ records: held, maxRecords: limit, storageFull: true });
  const note = health.body.storageNote as string;
  expect(note).toContain(`${held} records held`);
  expect(note).toContain(`past the limit of ${limit}`);
  expect(note).toContain(`comes from --max-records ${limit}`);
  expect(note).toMatch(/All of them were read and answer reads.*a create answers 507 STORAGE_FULL, because/);
  const more = Math.ceil(Math.max(2 * held, limit + 1000) / 1000) * 1000;
  expect(note).toContain(`restart with --max-records ${more} and a heap that holds them (NODE_OPTIONS=--max-old-space-size=${Math.ceil((more * BYTES_PER_RECORD) / HEAP_SHARE / 1048576)})`);
  expect(cli.stdout()).toContain(`  records     FULL: ${note}\n`);

  const token = (await http(cli.url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } })).body.access_token as string;
  const charge = await http(cli.url, 'GET', `/v2/transactions/${made[2]}`, { token });
  expect(charge.status, JSON.stringify(charge.body)).toBe(200);
  const create = await http(cli.url, 'POST', `/_sandbox/accounts/${DEFAULT.accountId}/charges`, { body: { amount: 1, description: 'one more' } });
  expect(create.status).toBe(507);
  expect(create.body.details).toMatchObject({ code: 'STORAGE_FULL', limit, records: held });
  expect(await cli.stop(), cli.stderr()).toBe(0);
});
