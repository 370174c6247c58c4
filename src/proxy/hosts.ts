// The service's production host names and the face each is served on (sandbox.md 13). Small on purpose: the CLI's
// config and app.ts read it at start, before anything of the proxy itself is loaded.
import { normalTarget } from '../lib/paths';

/** The faces a service host can be served on. */
export const FACES = ['v1', 'v2', 'api-pix'] as const;
export type Face = (typeof FACES)[number];

/** Where each face lives on the sandbox's own port. */
export const FACE_BASE: Readonly<Record<Face, string>> = { v1: '/v1', v2: '/v2', 'api-pix': '/api-pix' };

/** The service's own names: the official Node SDK's v1 base and the v2 gateway. */
export const DEFAULT_SERVICE_HOSTS: Readonly<Record<string, Face>> = Object.freeze({ 'api.pague.dev': 'v1', 'api-gateway.pague.dev': 'v2' });

/**
 * The header on the register hook's CONNECT (src/register.ts): a hooked process must never reach a real host through
 * the sandbox, so the proxy refuses such a tunnel to a name it does not serve.
 */
export const HOOK_HEADER = 'x-pix-sandbox-hook';

const NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** `NAME=v1|v2|api-pix` items (--service-host, SANDBOX_SERVICE_HOSTS) on top of the defaults; an error names the bad item. */
export function parseServiceHosts(items: readonly string[]): { hosts: Record<string, Face> } | { error: string } {
  const hosts: Record<string, Face> = { ...DEFAULT_SERVICE_HOSTS };
  for (const item of items) {
    const eq = item.indexOf('=');
    const name = item.slice(0, eq).trim().toLowerCase();
    const face = item.slice(eq + 1).trim() as Face;
    if (eq < 0 || !NAME.test(name) || !FACES.includes(face))
      return { error: `--service-host takes NAME=FACE with a DNS name and a face of ${FACES.join(', ')} (like pix.mybank.example=api-pix), got '${item}'` };
    hosts[name] = face;
  }
  return { hosts };
}

/**
 * The path a proxied request is served at. Its path is normalised first (lib/paths.ts: dots, encoded dots, doubled
 * slashes, backslashes, encoded separators), then one under the face's base goes as it is (api.pague.dev/v1/pix is
 * /v1/pix) and any other is taken as relative to the base (pix.mybank.example/v2/cob is /api-pix/v2/cob;
 * api.pague.dev/v1/../_sandbox/reset is /v1/_sandbox/reset, the face's 404). So a service name reaches its own face
 * only, never the control API, the pages or another face: what comes out is normal, and nothing later resolves it.
 */
export function facePath(face: Face, target: string): string {
  const path = normalTarget(target.startsWith('/') ? target : `/${target}`);
  const base = FACE_BASE[face];
  if (path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`)) return path;
  return `${base}${path}`;
}
