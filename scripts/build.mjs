// Bundles src/ into dist/ with esbuild: one file per entry, devDependencies included (the run-time `dependencies`
// stay imports), so `npm start` loads a single module instead of hundreds (start-up time matters for CI suites that
// start a sandbox per test file). Then the type declarations: rollup-plugin-dts bundles what each entry exports into
// one .d.ts (dist/index.d.ts, dist/testing.d.ts) that names no .ts source and needs none of our compiler settings, so
// a consumer type-checks it under its own (NodeNext, Bundler, CommonJS through import(), skipLibCheck off).
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

await build({
  // Workers: qr-worker draws QR images (services/qr-images.ts finds it beside the bundle); fold-worker is the thread a
  // background fold of the data file runs in (src/store/store.ts foldOffThread).
  entryPoints: {
    cli: 'src/cli.ts',
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    'qr-worker': 'src/services/qr-worker.ts',
    'fold-worker': 'src/store/fold-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  external: installed,
  // Every split chunk is named chunk-<hash>.js (the lazily loaded ones too: tls, the API Pix document), as the package test expects.
  chunkNames: 'chunk-[hash]',
  sourcemap: true,
  // No require banner here: no bundled dependency is CommonJS any more, and the banner made each of the two dozen
  // chunks a start loads call createRequire at evaluation. A CommonJS dependency added later shows as esbuild's
  // __require("...") shim (or __dirname), which the check below refuses (put `banner` back then).
  logLevel: 'warning',
  plugins: [noZodLocales, fixturesChecked],
});
for (const file of readdirSync('dist')) {
  if (file.endsWith('.js') && /\b__require\("|\b__(dirname|filename)\b/.test(readFileSync(join('dist', file), 'utf8')))
    throw new Error(`dist/${file} calls require() or reads __dirname (a bundled CommonJS dependency): give the bundle build the require banner back`);
}

// The pages' own stylesheet and scripts, read at run time from `./assets/` beside the bundle (src/pages/static.ts).
cpSync('src/pages/assets', 'dist/assets', { recursive: true });
// Browser files of packages the pages serve (the docs UI, the QR reader), copied from devDependencies with their
// licences into dist/assets/vendor/<package>/: the installed package has no run-time dependency for them, and so
// none of their install scripts (swagger-ui-dist pulls @scarf/scarf, whose postinstall reports installs to a third
// party). src/pages/static.ts packageFilePath() reads them there, or from node_modules when running from source.
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
