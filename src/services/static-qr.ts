// Static QR codes (v1 POST /pix/qrcode-static, sandbox.md 12): a reusable BR Code of the account's PIX key (point of
// initiation 11, the amount when given). It is paid any number of times until it expires; each payment is a new
// charge of the core, paid at once, with its own id and its own payment_completed.
import type { Deps } from '../deps';
import type { Caller } from '../domain/auth';
import { SandboxError, notFound } from '../domain/errors';
import type { Cents } from '../domain/money';
import type { Account, StaticQr, Transaction } from '../domain/types';
import { mainWallet } from '../domain/subaccounts';
import { buildStaticBrCode } from '../pix';
import { ownValue, opt } from '../lib/objects';
import { registerActions } from './actions';
import { createCharge, payCharge, resolveProject } from './charges';
import { holderOf, noteHolder } from './holders';
import { nowOf } from './clocks';
import { roomForRecords } from './capacity';
import { entryWeight } from '../store/weight';

export interface StaticQrInput {
  amount: Cents;
  description: string;
  projectId?: string;
  externalReference?: string;
  expiresIn: number;
  metadata?: Record<string, unknown>;
}

/** The PIX key of an account's static codes: the one it was given, else its id as a random (EVP) key. */
export const accountPixKey = (account: Account) => account.pixKeys[0]?.key ?? account.id;

/** Field 62-05 of a static code: the QR's id without dashes, cut to the 25 characters the field holds. */
export const staticTxid = (id: string) => id.replace(/-/g, '').slice(0, 25);

export function createStaticQr(deps: Deps, caller: Caller, input: StaticQrInput): StaticQr {
  const { account, wallet } = caller;
  // Not a record itself (its payments are), but its metadata weighs (store/weight.ts) and is copied into each payment.
  roomForRecords(deps, entryWeight('staticQrs', input));
  const projectId = resolveProject(caller, input.projectId);
  const now = nowOf(deps, caller.account);
  const id = deps.ids.uuid();
  const qr: StaticQr = {
    id,
    walletId: wallet.id,
    ...opt('projectId', projectId),
    amount: input.amount,
    description: input.description,
    pixCopyPaste: buildStaticBrCode({ key: accountPixKey(account), merchantName: caller.subAccount?.name ?? account.name, merchantCity: account.city, amountCents: input.amount, txid: staticTxid(id), reusable: true }),
    ...opt('externalReference', input.externalReference),
    ...opt('metadata', input.metadata),
    expiresAt: now + input.expiresIn * 1000,
    createdAt: now,
    paymentsCount: 0,
  };
  account.staticQrs[id] = qr;
  noteHolder(deps.store, 'staticQr', id, account.id);
  return qr;
}

/** A static QR is pending until it expires, then cancelled (it never completes: its payments do). */
export const staticQrStatus = (qr: StaticQr, now: number) => (qr.expiresAt <= now ? ('cancelled' as const) : ('pending' as const));

/** One payment of the code: a new completed payment transaction of the core. */
export function payStaticQr(deps: Deps, account: Account, id: string, payer: { payerName?: string; payerDocument?: string } = {}): Transaction {
  const qr = ownValue(account.staticQrs, id);
  if (!qr) throw notFound('TRANSACTION_NOT_FOUND', 'static QR code', id);
  if (staticQrStatus(qr, nowOf(deps, account)) !== 'pending')
    throw new SandboxError('INVALID_STATE_TRANSITION', `This static QR code expired at ${new Date(qr.expiresAt).toISOString()}; create another with POST /v1/pix/qrcode-static.`, { kind: 'static_qr', action: 'pay', from: 'expired' });
  const wallet = account.wallets[qr.walletId] ?? mainWallet(account);
  const subAccount = account.subAccounts.find((s) => s.id === wallet.id) ?? null;
  const { tx } = createCharge(deps, { account, wallet, subAccount }, {
    amount: qr.amount,
    description: qr.description,
    ...opt('projectId', qr.projectId),
    expiresIn: 300,
    ...opt('externalReference', qr.externalReference),
    metadata: { ...qr.metadata, staticQrId: qr.id },
    staticQrId: qr.id,
  }, undefined, { pixCopyPaste: qr.pixCopyPaste, paying: true });
  return payCharge(deps, account, tx.id, payer);
}

/** Finds a static QR by id in any account: POST /_sandbox/transactions/{qrId}/pay pays it once more. */
export function locateStaticQr(deps: Deps, id: string): { account: Account; qr: StaticQr } | undefined {
  const account = holderOf(deps.store, 'staticQr', id);
  return account && { account, qr: account.staticQrs[id]! };
}

export function registerStaticQrActions(deps: Deps) {
  registerActions('static_qr', { pay: (d, account, id, body) => ({ kind: 'charge', tx: payStaticQr(d, account, id, body) }) }, (d, id) => {
    const found = locateStaticQr(d, id);
    return found ? { kind: 'static_qr', account: found.account, id, status: staticQrStatus(found.qr, nowOf(deps, found.account)) } : undefined;
  });
}
