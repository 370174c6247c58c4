// GET /openapi-api-pix.json: the standard face's own document (the Central Bank's, narrowed to what is emulated; made
// by scripts/api-pix-openapi.mjs). A second document rather than a tag of /openapi.json: its schemas, names and error
// shapes are the Central Bank's, and clients generate from it as they would from a PSP's. Loaded on first request.
import type { Hono } from 'hono';

export function registerApiPixDocument(app: Hono<any>) {
  app.get('/openapi-api-pix.json', async (c) => c.json((await import('./openapi-api-pix.json')).default as object));
}
