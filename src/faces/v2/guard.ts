// The v2 guard, declared per route: bearer token -> credential (read now, so permission changes apply at once) ->
// permission -> X-Sub-Account (service document section 5). Sets `caller`.
import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../../deps';
import { SandboxError, validationError } from '../../domain/errors';
import { permissionsOfScope } from '../../domain/api-pix';
import { allows, type Permission } from '../../domain/permissions';
import { PRINCIPAL, REFERENCE_PATTERN, walletToActOn } from '../../domain/subaccounts';
import type { Env } from '../../wire/env';
import { TOKEN_EXPIRED, tokenExpiredOnDemand } from '../../services/tokens';

export interface GuardOptions {
  permissions: Permission[];
  /** The /sub-accounts routes always act on the main account and refuse the header. */
  subAccountHeader?: 'accepted' | 'refused';
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function guard(deps: Deps, opts: GuardOptions): MiddlewareHandler<Env> {
  const needed = [...opts.permissions, 'FULL_ACCESS'].join(' or ');
  return async (c, next) => {
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    if (!match) {
      const apiKey = c.req.header('x-api-key') !== undefined ? ' v2 routes do not take X-API-Key: API keys are for the v1 face (/v1/...).' : '';
      throw new SandboxError('UNAUTHORIZED', `Missing bearer token.${apiKey} Get one from POST /v2/auth and send it as 'Authorization: Bearer <access_token>'.`);
    }
    const claims = await deps.tokens.verify(match[1]!);
    const account = deps.store.findAccount(claims.accountId);
    const credential = account?.credentials.find((cr) => cr.id === claims.credentialId);
    if (!account || !credential) throw new SandboxError('UNAUTHORIZED', 'The credential behind this token no longer exists. Authenticate again with a current client_id and client_secret.');
    if (tokenExpiredOnDemand(claims, credential)) throw new SandboxError('UNAUTHORIZED', `${TOKEN_EXPIRED}. Get a new one from POST /v2/auth.`);
    if (!allows(credential.permissions, opts.permissions))
      throw new SandboxError('PERMISSION_DENIED', `This credential lacks the permission ${needed}. Grant it (PATCH /_sandbox/accounts/${account.id}/credentials/${credential.id}) or use another credential.`, {
        required: opts.permissions,
      });
    // A token of the standard face (POST /api-pix/oauth/token) carries a scope, and means no more than it says here too.
    if (claims.scope !== undefined && !opts.permissions.some((p) => permissionsOfScope(claims.scope!).includes(p)))
      throw new SandboxError(
        'PERMISSION_DENIED',
        `This token was issued by POST /api-pix/oauth/token with scope '${claims.scope}', which on the v2 face grants ${permissionsOfScope(claims.scope).join(', ') || 'nothing'}; this operation needs ${opts.permissions.join(' or ')}. Get a v2 token from POST /v2/auth.`,
        { required: opts.permissions },
      );

    const header = c.req.header('x-sub-account');
    if (header !== undefined && opts.subAccountHeader === 'refused')
      throw new SandboxError('SUB_ACCOUNT_HEADER_NOT_ALLOWED', 'This route always acts on the main account; remove the X-Sub-Account header.');
    if (header !== undefined && header !== PRINCIPAL) {
      if (!credential.subAccountAccess)
        throw new SandboxError('SUB_ACCOUNT_FORBIDDEN', "This credential's sub-account access is off, so X-Sub-Account cannot be used. Turn subAccountAccess on for the credential, or omit the header to act on the main account.");
      if (!REFERENCE_PATTERN.test(header))
        throw validationError([{ field: 'X-Sub-Account', message: 'must match ^[a-z0-9][a-z0-9_-]{1,31}$ (a sub-account reference) or be "principal"' }]);
    }
    c.set('caller', { account, credential, ...walletToActOn(account, header, 'GET /v2/sub-accounts') });
    deps.retention.touch(account);
    await next();
  };
}
