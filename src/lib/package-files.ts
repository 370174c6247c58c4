// Where a file of a browser package is, for the routes that serve one (the payer page's QR decoder, /docs's Swagger
// UI): dist/assets/vendor/<pkg>/<file> in the built package (scripts/build.mjs copies it there from a devDependency),
// else the package in node_modules (running from source: vitest, tsx). Bundled, this module sits in dist/ like every
// other, so `./assets/` beside it is dist/assets/; beside src/lib/ there is none, and node_modules answers.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VENDOR_DIR = fileURLToPath(new URL('./assets/vendor/', import.meta.url));

export function packageFilePath(pkg: string, file: string): string {
  const copied = join(VENDOR_DIR, pkg, file);
  return existsSync(copied) ? copied : join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), file);
}
