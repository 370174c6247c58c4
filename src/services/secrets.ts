// Finding the credential of a client id (POST /v2/auth) and the API key of a digest (the v1 guard) without scanning
// every tenant: an index from client id, and from the SHA-256 of a key, to where it was (account id, credential or key
// id). The index is a hint, never the truth: each hit is checked against the current state (the account still holds
// that credential with that client id, or that key), so a stale entry (a reset, a unit undone, a deleted account)
// cannot authenticate anybody. A miss rebuilds the index from the raw state once and looks again, so what was added
// since is found; only unknown client ids and keys pay that scan. Secrets are then compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps';
import type { Account, ApiKey, Credential } from '../domain/types';
import type { Store } from '../store/store';

interface Index {
  byClientId: Map<string, [accountId: string, credentialId: string]>;
  byDigest: Map<string, [accountId: string, keyId: string]>;
  /** SHA-256 of each key seen, so a rebuild hashes only new keys. */
  digests: Map<string, Buffer>;
}

const indexes = new WeakMap<Store, Index>();

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

function rebuild(store: Store, old?: Index): Index {
  const index: Index = { byClientId: new Map(), byDigest: new Map(), digests: new Map() };
  for (const account of Object.values(store.raw.accounts)) {
    // The first holder wins, as the scan this replaces (client ids and keys are unique, sandbox.md 2.8).
    for (const cr of account.credentials) if (!index.byClientId.has(cr.clientId)) index.byClientId.set(cr.clientId, [account.id, cr.id]);
    for (const k of account.apiKeys) {
      const d = old?.digests.get(k.key) ?? sha256(k.key);
      index.digests.set(k.key, d);
      const hex = d.toString('hex');
      if (!index.byDigest.has(hex)) index.byDigest.set(hex, [account.id, k.id]);
    }
  }
  indexes.set(store, index);
  return index;
}

/** Looks `key` up in the index, then (on a miss or a stale entry) once more in a rebuilt one. */
function lookup<T>(store: Store, find: (index: Index) => T | undefined): T | undefined {
  const index = indexes.get(store);
  return (index && find(index)) ?? find(rebuild(store, index));
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The account and credential of `clientId` when `secret` is its secret (compared in constant time). */
export function findCredential(deps: Deps, clientId: string, secret: string): { account: Account; credential: Credential } | undefined {
  const found = credentialOfClientId(deps, clientId);
  return found && sameSecret(found.credential.clientSecret, secret) ? found : undefined;
}

/** The account and API key whose key is `given`: found by the key's SHA-256, then compared in constant time. */
export function findApiKey(deps: Deps, given: string): { account: Account; apiKey: ApiKey } | undefined {
  const wanted = sha256(given);
  const hex = wanted.toString('hex');
  return lookup(deps.store, (index) => {
    const at = index.byDigest.get(hex);
    const account = at && deps.store.findAccount(at[0]);
    const apiKey = account?.apiKeys.find((k) => k.id === at![1]);
    if (!apiKey) return undefined;
    const stored = index.digests.get(apiKey.key) ?? sha256(apiKey.key);
    return timingSafeEqual(wanted, stored) ? { account: account!, apiKey } : undefined;
  });
}

/** The account and credential a client id names (no secret checked; the request log's attribution of POST /v2/auth uses it alone). */
export function credentialOfClientId(deps: Deps, clientId: string): { account: Account; credential: Credential } | undefined {
  return lookup(deps.store, (index) => {
    const at = index.byClientId.get(clientId);
    const account = at && deps.store.findAccount(at[0]);
    const credential = account?.credentials.find((cr) => cr.id === at![1] && cr.clientId === clientId);
    return credential ? { account: account!, credential } : undefined;
  });
}
