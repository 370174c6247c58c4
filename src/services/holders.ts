// Which account holds a record that the control API addresses by id alone (a transaction or withdrawal, a balance
// block, a webhook endpoint, a delivery, a static QR, a payment link) or a wallet (a charge's expiry finds its account
// by it), without walking every tenant: with 1,000 tenants a walk costs more than the request. As the secrets index (services/secrets.ts), a map from id to account id is a hint, never the truth: a hit
// is checked against the state as it is (the account still exists and holds that id), so a reset, a unit undone, a
// deleted account or a replayed journal cannot mislead it. Records are noted where they are made; an id not noted
// (made before this process started, or longer ago than the map remembers) is found by one walk of the raw state,
// then noted. Each map keeps the last HINTS ids of its kind, so memory stays flat however many records are stored.
import type { Account } from '../domain/types';
import type { Store } from '../store/store';

export type HolderKind = 'transaction' | 'wallet' | 'balanceBlock' | 'webhook' | 'delivery' | 'staticQr' | 'paymentLink';

/** Does this account hold the record `id` of the kind? */
const HOLDS: Record<HolderKind, (account: Account, id: string) => boolean> = {
  transaction: (a, id) => Object.hasOwn(a.transactions, id),
  wallet: (a, id) => Object.hasOwn(a.wallets, id),
  balanceBlock: (a, id) => Object.hasOwn(a.balanceBlocks, id),
  webhook: (a, id) => a.webhooks.some((w) => w.id === id),
  delivery: (a, id) => Object.hasOwn(a.deliveries, id),
  staticQr: (a, id) => Object.hasOwn(a.staticQrs, id),
  paymentLink: (a, id) => Object.hasOwn(a.paymentLinks, id),
};

/** Ids remembered per kind (the oldest noted are forgotten first). */
export const HINTS = 16_384;

const hints = new WeakMap<Store, Record<HolderKind, Map<string, string>>>();

function hintsOf(store: Store, kind: HolderKind): Map<string, string> {
  let all = hints.get(store);
  if (!all) hints.set(store, (all = { transaction: new Map(), wallet: new Map(), balanceBlock: new Map(), webhook: new Map(), delivery: new Map(), staticQr: new Map(), paymentLink: new Map() }));
  return all[kind];
}

/** Notes that `accountId` holds the record `id` just made (inside its unit: an undone unit leaves a hint that fails its check). */
export function noteHolder(store: Store, kind: HolderKind, id: string, accountId: string): void {
  const map = hintsOf(store, kind);
  map.delete(id);
  map.set(id, accountId);
  if (map.size > HINTS) map.delete(map.keys().next().value!);
}

/** The account (as the current unit sees it) that holds the record `id` of this kind, or undefined. */
export function holderOf(store: Store, kind: HolderKind, id: string): Account | undefined {
  const accounts = store.raw.accounts;
  const holds = HOLDS[kind];
  const hinted = hintsOf(store, kind).get(id);
  if (hinted !== undefined && Object.hasOwn(accounts, hinted) && holds(accounts[hinted]!, id)) return store.findAccount(hinted);
  for (const accountId in accounts) {
    if (Object.hasOwn(accounts, accountId) && holds(accounts[accountId]!, id)) {
      noteHolder(store, kind, id, accountId);
      return store.findAccount(accountId);
    }
  }
  return undefined;
}
