// Access tokens: real JWTs (ES256, jose), 300 s of real elapsed time, whatever any clock of the sandbox does (sandbox.md
// 4.6): a jump of the sandbox clock or of a tenant's own never expires one. A suite testing its refresh path expires a
// credential's tokens on demand (expire-tokens bumps the credential's tokenGeneration; a token carries the generation
// it was issued in, and both guards refuse an older one: tokenExpiredOnDemand). The key pair is made once and kept in
// the state, so tokens survive a restart with a data file; its public half is served at /.well-known/jwks.json.
// jose is imported at the first token issued, verified or signed, not at start: a start makes (or checks) the key with
// node:crypto, which writes the same JWK members.
import { createHash, createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import type { JWK, KeyObject } from 'jose';
import type { Clock } from '../lib/clock';
import type { Store } from '../store/store';
import type { Credential } from '../domain/types';
import { SandboxError } from '../domain/errors';
import { extended } from '../lib/objects';

export const TOKEN_TTL_SECONDS = 300;
/** Where the key set is served; a signed payload's jku is this path on the origin the client reached. */
export const JWKS_PATH = '/.well-known/jwks.json';
export const keySetUrl = (requestUrl: string) => new URL(JWKS_PATH, requestUrl).href;
const ISSUER = 'pix-sandbox';

export interface TokenClaims {
  accountId: string;
  credentialId: string;
  expiresAt: number; // ms of real time
  /** The credential's tokenGeneration when it was issued. */
  generation: number;
  /** Scopes of the standard API Pix face (space-separated), when the token was issued there. */
  scope?: string;
}

export interface Tokens {
  issue(accountId: string, credentialId: string, scope?: string): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }>;
  verify(token: string): Promise<TokenClaims>;
  /** The public key set of GET /.well-known/jwks.json (JWK members as jose writes them, with the key's certificate). */
  jwks(): Promise<{ keys: Record<string, unknown>[] }>;
  /**
   * A compact JWS of `payload` with the same key (what a dynamic BR Code location answers); its header names the key
   * set at `jku` (when given) and the key's certificate by x5t#S256, as the document's example header does.
   */
  signJws(payload: unknown, opts?: { jku?: string }): Promise<string>;
}

/** Why an expired token is refused (both faces say it, each in its own envelope). */
export const TOKEN_EXPIRED = `The access token has expired (tokens live ${TOKEN_TTL_SECONDS} s of real time, or were expired with POST /_sandbox/accounts/{id}/credentials/{credentialId}/expire-tokens)`;

/** Whether the credential's tokens were expired (expire-tokens) after this one was issued. */
export const tokenExpiredOnDemand = (claims: TokenClaims, credential: Credential): boolean => (credential.tokenGeneration ?? 0) !== claims.generation;

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

  // The signing key's certificate, self-signed and made at the first JWS or key-set read (pkijs loads then): a payer's
  // PSP matches the JWS header's x5t#S256 to the x5c of the key it finds at jku. Made anew at each start (the key
  // stays), so its validity is real time from then.
  let certified: Promise<{ x5c: string; thumbprint: string }> | undefined;
  const certificate = () =>
    (certified ??= import('../tls/certificates').then(async ({ selfSignedSigningCertificate }) => {
      const der = await selfSignedSigningCertificate(signer as JsonWebKey, `pix-sandbox payload signing key ${kid}`);
      return { x5c: der.toString('base64'), thumbprint: createHash('sha256').update(der).digest('base64url') };
    }));

  // Verified tokens are remembered (signature checks are the costly part); expiry is still checked on every call,
  // against real time.
  const verified = new Map<string, TokenClaims>();

  return {
    async issue(accountId, credentialId, scope) {
      const { jose, privateKey } = await load();
      const iat = Math.floor(clock.realMs() / 1000);
      const accounts = store.raw.accounts;
      const gen = (Object.hasOwn(accounts, accountId) && accounts[accountId]!.credentials.find((c) => c.id === credentialId)?.tokenGeneration) || 0;
      const claims: Record<string, unknown> = { acc: accountId, ...(scope === undefined ? {} : { scope }), ...(gen === 0 ? {} : { gen }) };
      const token = await new jose.SignJWT(claims)
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
          const { payload } = await jose.jwtVerify(token, publicKey, { issuer: ISSUER, algorithms: ['ES256'], currentDate: new Date(clock.realMs()), clockTolerance: 0 });
          if (typeof payload.acc !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new Error('claims');
          claims = {
            accountId: payload.acc,
            credentialId: payload.sub,
            expiresAt: payload.exp * 1000,
            generation: typeof payload.gen === 'number' ? payload.gen : 0,
            ...(typeof payload.scope === 'string' ? { scope: payload.scope } : {}),
          };
        } catch (err) {
          const code = (err as { code?: string }).code;
          throw invalid(code === 'ERR_JWT_EXPIRED' ? TOKEN_EXPIRED : 'The access token is not valid');
        }
        if (verified.size > 10_000) verified.clear();
        verified.set(token, claims);
      }
      if (clock.realMs() >= claims.expiresAt) throw invalid(TOKEN_EXPIRED);
      return claims;
    },
    jwks: async () => {
      const { x5c, thumbprint } = await certificate();
      return { keys: [extended(publicJwk, { kid, alg: 'ES256', use: 'sig', x5c: [x5c], 'x5t#S256': thumbprint })] };
    },
    signJws: async (payload, opts = {}) => {
      const [{ jose, privateKey }, { thumbprint }] = await Promise.all([load(), certificate()]);
      const header = { alg: 'ES256', kid, typ: 'JOSE', ...(opts.jku ? { jku: opts.jku } : {}), 'x5t#S256': thumbprint };
      return new jose.CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header).sign(privateKey);
    },
  };
}
