// The house's shape (STYLE.md): lib/ imports nothing of the house, and webhooks/ sits beside services/, fed what it
// needs through deps, so none of its modules imports a service, a face, the control API, the pages or the wire. Read
// from the source tree: each import that brings code at run time (`import type` brings none) must stay in its room.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = resolve(__dirname, '../../src');

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => relative(SRC, join(e.parentPath, e.name)));
}

/** The house's folders (or top-level files, without extension) that `file` imports code from, statically or with import(). */
function importedRooms(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const specifiers = [
    ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(SRC, resolve(dirname(join(SRC, file)), s)).split('/')[0]!.replace(/\.tsx?$/, ''));
}

const RULES: Array<{ room: string; mayNotImport: (room: string) => boolean; why: string }> = [
  { room: 'lib', mayNotImport: (r) => r !== 'lib', why: 'lib/ imports nothing of the house' },
  { room: 'webhooks', mayNotImport: (r) => ['services', 'faces', 'control', 'pages', 'wire', 'app', 'cli-main'].includes(r), why: 'webhooks/ is fed by injection, beside services/' },
];

describe.each(RULES)('$room/: $why', ({ room, mayNotImport }) => {
  test.each(sourcesUnder(room))('%s', (file) => {
    expect(importedRooms(file).filter(mayNotImport), `${file} imports from outside its room`).toEqual([]);
  });
});

test('the reader of imports sees a value import, and not a type import', () => {
  // The rules above pass trivially if the pattern reads nothing: lib/clock.ts imports ./iso, and deps.ts imports only types.
  expect(importedRooms('lib/clock.ts')).toContain('lib');
  expect(importedRooms('deps.ts')).toEqual([]);
});
