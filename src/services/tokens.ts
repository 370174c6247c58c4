// Access tokens: real JWTs (ES256, jose), 300 s of sandbox clock. The key pair is made once and kept in the state,
// so tokens survive a restart with a data file; its public half is served at /.well-known/jwks.json.
// jose is imported at the first token issued, verified or signed, not at start: a start makes (or checks) the key with
// node:crypto, which writes the same JWK members.
import { createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import type { JWK, KeyObject } from 'jose';
import type { Clock } from '../lib/clock';
import type { Store } from '../store/store';
import { SandboxError } from '../domain/errors';
import { extended } from '../lib/objects';

export const TOKEN_TTL_SECONDS = 300;
const ISSUER = 'pix-sandbox';

export interface TokenClaims {
  accountId: string;
  credentialId: string;
  expiresAt: number; // ms
  /** Scopes of the standard API Pix face (space-separated), when the token was issued there. */
  scope?: string;
}

export interface Tokens {
  issue(accountId: string, credentialId: string, scope?: string): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }>;
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
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    privateJwk = { ...(privateKey.export({ format: 'jwk' }) as JWK), alg: 'ES256', use: 'sig' };
    privateJwk.kid = `sandbox-${Date.now().toString(36)}`;
    const jwk = privateJwk as Record<string, unknown>;
    await store.atomically('system', () => (store.state.signingKey = jwk)).durable;
  } else {
    // A stored key that is no P-256 private key stops the start here, as importing it did before jose was lazy.
    const key = createPrivateKey({ key: privateJwk as JsonWebKey, format: 'jwk' });
    if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('the signing key in the state is not a P-256 key (ES256)');
  }
  const kid = privateJwk.kid!;
  const { d: _d, ...publicJwk } = privateJwk;
  const signer = privateJwk;
  let loaded: Promise<{ jose: typeof import('jose'); privateKey: KeyObject; publicKey: KeyObject }> | undefined;
  const load = () =>
    (loaded ??= import('jose').then(async (jose) => ({
      jose,
      privateKey: (await jose.importJWK(signer, 'ES256')) as KeyObject,
      publicKey: (await jose.importJWK(publicJwk, 'ES256')) as KeyObject,
    })));

  // Verified tokens are remembered (signature checks are the costly part); expiry is still checked on every call
  // against the sandbox clock, so moving the clock expires a cached token too.
  const verified = new Map<string, TokenClaims>();

  return {
    async issue(accountId, credentialId, scope) {
      const { jose, privateKey } = await load();
      const iat = Math.floor(clock.nowMs() / 1000);
      const token = await new jose.SignJWT(scope === undefined ? { acc: accountId } : { acc: accountId, scope })
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
        const { jose, publicKey } = await load();
        try {
          const { payload } = await jose.jwtVerify(token, publicKey, { issuer: ISSUER, algorithms: ['ES256'], currentDate: clock.now(), clockTolerance: 0 });
          if (typeof payload.acc !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new Error('claims');
          claims = { accountId: payload.acc, credentialId: payload.sub, expiresAt: payload.exp * 1000, ...(typeof payload.scope === 'string' ? { scope: payload.scope } : {}) };
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
    jwks: () => ({ keys: [extended(publicJwk, { kid, alg: 'ES256', use: 'sig' })] }),
    signJws: async (payload) => {
      const { jose, privateKey } = await load();
      return new jose.CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: 'ES256', kid, typ: 'JOSE' }).sign(privateKey);
    },
  };
}
