// What `pix-sandbox env` asks the sandbox (sandbox.md 13): the names its proxy serves and the CA its leaves are signed
// with, so a client set up for a sandbox of another PIX_SANDBOX_HOME (a container, a CI service) trusts the right CA.
// Only the CA's certificate is served, never its key.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { FACES, type Face } from '../proxy/hosts';
import { proxyUrlOf } from '../proxy/ready-file';
import type { Router } from '../wire/env';
import { controlErrors, controlSecurity, json } from '../wire/schemas';

const tags = ['Control API'];

const ProxyInfoSchema = z
  .object({
    serviceHosts: z.record(z.string(), z.enum(FACES)).openapi({ description: 'Each name the proxy (and the service port) serves and its face', example: { 'api.pague.dev': 'v1', 'api-gateway.pague.dev': 'v2' } }),
    proxyUrl: z.string().openapi({ description: 'HTTPS_PROXY for this sandbox: the address this request reached, in http://', example: 'http://127.0.0.1:4747' }),
    caUrl: z.string().openapi({ description: "Where the local CA's certificate is served (PEM)", example: 'http://127.0.0.1:4747/_sandbox/ca.pem' }),
  })
  .openapi('ProxyInfo');

export function registerProxyInfo(app: Router, deps: Deps, serviceHosts: Readonly<Record<string, Face>>) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/proxy',
      operationId: 'getProxyInfo',
      tags,
      security: controlSecurity,
      summary: 'The proxy: the service host names it serves (SANDBOX_SERVICE_HOSTS), its URL and where its CA is served',
      responses: { 200: json(ProxyInfoSchema, 'The proxy'), ...controlErrors },
    }),
    (c) => {
      const origin = new URL(c.req.url).origin;
      return c.json({ serviceHosts: { ...serviceHosts }, proxyUrl: proxyUrlOf(origin), caUrl: `${origin}/_sandbox/ca.pem` }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/ca.pem',
      operationId: 'getCaCertificate',
      tags,
      security: controlSecurity,
      summary: "The local CA's certificate (PEM; made on first use, its key never leaves PIX_SANDBOX_HOME): what clients of the proxy, the service port and --https trust",
      responses: { 200: { description: 'application/x-pem-file', content: { 'application/x-pem-file': { schema: z.string() } } }, ...controlErrors },
    }),
    async (c) => {
      // The certificate code (pkijs) is loaded at the first call only, as the proxy loads it at its first tunnel.
      const { loadOrCreateCa } = await import('../tls');
      const ca = await loadOrCreateCa(deps.settings.home);
      return c.body(ca.cert, 200, { 'Content-Type': 'application/x-pem-file' });
    },
  );
}
