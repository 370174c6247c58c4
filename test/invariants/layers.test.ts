// STYLE.md habit 14, faces shape, verbs decide: nothing below the faces (services, domain, webhooks, store, lib, pix)
// imports from them (http/, control/). Read from the files themselves: every static import, re-export and dynamic
// import() is resolved against its file's folder.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const BELOW = ['services', 'domain', 'webhooks', 'store', 'lib', 'pix'];
const FACES = ['faces', 'wire', 'control', 'pages'];
const SPECIFIER = /(?:\bimport\s*(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?|\bexport\s*(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));

/** [file, specifier] of every relative import in the file. */
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((m) => m[1]!).filter((s) => s.startsWith('.'));

test('the import scan sees the imports it is meant to check (a face importing a service is found)', () => {
  const route = join(SRC, 'faces/v2/withdrawals/post.ts');
  expect(importsOf(route)).toContain('../../../services/withdrawals');
  expect(importsOf(join(SRC, 'services/refunds.ts'))).toContain('../domain/auth');
});

test('nothing under services/, domain/, webhooks/, store/, lib/ or pix/ imports from http/ or control/', () => {
  const offences: string[] = [];
  const files = BELOW.flatMap((d) => filesUnder(join(SRC, d)));
  expect(files.length).toBeGreaterThan(20);
  for (const file of files) {
    for (const spec of importsOf(file)) {
      const target = relative(SRC, resolve(dirname(file), spec)).split(/[\\/]/)[0]!;
      if (FACES.includes(target)) offences.push(`${relative(SRC, file)} imports ${spec}`);
    }
  }
  expect(offences, offences.join('\n')).toEqual([]);
});

/** The face a path under src/ belongs to: faces/<name> for one of the faces, else its first folder. */
const faceOf = (path: string) => {
  const [top, sub] = path.split(/[\\/]/);
  return top === 'faces' && sub ? `faces/${sub}` : top!;
};

test('the API Pix face is a sibling (STYLE.md habit 17): it imports no other face, and no other face imports it', () => {
  const offences: string[] = [];
  const API_PIX = 'faces/api-pix';
  for (const file of [...filesUnder(join(SRC, 'faces')), ...filesUnder(join(SRC, 'control'))]) {
    const face = faceOf(relative(SRC, file));
    for (const spec of importsOf(file)) {
      const target = faceOf(relative(SRC, resolve(dirname(file), spec)));
      if (target !== face && (face === API_PIX ? FACES.includes(target.split('/')[0]!) : target === API_PIX)) offences.push(`${relative(SRC, file)} imports ${spec}`);
    }
  }
  expect(filesUnder(join(SRC, API_PIX)).length).toBeGreaterThan(10);
  expect(offences, offences.join('\n')).toEqual([]);
});
