// The house's layers, read from the files themselves (STYLE.md habits 14 and 17, issue 34): every static import,
// type-only import, re-export and dynamic import() is resolved against its file's folder.
// - Nothing below the surfaces (services, domain, webhooks, store, lib, pix) imports from them; the domain imports
//   nothing above the domain, the store nothing above the store.
// - The surfaces (each face under faces/, the control API, the pages) never import one another: what two of them
//   share lives in wire/, the kit no face owns, which imports no surface itself.
// - The import graph of src/ has no cycle, type-only imports included.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const BELOW = ['services', 'domain', 'webhooks', 'store', 'lib', 'pix'];
const SURFACES = ['faces', 'wire', 'control', 'pages'];
const SPECIFIER = /(?:\bimport\s*(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?|\bexport\s*(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));

/** Every relative specifier the file imports (statically, as a type, re-exported or with import()). */
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((m) => m[1]!).filter((s) => s.startsWith('.'));

/** The source file a relative specifier names, as the bundler resolves it; undefined for what is not a module of ours (JSON). */
function resolveImport(file: string, spec: string): string | undefined {
  const base = resolve(dirname(file), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** file -> the files of src/ it imports. */
function importGraph(files: string[]): Map<string, string[]> {
  return new Map(files.map((f) => [f, [...new Set(importsOf(f).map((s) => resolveImport(f, s)).filter((t): t is string => t !== undefined))]]));
}

/** One cycle per back edge met in a depth-first walk, each as the path that closes it ([a, b, a]). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

const top = (file: string) => relative(SRC, file).split(/[\\/]/)[0]!;
/** The surface a file of src/ belongs to: faces/<face> (faces/docs.ts on its own), control, pages; else undefined. */
function surfaceOf(file: string): string | undefined {
  const [first, second] = relative(SRC, file).split(/[\\/]/);
  if (first === 'faces') return `faces/${second}`;
  return first === 'control' || first === 'pages' ? first : undefined;
}

const all = filesUnder(SRC);
const graph = importGraph(all);
const show = (file: string) => relative(SRC, file);
const offencesWhere = (from: (file: string) => boolean, bad: (file: string, target: string) => boolean) =>
  [...graph].flatMap(([file, targets]) => (from(file) ? targets.filter((t) => bad(file, t)).map((t) => `${show(file)} imports ${show(t)}`) : []));

test('the import scan sees the imports it is meant to check (values, types, dynamic imports)', () => {
  expect(importsOf(join(SRC, 'faces/v2/withdrawals/post.ts'))).toContain('../../../services/withdrawals');
  expect(importsOf(join(SRC, 'services/refunds.ts'))).toContain('../domain/auth');
  // A type-only import counts: domain/types.ts holds its events' type.
  expect(graph.get(join(SRC, 'domain/types.ts'))).toContain(join(SRC, 'domain/events.ts'));
  // So does import(): the route groups load each face on first use.
  expect(graph.get(join(SRC, 'route-groups.ts'))).toContain(join(SRC, 'faces/v2/index.ts'));
  expect(all.length).toBeGreaterThan(150);
});

test('the cycle check finds a cycle when there is one (the check checked)', () => {
  expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
  expect(cyclesOf(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
});

test('the import graph of src/ has no cycle, type-only imports included', () => {
  const cycles = cyclesOf(graph).map((c) => c.map(show).join(' -> '));
  expect(cycles, `Break a cycle by moving what the lower module takes into its own layer:\n${cycles.join('\n')}`).toEqual([]);
});

test('nothing under services/, domain/, webhooks/, store/, lib/ or pix/ imports from faces/, wire/, control/ or pages/', () => {
  const offences = offencesWhere((f) => BELOW.includes(top(f)), (_, t) => SURFACES.includes(top(t)));
  expect(offences, offences.join('\n')).toEqual([]);
});

test.each([
  ['domain', ['domain', 'lib', 'pix']],
  ['store', ['store', 'domain', 'lib', 'pix']],
])('%s/ imports nothing above it (only %j)', (layer, allowed) => {
  const offences = offencesWhere((f) => top(f) === layer, (_, t) => !allowed.includes(top(t)));
  expect(graph.size).toBeGreaterThan(0);
  expect(offences, offences.join('\n')).toEqual([]);
});

test('no surface imports another (each face, the control API, the pages), and wire/ imports none', () => {
  const offences = [
    ...offencesWhere((f) => surfaceOf(f) !== undefined, (f, t) => surfaceOf(t) !== undefined && surfaceOf(t) !== surfaceOf(f)),
    ...offencesWhere((f) => top(f) === 'wire', (_, t) => surfaceOf(t) !== undefined),
  ];
  expect(new Set(all.map(surfaceOf))).toEqual(new Set(['faces/v2', 'faces/v1', 'faces/api-pix', 'faces/docs.ts', 'control', 'pages', undefined]));
  expect(offences, offences.join('\n')).toEqual([]);
});
