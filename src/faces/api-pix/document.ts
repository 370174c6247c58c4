// GET /openapi-api-pix.json: the standard face's own document (the Central Bank's, narrowed to what is emulated, its
// errata corrected; made by scripts/api-pix-openapi.mjs). A second document rather than a tag of /openapi.json: its
// schemas, names and error shapes are the Central Bank's, and clients generate from it as they would from a PSP's.
// Loaded on first request. The server and the token URL are made absolute here, on the origin the client reached
// (OpenAPI's tokenUrl is a URL, and generators take the server as the client's base).
import type { Hono } from 'hono';

type Doc = { servers: Array<{ url: string; description?: string }>; components: { securitySchemes: { OAuth2: { flows: { clientCredentials: { tokenUrl: string } } } } } };

export function registerApiPixDocument(app: Hono<any>) {
  app.get('/openapi-api-pix.json', async (c) => {
    const doc = (await import('./openapi-api-pix.json')).default as unknown as Doc;
    const origin = new URL(c.req.url).origin;
    const { OAuth2 } = doc.components.securitySchemes;
    // Shallow copies down to what changes: the document itself is shared by every request.
    return c.json({
      ...doc,
      servers: doc.servers.map((s) => ({ ...s, url: `${origin}${s.url}` })),
      components: {
        ...doc.components,
        securitySchemes: {
          ...doc.components.securitySchemes,
          OAuth2: { ...OAuth2, flows: { ...OAuth2.flows, clientCredentials: { ...OAuth2.flows.clientCredentials, tokenUrl: `${origin}${OAuth2.flows.clientCredentials.tokenUrl}` } } },
        },
      },
    });
  });
}
