// The data file read in pieces (src/store/pieces.ts, sandbox.md 6.1): whatever its layout and wherever the chunks
// fall, the value read is the one JSON.parse makes of the whole text, keys in the same order; text that is not JSON is
// refused with the byte where it went wrong. Chunks of a few bytes here put every boundary in every place.
import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { fileLines, PieceError, readSnapshotFile } from '../../src/store/pieces';
import { serializeInSlices } from '../../src/store/disk';
import type { State } from '../../src/store/state';
import { tempDir } from '../foundation/process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function fileWith(text: string) {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('state.json');
  writeFileSync(file, text);
  return file;
}

/** An entry of a collection on a line of its own (`key` null in an array), as the sandbox writes it. */
const ownLine = (key: string | null, value: unknown, _i: number) => `\n${key === null ? '' : `${JSON.stringify(key)}:`}${JSON.stringify(value)}`;

/**
 * Entries laid out as they may be by hand around ones on lines of their own: CRLF and spaces, a value across lines, two
 * on a line, blank lines. The reader takes whole lines at once only where they are entries alone.
 */
const mixedLines = (key: string | null, value: unknown, i: number) => {
  const k = key === null ? '' : JSON.stringify(key);
  const colon = key === null ? '' : i % 5 === 0 ? ' : ' : ':';
  return [`\n${k}${colon}${JSON.stringify(value)}`, `\r\n  ${k}${colon}${JSON.stringify(value)} `, `\n${k}${colon}${JSON.stringify(value, null, 1)}`, `${k}${colon}${JSON.stringify(value)}`, `\n\n${k}${colon}${JSON.stringify(value)}\n`][i % 5]!;
};

/** JSON with each entry of each collection laid out by `entry` (on a line of its own, as the sandbox writes a big collection). */
function oneEntryALine(state: Record<string, unknown>, entry = ownLine): string {
  const collection = (value: unknown) => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map((v, i) => entry(null, v, i)).join(',')}]`;
    return `{${Object.entries(value).map(([k, v], i) => entry(k, v, i)).join(',')}}`;
  };
  const account = (a: Record<string, unknown>) => `{${Object.entries(a).map(([k, v]) => `${JSON.stringify(k)}:${collection(v)}`).join(',')}}`;
  const accounts = state.accounts as Record<string, Record<string, unknown>>;
  const rest = Object.entries(state).filter(([k]) => k !== 'accounts' && k !== 'jobs');
  return `{${rest.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`).join('')}"jobs":${collection(state.jobs)},"accounts":{${Object.entries(accounts)
    .map(([id, a]) => `${JSON.stringify(id)}:${account(a)}`)
    .join(',')}}}`;
}

const LAYOUTS: Record<string, (v: Record<string, unknown>) => string> = {
  'one line (earlier versions)': (v) => JSON.stringify(v),
  'indented by hand': (v) => JSON.stringify(v, null, 2),
  'one entry a line (this version)': (v) => oneEntryALine(v),
  'entries a line among others laid out by hand': (v) => oneEntryALine(v, mixedLines),
};

// Keys and strings with what a chunk boundary can cut: escapes, multi-byte characters, quotes, newlines, __proto__.
const text = fc.string({ unit: fc.constantFrom(...'ab"\\\n/\u00e7\u00e3\u20ac\ud83c\udf55{}[],: 0'.split('')), maxLength: 12 });
const key = fc.oneof(text, fc.constantFrom('__proto__', 'id', '0', '17', 'constructor'));
const entry = fc.oneof(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.jsonValue({ maxDepth: 2 }));
const collection = fc.oneof(fc.dictionary(key, entry, { maxKeys: 6 }), fc.array(entry, { maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }));
const state = fc.record({
  version: fc.constant(2),
  clock: fc.record({ offsetMs: fc.integer(), frozenAt: fc.constantFrom(null, 5) }),
  signingKey: fc.constantFrom(null, { kty: 'EC', x: 'a\\"b' }),
  jobs: collection,
  accounts: fc.dictionary(key, fc.dictionary(key, collection, { maxKeys: 4 }), { maxKeys: 3 }),
});

describe('a snapshot read in pieces is what JSON.parse makes of the whole file', () => {
  test.each(Object.entries(LAYOUTS))('%s, chunks of 1 to 40 bytes', (_name, layout) => {
    fc.assert(
      fc.property(state, fc.integer({ min: 1, max: 40 }), (value, chunk) => {
        const written = layout(value);
        const read = readSnapshotFile(fileWith(written), chunk);
        expect(read).not.toBe('empty');
        const { value: got, bytes } = read as { value: unknown; bytes: number };
        const expected = JSON.parse(written);
        expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
        // (node's comparison: vitest's takes an own `constructor` key for the object's class)
        expect(isDeepStrictEqual(got, expected)).toBe(true);
        expect(bytes).toBe(Buffer.byteLength(written));
      }),
      { numRuns: 60 },
    );
  });

  test.each(Object.entries(LAYOUTS))('%s: the entry hook sees each entry of each collection once, as JSON.parse makes it', (_name, layout) => {
    // Compared as sorted lists: JSON.parse orders integer-like keys first, the hook sees entries in the file's order.
    const entriesOf = (path: string[], value: unknown) =>
      value !== null && typeof value === 'object' ? Object.entries(value).map(([k, v]) => JSON.stringify([path, k, v])) : [];
    fc.assert(
      fc.property(state, fc.integer({ min: 1, max: 40 }), (value, chunk) => {
        const written = layout(value);
        const seen: string[] = [];
        readSnapshotFile(fileWith(written), chunk, (path, key, entry) => void seen.push(JSON.stringify([path, key, entry])));
        const parsed = JSON.parse(written) as { jobs: unknown; accounts: Record<string, Record<string, unknown>> };
        const expected = [
          ...entriesOf(['jobs'], parsed.jobs),
          ...Object.entries(parsed.accounts).flatMap(([id, account]) => Object.entries(account).flatMap(([field, v]) => entriesOf(['accounts', id, field], v))),
        ];
        expect(seen.sort()).toEqual(expected.sort());
      }),
      { numRuns: 60 },
    );
  });

  test('a state the sandbox serializes (collections of more than 200 entries one a line) reads back the same', async () => {
    const transactions = Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`tx-${i}`, { id: `tx-${i}`, amount: i, description: `caf\u00e9 "${i}"\\n` }]));
    const ledger = Array.from({ length: 300 }, (_, i) => ({ transactionId: `tx-${i}`, amount: -i }));
    const value = { version: 2, clock: { offsetMs: 0, frozenAt: null }, signingKey: null, jobs: {}, accounts: { a: { id: 'a', transactions, ledger, events: [] } } };
    let written = '';
    await serializeInSlices(value as unknown as State, 7, Infinity, () => true, { longestMs: 0 }, async (chunk) => void (written += chunk));
    expect(written.split('\n').length, 'one entry a line').toBeGreaterThan(750);
    for (const chunk of [3, 1000, 4 << 20]) {
      const read = readSnapshotFile(fileWith(written), chunk) as { value: unknown };
      expect(JSON.stringify(read.value)).toBe(JSON.stringify(JSON.parse(written)));
    }
  });
});

