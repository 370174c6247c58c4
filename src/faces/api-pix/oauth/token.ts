// POST /api-pix/oauth/token: OAuth2 client credentials (RFC 6749 4.4) for the standard face. The client authenticates
// with HTTP Basic (or client_id/client_secret in the form body), sends grant_type=client_credentials and an optional
// space-separated scope; an account's v2 credentials work here. Errors are OAuth2's {error, error_description}.
import type { Context } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../../deps';
import { API_PIX_SCOPES, scopesOf } from '../../../domain/api-pix';
import type { ApiPixRouter } from '../env';
import { extended } from '../../../lib/objects';

const MAX_FORM_BYTES = 8 * 1024;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const oauthError = (c: Context, status: 400 | 401, error: string, description: string) =>
  c.json({ error, error_description: description }, status, { 'Cache-Control': 'no-store', ...(status === 401 ? { 'WWW-Authenticate': 'Basic realm="api-pix"' } : {}) });

/** The form (or JSON) body's fields; an unreadable body reads as none. */
async function fields(c: Context): Promise<Record<string, string>> {
  const text = await c.req.text();
  if (text.length > MAX_FORM_BYTES) return {};
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') {
    try {
      const parsed = JSON.parse(text) as unknown;
      return parsed && typeof parsed === 'object' ? Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'string')) : {};
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** client_id:client_secret from HTTP Basic, else from the body. */
function clientOf(header: string | undefined, body: Record<string, string>): { id: string; secret: string } | undefined {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    if (at > 0) return { id: decodeURIComponent(decoded.slice(0, at)), secret: decodeURIComponent(decoded.slice(at + 1)) };
    return undefined;
  }
  if (body.client_id && body.client_secret) return { id: body.client_id, secret: body.client_secret };
  return undefined;
}

export function register(app: ApiPixRouter, deps: Deps) {
  app.post('/oauth/token', async (c) => {
    const body = await fields(c);
    let client;
    try {
      client = clientOf(c.req.header('authorization'), body);
    } catch {
      client = undefined;
    }
    if (!client) return oauthError(c, 401, 'invalid_client', "Send the client credentials as HTTP Basic: 'Authorization: Basic base64(client_id:client_secret)' (the default world's are printed at start-up).");
    if (body.grant_type !== 'client_credentials')
      return oauthError(c, 400, body.grant_type ? 'unsupported_grant_type' : 'invalid_request', "Send grant_type=client_credentials in a form body (Content-Type: application/x-www-form-urlencoded).");
    for (const account of Object.values(deps.store.state.accounts)) {
      const credential = account.credentials.find((cr) => cr.clientId === client.id);
      if (!credential || !sameSecret(credential.clientSecret, client.secret)) continue;
      const allowed = scopesOf(credential.permissions);
      const asked = body.scope?.trim() ? body.scope.trim().split(/\s+/) : allowed;
      const unknown = asked.filter((s) => !(API_PIX_SCOPES as readonly string[]).includes(s));
      if (unknown.length) return oauthError(c, 400, 'invalid_scope', `Unknown scope ${unknown.join(', ')}; this sandbox serves ${API_PIX_SCOPES.join(' ')}.`);
      const refused = asked.filter((s) => !(allowed as string[]).includes(s));
      if (refused.length)
        return oauthError(c, 400, 'invalid_scope', `This credential cannot have ${refused.join(', ')} (its permissions ${credential.permissions.join(', ')} give ${allowed.join(' ') || 'no API Pix scope'}); ask for less, or use a FULL_ACCESS credential.`);
      const scope = [...new Set(asked)].join(' ');
      const token = await deps.tokens.issue(account.id, credential.id, scope);
      return c.json(extended(token, { scope }), 200, { 'Cache-Control': 'no-store' });
    }
    return oauthError(c, 401, 'invalid_client', 'Invalid client_id or client_secret. The default credentials are printed at start-up and listed in README.md.');
  });
}
