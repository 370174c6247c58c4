// Static assets of the pages, served by the sandbox itself (no CDN: works offline). Two sources:
// - the sandbox's own files in src/pages/assets/, copied to dist/assets/ by scripts/build.mjs: `./assets/` beside this
//   module resolves to either, whether it runs from src (vitest, tsx) or from the bundle;
// - a file of a browser package, copied into dist/assets/vendor/ at build time (lib/package-files.ts).
// Files are read once and kept in memory: they are small and never change while the sandbox runs.
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRoute, z } from '@hono/zod-openapi';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from '../wire/env';
import { packageFilePath } from '../lib/package-files';

const CONTENT_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

const OWN_DIR = fileURLToPath(new URL('./assets/', import.meta.url));
const NAME = /^[a-z0-9][a-z0-9._-]*$/i;
const tags = ['Pages'];

/** Where the payer page's QR decoder (jsqr, a dependency) is served. */
export const JSQR_PATH = '/assets/vendor/jsqr.js';
export const contentTypeOf = (file: string) => CONTENT_TYPES[extname(file).toLowerCase()];

function cached(read: () => Buffer): () => Buffer {
  let bytes: Buffer | undefined;
  return () => (bytes ??= read());
}

const headersFor = (file: string) => ({ 'Content-Type': contentTypeOf(file)!, 'Cache-Control': 'no-cache' });

/** GET /assets/{file}: the sandbox's own stylesheet and scripts. */
export function registerAssets(app: OpenAPIHono<Env>) {
  const files = new Map<string, () => Buffer>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/assets/{file}',
      tags,
      operationId: 'getPageAsset',
      security: [],
      // A page for people, not an API operation: served and validated like the rest, left out of /openapi.json.
      hide: true,
      summary: "A stylesheet or script of the sandbox's pages",
      request: { params: z.object({ file: z.string().openapi({ param: { name: 'file', in: 'path' }, example: 'console.css' }) }) },
      responses: { 200: { description: 'The file', content: { 'text/css': { schema: z.string() }, 'text/javascript': { schema: z.string() } } }, 404: { description: 'No such asset' } },
    }),
    (c) => {
      const file = c.req.valid('param').file;
      if (!NAME.test(file) || !contentTypeOf(file)) return c.notFound();
      let read = files.get(file);
      if (!read) {
        try {
          const bytes = readFileSync(join(OWN_DIR, file));
          read = () => bytes;
          files.set(file, read);
        } catch {
          return c.notFound();
        }
      }
      return c.body(new Uint8Array(read()), 200, headersFor(file));
    },
  );
}

/**
 * Serves one file of a browser package at `path` (e.g. servePackageFile(app, '/assets/vendor/jsqr.js', 'jsqr',
 * 'dist/jsQR.js')), from packageFilePath(); the build must copy it (VENDOR in scripts/build.mjs).
 */
export function servePackageFile(app: OpenAPIHono<Env>, path: string, pkg: string, file: string) {
  if (!contentTypeOf(file)) throw new Error(`servePackageFile: no content type known for ${file}; add its extension to CONTENT_TYPES`);
  const read = cached(() => readFileSync(packageFilePath(pkg, file)));
  app.openapi(
    createRoute({
      method: 'get',
      path,
      tags,
      operationId: `get${pkg.replace(/(^|[^a-z0-9])([a-z0-9])/gi, (_, __, ch: string) => ch.toUpperCase())}Asset`,
      security: [],
      // A page for people, not an API operation: served and validated like the rest, left out of /openapi.json.
      hide: true,
      summary: `${file} of the ${pkg} package, served by the sandbox (no CDN)`,
      responses: { 200: { description: 'The file', content: { [contentTypeOf(file)!.split(';')[0]!]: { schema: z.string() } } } },
    }),
    (c) => c.body(new Uint8Array(read()), 200, headersFor(file)),
  );
}
