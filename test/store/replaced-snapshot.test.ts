// A fold's new snapshot is renamed over the old one, which is then freed a few MiB at a time (store/disk.ts
// holdReplaced): only the file this process wrote, only once no name links to it, and never when the rename failed.
import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { holdReplaced } from '../../src/store/disk';
import { tempDir } from '../foundation/process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A snapshot of 10 MiB at FILE, its identity, and an fd that sees the same inode whatever its name becomes. */
function snapshot() {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('state.json');
  writeFileSync(file, 'x'.repeat(10 << 20));
  const st = statSync(file);
  const fd = openSync(file, 'r');
  cleanups.push(() => closeSync(fd));
  writeFileSync(`${file}.tmp`, '{"new":true}');
  return { file, identity: `${st.dev}:${st.ino}`, sizeOfOld: () => fstatSync(fd).size };
}

test('the replaced snapshot is freed once nothing links to it (Windows: at close, as before)', async () => {
  const s = snapshot();
  const held = await holdReplaced(s.file, s.identity, 0);
  renameSync(`${s.file}.tmp`, s.file);
  await held.freed();
  expect(s.sizeOfOld(), 'the old inode, freed').toBe(process.platform === 'win32' ? 10 << 20 : 0);
  expect(readFileSync(s.file, 'utf8'), 'the new snapshot').toBe('{"new":true}');
});

test.each([
  ['a hard link to it (a copy kept by the user)', (file: string) => linkSync(file, `${file}.backup`), (s: { identity: string }) => s.identity],
  ['another file at the path than the one this process wrote', () => {}, () => '0:0'],
])('the replaced snapshot is left whole with %s', async (_, before, identityOf) => {
  const s = snapshot();
  before(s.file);
  const held = await holdReplaced(s.file, identityOf(s), 0);
  renameSync(`${s.file}.tmp`, s.file);
  await held.freed();
  expect(s.sizeOfOld()).toBe(10 << 20);
});

test('a snapshot that stays in place (the rename failed) is left whole', async () => {
  const s = snapshot();
  const held = await holdReplaced(s.file, s.identity, 0);
  held.kept();
  expect(statSync(s.file).size).toBe(10 << 20);
  expect(s.sizeOfOld()).toBe(10 << 20);
});
