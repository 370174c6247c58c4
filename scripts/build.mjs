// Bundles src/ into dist/ with esbuild: one file per entry, devDependencies included (the run-time `dependencies`
// stay imports), so `npm start` loads a single module instead of hundreds (start-up time matters for CI suites that
// start a sandbox per test file). Then the type declarations: rollup-plugin-dts bundles what each entry exports into
// one .d.ts (dist/index.d.ts, dist/testing.d.ts) that names no .ts source and needs none of our compiler settings, so
// a consumer type-checks it under its own (NodeNext, Bundler, CommonJS through import(), skipLibCheck off).
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const banner = {
  // Bundled CommonJS dependencies (qrcode) need require/__dirname in an ES module.
  js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);",
};

const require = createRequire(import.meta.url);
// A library is bundled (a devDependency) or installed (a dependency, left as an import), never both: the package's
// `dependencies` are what dist/ imports at run time (test/package/hygiene.test.ts checks it).
const installed = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).dependencies ?? {});
rmSync('dist', { recursive: true, force: true }); // no chunks of earlier builds left behind

// zod bundles the messages of ~50 languages (half of its size, a quarter of the bundle) behind `z.locales`, which
// the sandbox never reads: its messages are English (zod's default, imported on its own). Parsing less code is
// start-up time saved.
const noZodLocales = {
  name: 'no-zod-locales',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

// The default fixtures, checked here by the schema a start would check them with (src/fixtures-checked.ts): a start
// with them, unchanged, loads no schema library. The output must survive JSON as it is, or the build stops.
const checkerFile = 'dist/.fixtures-check.mjs';
await build({
  stdin: { contents: "import '@hono/zod-openapi'; export { FixturesSchema } from './src/control/schemas';", resolveDir: '.', loader: 'ts' },
  outfile: checkerFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  banner,
  logLevel: 'warning',
  plugins: [noZodLocales],
});
const { FixturesSchema } = await import(pathToFileURL(checkerFile).href);
rmSync(checkerFile);
const fixturesText = readFileSync('fixtures/default.json', 'utf8');
const checked = FixturesSchema.parse(JSON.parse(fixturesText));
if (!isDeepStrictEqual(JSON.parse(JSON.stringify(checked)), checked)) throw new Error('fixtures/default.json: the schema\'s output does not survive JSON; src/fixtures-checked.ts cannot hold it');
const fixturesChecked = {
  name: 'fixtures-checked',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]fixtures-checked\.ts$/ }, () => ({
      contents: `export const DEFAULT_FIXTURES_CHECKED = ${JSON.stringify({ text: fixturesText, parsed: JSON.stringify(checked) })};`,
      loader: 'js',
    }));
  },
};

// The modules a start runs before its first answer (everything src/cli-main.ts imports, statically, transitively) go
// into ONE chunk (the start's core): split along the entries and the lazily loaded groups, as one build splits them,
// they came in about thirty chunks, and each module file costs a start its own resolve, read, compile and link
// (one chunk instead: spawn to first answer 0.81 of the split build's, CPU 0.79, in alternating runs). Three builds,
// so that every module still exists once:
//   1. the core: dist/core-<hash>.js exports every export of every core module under a name of its own, and
//      dist/main-<hash>.js is src/cli-main.ts; both share one chunk holding the core. What a core module imports
//      with import() is left as an import of ./lazy-<NAME>.js, an entry of build 2;
//   2. the rest (cli.js, index.js, testing.js and the lazy-<NAME>.js entries): a core module imported there is a facade
//      that re-exports it from dist/core-<hash>.js (live bindings, the core's one instance), so the sandbox, the
//      route groups and an in-process user share the same store, units and clock;
//   3. the workers (qr-worker, fold-worker, send-worker: src/services/qr-images.ts, src/store/fold-thread.ts and
//      src/webhooks/send-thread.ts find them beside the bundle), each whole in its own file: a thread has modules of
//      its own anyway.
const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', external: installed, logLevel: 'warning' };
const abs = (p) => resolve(p);
mkdirSync('dist', { recursive: true });
// What a start runs: cli-main's bundle with every import() left out, tree-shaken (a module only re-exported by a
// barrel that is used for something else does not count).
const leaveDynamic = { name: 'leave-dynamic', setup: (b) => b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined)) };
const graph = await build({ ...common, entryPoints: ['src/cli-main.ts'], write: false, outdir: 'dist', metafile: true, plugins: [noZodLocales, fixturesChecked, leaveDynamic] });
const coreInputs = Object.entries(Object.values(graph.metafile.outputs).find((o) => o.entryPoint === 'src/cli-main.ts').inputs)
  .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && input !== 'src/cli-main.ts' && /\.[cm]?[jt]sx?$/.test(input))
  .map(([input]) => input);
