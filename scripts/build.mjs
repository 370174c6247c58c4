// Bundles src/ into dist/ with esbuild: one file per entry, dependencies included, so `npm start` loads a single
// module instead of hundreds (start-up time matters for CI suites that start a sandbox per test file).
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const banner = {
  // Bundled CommonJS dependencies (qrcode) need require/__dirname in an ES module.
  js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);",
};

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

await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  sourcemap: true,
  banner,
  logLevel: 'warning',
  plugins: [noZodLocales],
  // swagger-ui-dist is read from node_modules at run time (static assets), never bundled.
  external: ['swagger-ui-dist'],
});

// The pages' own stylesheet and scripts, read at run time from `./assets/` beside the bundle (src/pages/static.ts).
cpSync('src/pages/assets', 'dist/assets', { recursive: true });