describe('text that is not JSON is refused with the byte where it went wrong', () => {
  const whole = oneEntryALine({ version: 2, clock: { offsetMs: 0 }, jobs: {}, accounts: { a: { transactions: { t1: { id: 't1', amount: 5 }, t2: { id: 't2', amount: 7 }, t3: { id: 't3', amount: 9 } } } } });
  const cutAt = whole.indexOf('"amount":7');
  test.each([
    ['cut short in the middle of an entry', whole.slice(0, cutAt), /^it ends at byte \d+ in the middle of the value that begins at byte \d+: the file was cut short$/],
    ['cut short between entries', whole.slice(0, whole.indexOf('"t2"') - 2), /^it ends at byte \d+ where ',' or '}' should follow: the file was cut short$/],
    ['cut short after a key', whole.slice(0, whole.indexOf('"t2"') + 4), /^it ends at byte \d+ where ':' should follow: the file was cut short$/],
    ['a bad token inside an entry', whole.replace('"amount":7', '"amount":seven'), /in the value that begins at byte \d+$/],
    ['text after the state', `${whole} {}`, /^more text follows the state at byte \d+ \('\{'\)$/],
    ['a key that is not a string', whole.replace('"t2":', 't2:'), /^a key \(a string\) expected at byte \d+, found 't'$/],
    ['a key with a control character as it stands', whole.replace('"t2":', '"t\t2":'), /^Bad control character in string literal .* in the value that begins at byte \d+$/],
    ['two members without a comma between them', whole.replace('"t2":', '"t1b":1\n"t2":'), /^',' or '\}' expected at byte \d+, found '"'$/],
  ])('%s', (_name, written, message) => {
    for (const chunk of [5, 4 << 20]) {
      let error: unknown = null;
      try {
        readSnapshotFile(fileWith(written), chunk);
      } catch (err) {
        error = err;
      }
      expect(error, `chunk ${chunk}`).toBeInstanceOf(PieceError);
      expect((error as Error).message, `chunk ${chunk}`).toMatch(message);
    }
  });

  test('a file of white space only is empty', () => {
    expect(readSnapshotFile(fileWith(' \n\t '), 2)).toBe('empty');
  });
});

test('journal lines are read a chunk at a time: each line, whether it ended in a newline, and the offset after it', () => {
  const lines = ['{"n":1,"o":[]}', '{"n":2,"o":[["x","caf\u00e9 \ud83c\udf55"]]}', '', '{"n":3'];
  const file = fileWith(lines.join('\n'));
  for (const chunk of [1, 3, 4 << 20]) {
    const got = [...fileLines(file, chunk)].map(({ text, whole, next }) => ({ text, whole, next }));
    let offset = 0;
    expect(got, `chunk ${chunk}`).toEqual(
      lines.map((text, i) => {
        offset += Buffer.byteLength(text) + (i < lines.length - 1 ? 1 : 0);
        return { text, whole: i < lines.length - 1, next: offset };
      }),
    );
  }
});