/** Resolves an import as esbuild would (the plugins below skip their own lookups). */
const resolveAs = (b, args) => b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { own: true } });
const lazyName = (path) => `lazy-${relative('.', path).replace(/^(src|node_modules)\//, '').replace(/(\/index)?\.[cm]?[jt]sx?$/, '').replace(/[^A-Za-z0-9]/g, '').toUpperCase()}`;
const lazy = new Map(); // lazy-<NAME> -> absolute path of a module a core module imports with import()
const exportsOf = new Map(); // absolute path of a core module -> its export names
const alias = (path, name) => `__c${coreInputs.findIndex((input) => abs(input) === path)}_${name}`;
let core;

/** Build 1 (not written yet) for the core of `coreInputs`. */
async function buildCore() {
  core = new Set(coreInputs.map(abs));
  // Each core module's exports (an entry's output lists them, re-exports included).
  const named = await build({ ...common, entryPoints: coreInputs, write: false, outdir: 'dist/.names', splitting: true, metafile: true, plugins: [noZodLocales, fixturesChecked] });
  exportsOf.clear();
  for (const o of Object.values(named.metafile.outputs)) if (o.entryPoint) exportsOf.set(abs(o.entryPoint), o.exports);
  const coreEntry = coreInputs
    .map((input) => {
      const path = abs(input);
      const names = exportsOf.get(path) ?? [];
      return names.length ? `export { ${names.map((n) => `${n} as ${alias(path, n)}`).join(', ')} } from ${JSON.stringify(path)};` : `import ${JSON.stringify(path)};`;
    })
    .join('\n');
  lazy.clear();
  return build({
    ...common,
    entryPoints: { main: 'src/cli-main.ts', core: 'pix-core-entry' },
    outdir: 'dist',
    write: false,
    splitting: true,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    sourcemap: true,
    metafile: true,
    plugins: [
      noZodLocales,
      fixturesChecked,
      {
        name: 'core',
        setup(b) {
          b.onResolve({ filter: /^pix-core-entry$/ }, () => ({ path: 'core', namespace: 'pix-core-entry' }));
          b.onLoad({ filter: /.*/, namespace: 'pix-core-entry' }, () => ({ contents: coreEntry, resolveDir: '.', loader: 'js' }));
          b.onResolve({ filter: /.*/ }, async (args) => {
            if (args.kind !== 'dynamic-import' || args.pluginData?.own) return undefined;
            const r = await resolveAs(b, args);
            if (r.errors.length || r.external || core.has(r.path)) return undefined;
            const name = lazyName(r.path);
            if (lazy.has(name) && lazy.get(name) !== r.path) throw new Error(`two lazily imported modules named ${name}: ${lazy.get(name)} and ${r.path}`);
            lazy.set(name, r.path);
            return { path: `./${name}.js`, external: true };
          });
        },
      },
    ],
  });
}
// Again when the core's bundle took in modules beyond coreInputs (a core module re-exporting another's), so that each
// module is in the core or in build 2, never in both.
let coreBuild;
for (let round = 0; ; round++) {
  coreBuild = await buildCore();
  const taken = Object.values(coreBuild.metafile.outputs).flatMap((o) => Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([input]) => input));
  const extra = [...new Set(taken)].filter((input) => input !== 'src/cli-main.ts' && /\.[cm]?[jt]sx?$/.test(input) && !core.has(abs(input)));
  if (!extra.length) break;
  if (round === 3) throw new Error(`the start's core keeps taking in modules: ${extra.join(', ')}`);
  coreInputs.push(...extra);
}
for (const file of coreBuild.outputFiles) writeFileSync(file.path, file.contents);
const outOf = (entry) => basename(Object.entries(coreBuild.metafile.outputs).find(([, o]) => o.entryPoint === entry)[0]);
const coreFile = outOf('pix-core-entry:core');
const mainFile = outOf('src/cli-main.ts');

