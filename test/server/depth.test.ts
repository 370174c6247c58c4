// JSON depth (sandbox.md 11): a body nested deeper than 32 levels is a 400 naming its field before anything is
// stored, in memory and with a data file; what nests up to the limit is stored and can be read, listed, acted on,
// expired and folded (the reproduction: metadata nested 5,000 levels poisoned the state until a reset).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/wire/middleware/body';
import { readDataFile } from '../../src/store/store';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { tempDir } from '../foundation/process';

let h: Harness;
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An object nested `levels` deep: {"a":{"a":...{"end":true}}}. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { end: true };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** The same as text, built without JSON.stringify (which overflows the stack on 5,000 levels, as the sandbox's did). */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"end":true}${'}'.repeat(levels - 1)}`;

async function start(dataFile?: string) {
  h = await startHarness(dataFile ? { dataFile } : {});
  cleanups.push(() => h.sb.close());
  return h;
}

const txCount = async () => (await h.api('GET', `/_sandbox/accounts/${DEFAULT.accountId}/transactions`)).body.total as number;

describe('bodies nested deeper than the limit', () => {
  test.each([
    ['metadata nested 5,000 levels', 'POST', '/v2/pix', `{"amount":10,"description":"deep","metadata":${nestedText(5000)}}`, 'metadata'],
    ['metadata one level past the limit', 'POST', '/v2/pix', JSON.stringify({ amount: 10, description: 'deep', metadata: nested(MAX_JSON_DEPTH) }), 'metadata'],
    ['an array of arrays', 'POST', '/v2/pix', `{"amount":10,"description":"deep","split":${'['.repeat(40)}${']'.repeat(40)}}`, 'split'],
    ['a control body', 'POST', '/_sandbox/accounts', JSON.stringify({ name: 'x', fees: nested(100) }), 'fees'],
  ])('%s is a 400 naming the field, and nothing is stored (memory and data file)', async (_name, method, path, body, field) => {
    for (const withFile of [false, true]) {
      const tmp = tempDir();
      cleanups.push(tmp.cleanup);
      const file = withFile ? tmp.file('state.json') : undefined;
      await start(file);
      const token = await h.token();
      const before = await txCount();
      const accounts = (await h.api('GET', '/_sandbox/accounts')).text;
      const journal = file ? readFileSync(`${file}.journal`, 'utf8') : '';
      const res = await h.api(method, path, { raw: body, contentType: 'application/json', token });
      expect(res.status, res.text).toBe(400);
      expect(res.body.details.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.fields[0].field).toBe(field);
      expect(res.body.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      expect(await txCount()).toBe(before);
      expect((await h.api('GET', '/_sandbox/accounts')).text).toBe(accounts);
      if (file) expect(readFileSync(`${file}.journal`, 'utf8'), 'no journal line was written').toBe(journal);
      await h.sb.close();
      cleanups.pop();
    }
  });
});

test('metadata at the limit is stored, read, listed, paid, expired, cancelled and folded into the snapshot', async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('state.json');
  await start(file);
  const token = await h.token();
  // The body is level 1, so metadata may nest MAX_JSON_DEPTH - 1 levels.
  const metadata = nested(MAX_JSON_DEPTH - 1);
  const create = () => h.api('POST', '/v2/pix', { token, body: { amount: 10, description: 'deep', metadata, expiresIn: 300 } });
  const [paid, expired, cancelled] = [await create(), await create(), await create()];
  for (const c of [paid, expired, cancelled]) expect(c.status, c.text).toBe(201);
  const read = await h.api('GET', `/v2/transactions/${paid.body.id}`, { token });
  expect(read.status, read.text).toBe(200);
  expect(read.body.metadata ?? read.body.charge?.metadata, read.text).toEqual(metadata);
  const list = await h.api('GET', `/_sandbox/accounts/${DEFAULT.accountId}/transactions?type=payment`);
  expect(list.status, list.text).toBe(200);
  expect(list.body.items.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([paid.body.id, expired.body.id, cancelled.body.id]));
  expect((await h.api('POST', `/_sandbox/transactions/${paid.body.id}/pay`)).status).toBe(200);
  expect((await h.api('POST', `/_sandbox/transactions/${cancelled.body.id}/cancel`)).status).toBe(200);
  expect((await h.advance(301)).status).toBe(200);
  const after = await h.api('GET', `/v2/transactions/${expired.body.id}`, { token: await h.token() });
  expect(after.body.status, after.text).toBe('cancelled');
  await h.sb.close();
  cleanups.pop();
  const folded = JSON.parse(readFileSync(file, 'utf8'));
  expect(folded.accounts[DEFAULT.accountId].transactions[paid.body.id].status).toBe('completed');
  expect(readDataFile(file).accounts[DEFAULT.accountId]!.transactions[paid.body.id]!.metadata).toEqual(metadata);
});
