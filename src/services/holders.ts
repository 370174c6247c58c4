// Which account holds a record that the control API addresses by id alone (a transaction or withdrawal, a balance
// block, a webhook endpoint, a delivery, a static QR, a payment link, a recurrence or its confirmation request) or a
// wallet (a charge's expiry finds its account by it), without walking every tenant: with 1,000 tenants a walk costs more than the request. As the secrets index (services/secrets.ts), a map from id to account id is a hint, never the truth: a hit
// is checked against the state as it is (the account still exists and holds that id), so a reset, a unit undone, a
// deleted account or a replayed journal cannot mislead it. Records are noted where they are made; an id not noted
// (made before this process started, or longer ago than the map remembers) is found by one walk of the raw state,
// then noted. Each map keeps the last HINTS ids of its kind, so memory stays flat however many records are stored.
// ownersOf answers "which accounts hold this id", over every kind at once: the one lookup the control API's principal
// check and its request log use, so no route can look in a kind its owner check forgot.
import { TXID } from '../domain/api-pix';
import type { Account } from '../domain/types';
import type { Store } from '../store/store';

export type HolderKind = 'transaction' | 'wallet' | 'balanceBlock' | 'webhook' | 'delivery' | 'staticQr' | 'paymentLink' | 'rec' | 'solicRec';

/** Does this account hold the record `id` of the kind? */
const HOLDS: Record<HolderKind, (account: Account, id: string) => boolean> = {
  transaction: (a, id) => Object.hasOwn(a.transactions, id),
  wallet: (a, id) => Object.hasOwn(a.wallets, id),
  balanceBlock: (a, id) => Object.hasOwn(a.balanceBlocks, id),
  webhook: (a, id) => a.webhooks.some((w) => w.id === id),
  delivery: (a, id) => Object.hasOwn(a.deliveries, id),
  staticQr: (a, id) => Object.hasOwn(a.staticQrs, id),
  paymentLink: (a, id) => Object.hasOwn(a.paymentLinks, id),
  rec: (a, id) => Object.hasOwn(a.recs ?? {}, id),
  solicRec: (a, id) => Object.hasOwn(a.solicrecs ?? {}, id),
};

/** Records keyed by a txid, which is unique per receiver only: several accounts may hold the same one (cob, cobv, cobr). */
const HOLDS_TXID: Array<(account: Account, id: string) => boolean> = [(a, id) => Object.hasOwn(a.cobs ?? {}, id), (a, id) => Object.hasOwn(a.cobrs ?? {}, id)];

/** The kinds the control API addresses by id alone, each id the sandbox's own and so held by one account. */
const ADDRESSED: readonly HolderKind[] = ['transaction', 'staticQr', 'paymentLink', 'balanceBlock', 'webhook', 'delivery', 'rec', 'solicRec'];

/** Ids remembered per kind (the oldest noted are forgotten first). */
export const HINTS = 16_384;

const hints = new WeakMap<Store, Map<HolderKind, Map<string, string>>>();

function hintsOf(store: Store, kind: HolderKind): Map<string, string> {
  let all = hints.get(store);
  if (!all) hints.set(store, (all = new Map()));
  let map = all.get(kind);
  if (!map) all.set(kind, (map = new Map()));
  return map;
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

/**
 * Every account that holds a record of any kind the control API addresses by id alone (ADDRESSED, and the txids of
 * cobs and cobrs), as the state is: none, one, or (a txid, unique per receiver only) several. A hinted id that no txid
 * can be is answered without a walk; any other id costs one walk of the accounts, every kind at once.
 */
export function ownersOf(store: Store, id: string): string[] {
  const accounts = store.raw.accounts;
  if (!TXID.test(id)) {
    for (const kind of ADDRESSED) {
      const hinted = hintsOf(store, kind).get(id);
      if (hinted !== undefined && Object.hasOwn(accounts, hinted) && HOLDS[kind](accounts[hinted]!, id)) return [hinted];
    }
  }
  const owners: string[] = [];
  for (const accountId in accounts) {
    if (!Object.hasOwn(accounts, accountId)) continue;
    const account = accounts[accountId]!;
    const kind = ADDRESSED.find((k) => HOLDS[k](account, id));
    if (kind !== undefined) noteHolder(store, kind, id, accountId);
    if (kind !== undefined || HOLDS_TXID.some((holds) => holds(account, id))) owners.push(accountId);
  }
  return owners;
}
