// Access tokens: real JWTs (ES256, jose), 300 s of sandbox clock. The key pair is made once and kept in the state,
// so tokens survive a restart with a data file; its public half is served at /.well-known/jwks.json.
import { CompactSign, SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type KeyObject } from 'jose';
import type { Clock } from '../lib/clock';
import type { Store } from '../store/store';
import { SandboxError } from '../domain/errors';

export const TOKEN_TTL_SECONDS = 300;
const ISSUER = 'pix-sandbox';

export interface TokenClaims {
  accountId: string;
  credentialId: string;
  expiresAt: number; // ms
}

export interface Tokens {
  issue(accountId: string, credentialId: string): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }>;
  verify(token: string): Promise<TokenClaims>;
  /** The public key set of GET /.well-known/jwks.json (JWK members as jose writes them). */
  jwks(): { keys: Record<string, unknown>[] };
  /** A compact JWS of `payload` with the same key (what a dynamic BR Code location answers). */
  signJws(payload: unknown): Promise<string>;
}

const invalid = (why: string) =>
  new SandboxError('UNAUTHORIZED', `${why}. Get a token from POST /v2/auth and send it as 'Authorization: Bearer <access_token>'.`);

export async function createTokens(store: Store, clock: Clock): Promise<Tokens> {
  let privateJwk = store.state.signingKey as JWK | null;
  if (!privateJwk) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    privateJwk = { ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig' };
    privateJwk.kid = `sandbox-${Date.now().toString(36)}`;
    const jwk = privateJwk as Record<string, unknown>;
    await store.atomically('system', () => (store.state.signingKey = jwk)).durable;
  }
  const kid = privateJwk.kid!;
  const privateKey = (await importJWK(privateJwk, 'ES256')) as KeyObject;
  const { d: _d, ...publicJwk } = privateJwk;
  const publicKey = (await importJWK(publicJwk, 'ES256')) as KeyObject;

  // Verified tokens are remembered (signature checks are the costly part); expiry is still checked on every call
  // against the sandbox clock, so moving the clock expires a cached token too.
  const verified = new Map<string, TokenClaims>();

  return {
    async issue(accountId, credentialId) {
      const iat = Math.floor(clock.nowMs() / 1000);
      const token = await new SignJWT({ acc: accountId })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuer(ISSUER)
        .setSubject(credentialId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + TOKEN_TTL_SECONDS)
        .sign(privateKey);
      return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS };
    },
    async verify(token) {
      let claims = verified.get(token);
      if (!claims) {
        try {
          const { payload } = await jwtVerify(token, publicKey, { issuer: ISSUER, algorithms: ['ES256'], currentDate: clock.now(), clockTolerance: 0 });
          if (typeof payload.acc !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new Error('claims');
          claims = { accountId: payload.acc, credentialId: payload.sub, expiresAt: payload.exp * 1000 };
        } catch (err) {
          const code = (err as { code?: string }).code;
          throw invalid(code === 'ERR_JWT_EXPIRED' ? 'The access token has expired (tokens live 300 s)' : 'The access token is not valid');
        }
        if (verified.size > 10_000) verified.clear();
        verified.set(token, claims);
      }
      if (clock.nowMs() >= claims.expiresAt) throw invalid('The access token has expired (tokens live 300 s)');
      return claims;
    },
    jwks: () => ({ keys: [{ ...publicJwk, kid, alg: 'ES256', use: 'sig' }] }),
    signJws: (payload) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: 'ES256', kid, typ: 'JOSE' }).sign(privateKey),
  };
}
