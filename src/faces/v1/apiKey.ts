// The v1 guard, declared per route: X-API-Key -> API key (looked up now, so a changed key applies at once) ->
// permission -> X-Sub-Account. A key is found by its SHA-256 (services/secrets.ts: an index, not a scan of every
// tenant's keys), then compared with timingSafeEqual, so where a key differs does not show in the timing. API keys are
// account-level: the caller is the whole account.
import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../../deps';
import { SandboxError } from '../../domain/errors';
import { allows, type Permission } from '../../domain/permissions';
import { mainWallet, PRINCIPAL } from '../../domain/subaccounts';
import type { Environment } from '../../domain/types';
import { findApiKey } from '../../services/secrets';
import type { Env } from '../../wire/env';

export const API_KEY_PREFIXES: Record<Environment, string> = { sandbox: 'mp_test_', production: 'mp_live_' };

export function apiKeyGuard(deps: Deps, opts: { permissions: Permission[] }): MiddlewareHandler<Env> {
  const needed = [...opts.permissions, 'FULL_ACCESS'].join(' or ');
  return async (c, next) => {
    const given = c.req.header('x-api-key')?.trim();
    if (!given) {
      const bearer = /^Bearer\s/i.test(c.req.header('authorization') ?? '') ? ' v1 routes do not take bearer tokens.' : '';
      throw new SandboxError(
        'UNAUTHORIZED',
        `Missing API key.${bearer} Send header 'X-API-Key: <key>' with one of the account's API keys (the start-up banner prints the default one; GET /_sandbox/accounts/{id} lists an account's keys).`,
      );
    }
    if (!given.startsWith(API_KEY_PREFIXES.sandbox) && !given.startsWith(API_KEY_PREFIXES.production))
      throw new SandboxError('UNAUTHORIZED', `This is not an API key: keys start with ${API_KEY_PREFIXES.sandbox} (sandbox accounts) or ${API_KEY_PREFIXES.production} (production accounts). Send one of the account's API keys in X-API-Key.`);
    const match = findApiKey(deps, given);
    if (!match) throw new SandboxError('UNAUTHORIZED', 'Unknown API key. Send one of the account\'s API keys in X-API-Key (GET /_sandbox/accounts/{id} lists them; POST /_sandbox/accounts creates an account with its own).');
    const { account, apiKey } = match;
    const prefix = API_KEY_PREFIXES[account.environment];
    if (!apiKey.key.startsWith(prefix))
      throw new SandboxError('UNAUTHORIZED', `This API key belongs to a ${account.environment} account, whose keys start with ${prefix}; use a key with that prefix.`);
    if (!allows(apiKey.permissions, opts.permissions))
      throw new SandboxError('PERMISSION_DENIED', `This API key lacks the permission ${needed}. Use a key that has it (POST /_sandbox/accounts with apiKeys: [{permissions: [...]}] makes one).`, {
        required: opts.permissions,
      });
    const header = c.req.header('x-sub-account');
    if (header !== undefined && header !== PRINCIPAL)
      throw new SandboxError(
        'SUB_ACCOUNT_FORBIDDEN',
        "API keys are account-level and have no sub-account access, so X-Sub-Account cannot be used on v1: the report already covers the whole account (main wallet and every sub-account). Omit the header (or send 'principal').",
      );
    c.set('caller', { account, wallet: mainWallet(account), subAccount: null, apiKeyId: apiKey.id });
    deps.retention.touch(account);
    await next();
  };
}
