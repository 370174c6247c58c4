// The standard face's guard, per route: a bearer token from POST /api-pix/oauth/token (the same signed tokens as
// /v2/auth), the credential still there, and the operation's scope among the token's. Acts on the main wallet.
import type { MiddlewareHandler } from 'hono';
import type { TLSSocket } from 'node:tls';
import type { Deps } from '../../deps';
import { grantedScopes, scopesOf, type ApiPixScope } from '../../domain/api-pix';
import { mainWallet } from '../../domain/subaccounts';
import type { ApiPixEnv } from './env';
import { Problem } from './problems';
import { TOKEN_EXPIRED, tokenExpiredOnDemand } from '../../services/tokens';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const unauthorized = (why: string) => new Problem('NaoAutenticado', 401, `${why}. Get a token from POST /api-pix/oauth/token (HTTP Basic client_id:client_secret, form body grant_type=client_credentials) and send it as 'Authorization: Bearer <access_token>'.`);

const ISSUE = "Issue one with POST /_sandbox/accounts/{id}/client-certificates (PEM, or .p12 with its passphrase) and send it with the request (curl --cert client.pem --key client-key.pem, or --cert-type P12 --cert client.p12:PASSPHRASE)";

/**
 * Under --mtls, the account the connection's client certificate names (its common name), once the TLS end (the own
 * port, a proxy tunnel or the service port: each asks for one and checks it against the local CA) found it signed by
 * that CA and in date; otherwise the 401 saying what was wrong with it and what to send.
 */
function certifiedAccount(env: unknown): string | Problem {
  const socket = (env as { incoming?: { socket?: TLSSocket } } | undefined)?.incoming?.socket;
  const cert = typeof socket?.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
  const cn = cert?.subject?.CN;
  if (!cert || !Object.keys(cert).length)
    return new Problem('NaoAutenticado', 401, `This sandbox runs with --mtls: /api-pix/v2 needs a client certificate signed by its local CA, and this connection presented none. ${ISSUE}.`);
  if (!socket!.authorized) {
    // A code such as CERT_HAS_EXPIRED (typed as an Error, set as its code).
    const code = socket!.authorizationError as unknown as string | undefined;
    const what = `The client certificate presented (CN=${typeof cn === 'string' ? cn : '?'})`;
    const why =
      code === 'CERT_HAS_EXPIRED'
        ? `expired on ${cert.valid_to}`
        : code === 'CERT_NOT_YET_VALID'
          ? `is not valid before ${cert.valid_from}`
          : code === 'INVALID_PURPOSE'
            ? 'is not for client authentication (its extended key usage has no clientAuth: a server certificate, say)'
            : `is not signed by this sandbox's local CA (${code ?? 'not verified'})`;
    return new Problem('NaoAutenticado', 401, `${what} ${why}. ${ISSUE}.`);
  }
  return typeof cn === 'string' ? cn : new Problem('NaoAutenticado', 401, `The client certificate presented names no account (no common name). ${ISSUE}.`);
}

export function scoped(deps: Deps, scope: ApiPixScope): MiddlewareHandler<ApiPixEnv> {
  return async (c, next) => {
    const certified = deps.settings.mtls ? certifiedAccount(c.env) : undefined;
    if (certified instanceof Problem) throw certified;
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    if (!match) throw unauthorized(c.req.header('x-api-key') !== undefined ? 'Missing bearer token (X-API-Key is the v1 face\'s header; this face takes none)' : 'Missing bearer token');
    let claims;
    try {
      claims = await deps.tokens.verify(match[1]!);
    } catch (err) {
      throw unauthorized((err as Error).message.split('.')[0]!);
    }
    const account = deps.store.findAccount(claims.accountId);
    const credential = account?.credentials.find((cr) => cr.id === claims.credentialId);
    if (!account || !credential) throw unauthorized('The credential behind this token no longer exists');
    if (tokenExpiredOnDemand(claims, credential)) throw unauthorized(TOKEN_EXPIRED);
    if (certified !== undefined && certified !== account.id)
      throw new Problem('NaoAutenticado', 401, `The client certificate was issued to account ${certified}, but the token is of account ${account.id}; send that account's certificate (POST /_sandbox/accounts/${account.id}/client-certificates).`);
    // Read now from the credential, so a permission lowered since the token was issued applies at once.
    if (!grantedScopes(credential.permissions, claims.scope).includes(scope))
      throw new Problem(
        'AcessoNegado',
        403,
        !scopesOf(credential.permissions).includes(scope)
          ? `This operation needs the scope ${scope}, which the credential's permissions (${credential.permissions.join(', ') || 'none'}) do not give; grant one that does (PATCH /_sandbox/accounts/${account.id}/credentials/${credential.id}) or use another credential.`
          : `This operation needs the scope ${scope}; the token has '${claims.scope}'. Ask for it in the scope of POST /api-pix/oauth/token.`,
      );
    c.set('caller', { account, credential, wallet: mainWallet(account), subAccount: null });
    deps.retention.touch(account);
    if (deps.settings.strict || account.strict) c.set('strictFields', true);
    await next();
  };
}