const rest = await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts', testing: 'src/testing/index.ts', ...Object.fromEntries(lazy) },
  metafile: true,
  outdir: 'dist',
  splitting: true,
  // Every split chunk is named chunk-<hash>.js, as the package test expects.
  chunkNames: 'chunk-[hash]',
  sourcemap: true,
  plugins: [
    noZodLocales,
    fixturesChecked,
    {
      name: 'core-facades',
      setup(b) {
        b.onResolve({ filter: /^pix-core$/ }, () => ({ path: `./${coreFile}`, external: true }));
        b.onResolve({ filter: /.*/ }, async (args) => {
          if (args.pluginData?.own || args.namespace === 'core-facade') return undefined;
          const r = await resolveAs(b, args);
          if (r.errors.length || r.external) return undefined;
          if (r.path === abs('src/cli-main.ts')) return { path: `./${mainFile}`, external: true };
          return core.has(r.path) ? { path: r.path, namespace: 'core-facade' } : undefined;
        });
        b.onLoad({ filter: /.*/, namespace: 'core-facade' }, (args) => {
          const names = exportsOf.get(args.path) ?? [];
          const contents = names.length ? `export { ${names.map((n) => `${alias(args.path, n)} as ${n}`).join(', ')} } from 'pix-core';` : "import 'pix-core';";
          return { contents, loader: 'js', resolveDir: '.' };
        });
      },
    },
  ],
});

// A module in both the core and build 2 would exist twice at run time (two stores, two clocks): the build stops.
const twice = Object.values(rest.metafile.outputs).flatMap((o) => Object.entries(o.inputs).filter(([input, i]) => i.bytesInOutput > 0 && core.has(abs(input))).map(([input]) => input));
if (twice.length) throw new Error(`modules both in the start's core and in build 2: ${[...new Set(twice)].join(', ')}`);

await build({
  ...common,
  // register.js (pix-sandbox/register) is loaded into an app's own process: whole in its file, none of the core.
  entryPoints: { 'qr-worker': 'src/services/qr-worker.ts', 'fold-worker': 'src/store/fold-worker.ts', 'send-worker': 'src/webhooks/send-worker.ts', register: 'src/register.ts' },
  outdir: 'dist',
  sourcemap: true,
  plugins: [noZodLocales, fixturesChecked],
});
// Its CommonJS twin, dist/register.cjs (pix-sandbox/register under `require`), from the same source: what
// `pix-sandbox env` puts in NODE_OPTIONS as --require, which spares every Node start the ES module loader.
await build({ ...common, format: 'cjs', entryPoints: { register: 'src/register.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' }, sourcemap: true });
for (const file of readdirSync('dist')) {
  if (file.endsWith('.js') && /\b__require\("|\b__(dirname|filename)\b/.test(readFileSync(join('dist', file), 'utf8')))
    throw new Error(`dist/${file} calls require() or reads __dirname (a bundled CommonJS dependency): give the bundle build the require banner back`);
}

// The pages' own stylesheet and scripts, read at run time from `./assets/` beside the bundle (src/pages/static.ts).
cpSync('src/pages/assets', 'dist/assets', { recursive: true });
// Browser files of packages the pages serve (the docs UI, the QR reader), copied from devDependencies with their
// licences into dist/assets/vendor/<package>/: the installed package has no run-time dependency for them, and so
// none of their install scripts (swagger-ui-dist pulls @scarf/scarf, whose postinstall reports installs to a third
// party). src/lib/package-files.ts packageFilePath() reads them there, or from node_modules when running from source.
const VENDOR = {
  'swagger-ui-dist': ['swagger-ui.css', 'swagger-ui-bundle.js', 'LICENSE', 'NOTICE'],
  jsqr: ['dist/jsQR.js', 'LICENSE'],
};
for (const [pkg, files] of Object.entries(VENDOR))
  for (const file of files) cpSync(join(dirname(require.resolve(`${pkg}/package.json`)), file), `dist/assets/vendor/${pkg}/${file}`);
// Packages stay imports (they are dependencies of the package, with their own types); our modules are inlined. One
// rollup per entry, so each .d.ts stands alone (a shared chunk would name internal types no entry exports).
for (const [name, input] of Object.entries({ index: 'src/index.ts', testing: 'src/testing/index.ts' })) {
  const types = await rollup({
    input,
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:/.test(id),
    plugins: [dts({ tsconfig: 'tsconfig.json', compilerOptions: { noEmit: false, noEmitOnError: true } })],
    onwarn(warning) {
      throw new Error(`type declarations of ${input}: ${warning.message}`);
    },
  });
  await types.write({ file: `dist/${name}.d.ts`, format: 'es' });
  await types.close();
}
