// Bundles src/ into dist/ with esbuild: one file per entry, dependencies included, so `npm start` loads a single
// module instead of hundreds (start-up time matters for CI suites that start a sandbox per test file).
import { build } from 'esbuild';

const banner = {
  // Bundled CommonJS dependencies (qrcode) need require/__dirname in an ES module.
  js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);",
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
  // swagger-ui-dist is read from node_modules at run time (static assets), never bundled.
  external: ['swagger-ui-dist'],
});
