// The standard face's guard, per route: a bearer token from POST /api-pix/oauth/token (the same signed tokens as
// /v2/auth), the credential still there, and the operation's scope among the token's. Acts on the main wallet.
import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../deps';
import type { ApiPixScope } from '../domain/api-pix';
import { mainWallet } from '../domain/subaccounts';
import type { ApiPixEnv } from './env';
import { Problem } from './problems';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const unauthorized = (why: string) => new Problem('AcessoNegado', 401, `${why}. Get a token from POST /api-pix/oauth/token (HTTP Basic client_id:client_secret, form body grant_type=client_credentials) and send it as 'Authorization: Bearer <access_token>'.`);

export function scoped(deps: Deps, scope: ApiPixScope): MiddlewareHandler<ApiPixEnv> {
  return async (c, next) => {
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    if (!match) throw unauthorized('Missing bearer token');
    let claims;
    try {
      claims = await deps.tokens.verify(match[1]!);
    } catch (err) {
      throw unauthorized((err as Error).message.split('.')[0]!);
    }
    const account = deps.store.findAccount(claims.accountId);
    const credential = account?.credentials.find((cr) => cr.id === claims.credentialId);
    if (!account || !credential) throw unauthorized('The credential behind this token no longer exists');
    const granted = (claims.scope ?? '').split(' ');
    if (!granted.includes(scope))
      throw new Problem(
        'AcessoNegado',
        403,
        claims.scope === undefined
          ? `This token was issued by POST /v2/auth and carries no API Pix scope; get one from POST /api-pix/oauth/token with scope including ${scope}.`
          : `This operation needs the scope ${scope}; the token has '${claims.scope}'. Ask for it in the scope of POST /api-pix/oauth/token.`,
      );
    c.set('caller', { account, credential, wallet: mainWallet(account), subAccount: null });
    await next();
  };
}
