// POST /v2/auth: client credentials -> access token (300 s). Its errors use the small {error, message} body
// (wire/errors.ts renders every error of this path that way).
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { SandboxError } from '../../../domain/errors';
import { findCredential } from '../../../services/secrets';
import { AuthErrorSchema, json, jsonBody } from '../../../wire/schemas';
import type { Router } from '../../../wire/env';

const route = createRoute({
  method: 'post',
  path: '/auth',
  operationId: 'authenticate',
  tags: ['v2 API'],
  summary: 'Exchange client credentials for an access token (300 s)',
  security: [],
  request: {
    body: jsonBody(
      z
        .object({
          client_id: z.string().min(1, { error: 'must not be empty' }),
          client_secret: z.string().min(1, { error: 'must not be empty' }),
        })
        .openapi('AuthRequest'),
      // The default world's FULL_ACCESS credential (fixtures/default.json), so the pre-filled request works as is.
      { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' },
    ),
  },
  responses: {
    200: json(
      z.object({ access_token: z.string().openapi({ description: 'A JWT; send it as Authorization: Bearer <access_token>' }), token_type: z.literal('Bearer'), expires_in: z.number().int().openapi({ example: 300, description: 'Seconds of real time the token lives, whatever the sandbox clock or a tenant clock does; POST /_sandbox/accounts/{id}/credentials/{credentialId}/expire-tokens expires it sooner' }) }).openapi('AccessToken'),
      'Access token',
    ),
    400: json(AuthErrorSchema, 'client_id or client_secret missing, or X-Sub-Account sent'),
    401: json(AuthErrorSchema, 'Invalid credentials'),
  },
});

export function register(app: Router, deps: Deps) {
  app.openapi(route, async (c) => {
    if (c.req.header('x-sub-account') !== undefined)
      throw new SandboxError('SUB_ACCOUNT_HEADER_NOT_ALLOWED', 'SUB_ACCOUNT_HEADER_NOT_ALLOWED: POST /v2/auth does not accept X-Sub-Account; remove the header.');
    const { client_id, client_secret } = c.req.valid('json');
    // By client id (an index, not a scan of every tenant), then the secret compared in constant time.
    const found = findCredential(deps, client_id, client_secret);
    if (found) return c.json(await deps.tokens.issue(found.account.id, found.credential.id), 200);
    throw new SandboxError('UNAUTHORIZED', 'Invalid client_id or client_secret. The default credentials are printed at start-up and listed in README.md.');
  });
}
