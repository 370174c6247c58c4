// PIX charges: creation (POST /v2/pix), settlement (pay), expiry, failure and cancellation. Every move goes through
// the transaction state table; settlement follows sandbox.md 2.4: gross in, fee out, then each split leg out as an
// internal_transfer, legs computed with the fee in force at settlement and cut first-leg-first when the net shrank.
import type { Deps } from '../deps';
import { SandboxError, notFound, validationError } from '../domain/errors';
import { post } from '../domain/ledger';
import { pixFee, type Cents } from '../domain/money';
import { findSubAccount, mainWallet, PRINCIPAL } from '../domain/subaccounts';
import { transition, TRANSACTION_TRANSITIONS } from '../domain/transitions';
import type { Account, ChargeDetails, Institution, PaymentMethod, SplitItem, Transaction, Wallet } from '../domain/types';
import { recordLinkPayment } from '../domain/payment-links';
import { brtDay, dueAmounts } from '../domain/api-pix';
import { recordPixNotice } from '../webhooks/api-pix';
import type { Caller } from '../domain/auth';
import { buildDynamicBrCode, generateCpf, makeE2eId, parseBrCode, qrPngDataUrl } from '../pix';
import { drawQrDataUrl } from './qr-images';
import { recordEvent } from '../webhooks/events';
import { upsertCustomer, type CustomerInput } from './customers';
import { walletProjects } from './projects';
import { ownValue, opt, valuesOf } from '../lib/objects';
import { MAGIC_DELAY_SECONDS, MAGIC_FOLLOW_UP_SECONDS } from '../domain/magic';
import { chargeMagic } from '../domain/magic-rules';
import { publishTransactions } from '../lib/bus';
import { holderOf, noteHolder } from './holders';
import { isoTime } from '../lib/iso';
import type { DueRules } from '../domain/types';
import { nowOf } from './clocks';
import { recordWeight, roomForRecords } from './capacity';

export const EXPIRE_JOB = 'charge.expire';
export const AUTOPAY_JOB = 'charge.autopay';
/** The outcome a magic customer.document chose (domain/magic.ts), 5 s after creation. */
export const MAGIC_CHARGE_JOB = 'charge.magic';
/** The MED block a magic payment gets 60 s after it was paid. */
export const MAGIC_BLOCK_JOB = 'charge.magic-block';

export interface ChargeInput {
  amount: Cents;
  description: string;
  customer?: CustomerInput;
  projectId?: string;
  pspCredentialId?: string;
  expiresIn: number;
  externalReference?: string;
  metadata?: Record<string, unknown>;
  split?: SplitItem[];
  /** v1: an existing customer record (instead of `customer`). */
  customerId?: string;
  /** Payment links: how the payer pays (default pix); the link and static QR the charge belongs to. */
  paymentMethod?: PaymentMethod;
  paymentLinkId?: string;
  staticQrId?: string;
  /** Where the BR Code points (host and path) instead of the core's /pix/qr/{id}: a payload location of the standard face. */
  location?: string;
  /** A charge of the standard face (its txid and key) and, for a cobv, its due-date rules. */
  apiPix?: NonNullable<ChargeDetails['apiPix']>;
  due?: DueRules;
}

/**
 * What was made before the charge's unit: its id (chargeWithQr draws it with the QR image), its BR Code (chargeWithQr's,
 * undefined when the merchant changed meanwhile; a static QR's payment carries the QR's code). What is absent is made
 * here. Apart from the input because a request's validated body is passed on as it is: a copy of it with fields added
 * (`{ ...input, id }`) gets a hidden class of its own in Node 20 each time, garbage that was most of the memory a create
 * left behind it (sandbox.md 10).
 */
export interface Premade {
  id?: string | undefined;
  pixCopyPaste?: string | undefined;
  /** Made to be paid at once (a static QR code or payment link paid): a payment, let through at --max-records. */
  paying?: boolean;
}

/** Path the BR Code location points at; the sandbox serves it (see pages/location.ts). */
export const locationPath = (id: string) => `/pix/qr/${id}`;

/** The project a charge or withdrawal belongs to: the given one (must exist), else the wallet's only project. */
export function resolveProject(caller: Caller, projectId: string | undefined): string | undefined {
  const projects = walletProjects(caller);
  if (projectId !== undefined) {
    if (!projects.some((p) => p.id === projectId)) throw notFound('PROJECT_NOT_FOUND', 'project', projectId, 'Use an id from GET /v2/projects, or omit projectId.');
    return projectId;
  }
  return projects.length === 1 ? projects[0]!.id : undefined;
}

function pinnedInstitution(account: Account, id: string): Institution {
  const inst = account.institutions.find((i) => i.id === id);
  if (!inst) throw notFound('PSP_CREDENTIAL_NOT_FOUND', 'institution', id, 'Use the id of one of the account institutions (GET /_sandbox/accounts/{id}), or omit pspCredentialId.');
  if (!account.institutionChoice)
    throw new SandboxError('PSP_CREDENTIAL_NOT_ELIGIBLE', 'This account does not have institution choice enabled, so pspCredentialId cannot be used; omit it.', { pspCredentialId: id });
  if (!inst.enabled) throw new SandboxError('PSP_CREDENTIAL_NOT_ELIGIBLE', `Institution '${inst.name}' is disabled for this account; pin an enabled institution or omit pspCredentialId.`, { pspCredentialId: id });
  if (inst.status === 'down') throw new SandboxError('PSP_UNAVAILABLE', `Institution '${inst.name}' is down. A pinned charge is never routed elsewhere: retry later, or omit pspCredentialId.`, { pspCredentialId: id });
  if (inst.status === 'out_of_capacity')
    throw new SandboxError('PSP_OUT_OF_CAPACITY', `Institution '${inst.name}' is out of capacity. A pinned charge is never routed elsewhere: retry later, or omit pspCredentialId.`, { pspCredentialId: id });
  return inst;
}

/** The wallet a split item names, checked against the charge's originator (rules 3-5 of 4.2). */
function splitTarget(caller: Caller, item: SplitItem, index: number): Wallet {
  const { account } = caller;
  if (item.subAccount === PRINCIPAL) {
    if (!caller.subAccount)
      throw new SandboxError('SPLIT_PRINCIPAL_NOT_ALLOWED', `split[${index}]: a charge created by the main account cannot split to 'principal'; 'principal' is for charges created by a sub-account (X-Sub-Account).`, { index });
    return mainWallet(account);
  }
  const sub = findSubAccount(account, item.subAccount);
  if (!sub) throw new SandboxError('SPLIT_SUB_ACCOUNT_NOT_FOUND', `split[${index}].subAccount '${item.subAccount}' is not a sub-account of this account; see GET /v2/sub-accounts.`, { index, subAccount: item.subAccount });
  if (sub.status !== 'approved')
    throw new SandboxError('SPLIT_SUB_ACCOUNT_INACTIVE', `split[${index}].subAccount '${item.subAccount}' is ${sub.status}; split only to approved sub-accounts.`, { index, subAccount: item.subAccount });
  if (sub.id === caller.wallet.id) throw validationError([{ field: `split[${index}].subAccount`, message: `is the wallet creating the charge; split only to other wallets` }]);
  return account.wallets[sub.id]!;
}

/** The merchant a charge's BR Code names (fields 59 and 60): the only parts of it that can change under a create. */
const merchantOf = (caller: Caller) => ({ merchantName: caller.subAccount?.name ?? caller.account.name, merchantCity: caller.account.city });

/** The BR Code createCharge gives charge `id` of `input` (unless the input brings its own code). */
export function chargeBrCode(deps: Deps, caller: Caller, id: string, input: Pick<ChargeInput, 'amount' | 'location'>): string {
  return buildDynamicBrCode({
    location: input.location ?? `${deps.settings.publicHost}${locationPath(id)}`,
    ...merchantOf(caller),
    amountCents: input.amount,
  });
}

/**
 * For the faces that answer a create with the QR image (POST /v2/pix, POST /v1/pix): draws the id of the charge to be
 * made and starts drawing its QR image off the event loop (services/qr-images.ts) before anything is written. Await
 * it before the verb (whose writes stay one synchronous stretch), make the charge with `id` and `brCode()` (the code
 * drawn, or undefined once the account or sub-account was renamed meanwhile: the verb then makes the code anew), then
 * `qr(tx)` is the image drawn, or one drawn now if the charge's code came out otherwise.
 */
export async function chargeWithQr(
  deps: Deps,
  caller: Caller,
  input: Pick<ChargeInput, 'amount'>,
): Promise<{ id: string; brCode: () => string | undefined; qr: (tx: Transaction) => string }> {
  const id = deps.ids.uuid();
  const merchant = merchantOf(caller);
  const text = chargeBrCode(deps, caller, id, input);
  const image = await drawQrDataUrl(text);
  return {
    id,
    brCode: () => {
      const now = merchantOf(caller);
      return now.merchantName === merchant.merchantName && now.merchantCity === merchant.merchantCity ? text : undefined;
    },
    qr: (tx) => (tx.charge!.pixCopyPaste === text ? image : qrPngDataUrl(tx.charge!.pixCopyPaste)),
  };
}

export function createCharge(deps: Deps, caller: Caller, input: ChargeInput, idempotencyKey?: string, made: Premade = {}): { tx: Transaction; qrText: string } {
  const { account, wallet } = caller;
  const now = nowOf(deps, caller.account);
  // Every check first: a request that fails creates nothing.
  if (!made.paying) roomForRecords(deps, recordWeight(input));
  const projectId = resolveProject(caller, input.projectId);
  const institution = input.pspCredentialId ? pinnedInstitution(account, input.pspCredentialId) : undefined;
  if (input.split) {
    input.split.forEach((item, i) => splitTarget(caller, item, i));
    const net = input.amount - pixFee(input.amount, account.fees.pix);
    const sum = input.split.reduce((s, i) => s + i.amount, 0);
    if (sum > net)
      throw new SandboxError('SPLIT_EXCEEDS_NET_AMOUNT', `The split adds up to ${(sum / 100).toFixed(2)} but the net amount (amount minus the fee of ${((input.amount - net) / 100).toFixed(2)}) is ${(net / 100).toFixed(2)}; reduce the split.`, {
        splitTotal: sum / 100,
        netAmount: net / 100,
      });
  }

  const known = input.customerId === undefined ? undefined : account.customers.find((c) => c.id === input.customerId);
  if (input.customerId !== undefined && !known) throw notFound('CUSTOMER_NOT_FOUND', 'customer', input.customerId, 'Use an id from GET /v1/customers (or POST /v1/customers), or send customer instead.');

  const id = made.id ?? deps.ids.uuid();
  const pixCopyPaste = made.pixCopyPaste ?? chargeBrCode(deps, caller, id, input);
  const customer = known ?? (input.customer ? upsertCustomer(deps, account, input.customer) : undefined);
  const magic = chargeMagic(account.automation, input.customer?.document);
  // The optional fields are added, not spread into the literal: V8 gives a literal an in-object field for each spread,
  // and most charges have none of these (seven empty fields, 56 bytes a stored charge).
  const charge: ChargeDetails = { pixCopyPaste, expiresAt: now + input.expiresIn * 1000, pspPaymentId: `sbx${deps.ids.token(29)}` };
  if (institution) charge.pspCredentialId = institution.id;
  if (input.split) charge.split = input.split;
  if (magic !== undefined) charge.magic = magic;
  if (input.paymentLinkId !== undefined) charge.paymentLinkId = input.paymentLinkId;
  if (input.staticQrId !== undefined) charge.staticQrId = input.staticQrId;
  if (input.apiPix !== undefined) charge.apiPix = input.apiPix;
  if (input.due !== undefined) charge.due = input.due;
  const tx: Transaction = {
    id,
    walletId: wallet.id,
    type: 'payment',
    status: 'pending',
    paymentMethod: input.paymentMethod ?? 'pix',
    amount: input.amount,
    createdAt: now,
    updatedAt: now,
    description: input.description,
    ...opt('externalReference', input.externalReference),
    ...opt('idempotencyKey', idempotencyKey),
    ...(customer ? { customerId: customer.id } : {}),
    ...(projectId ? { projectId } : {}),
    ...opt('metadata', input.metadata),
    charge,
  };
  account.transactions[id] = tx;
  noteHolder(deps.store, 'transaction', id, account.id);
  deps.scheduler.dated(EXPIRE_JOB, tx);
  // A magic value decides the outcome: automatic payment would race it, so it is not scheduled then.
  const autoPay = account.automation.autoPayAfterSeconds;
  if (magic) deps.scheduler.schedule({ kind: MAGIC_CHARGE_JOB, dueAt: now + MAGIC_DELAY_SECONDS * 1000, accountId: account.id, ref: id });
  else if (autoPay !== null && autoPay * 1000 < input.expiresIn * 1000) deps.scheduler.schedule({ kind: AUTOPAY_JOB, dueAt: now + autoPay * 1000, accountId: account.id, ref: id });
  publishTransactions(deps.bus, account.id, tx);
  return { tx, qrText: pixCopyPaste };
}

const PAYER_NAMES = ['Ana Souza', 'Bruno Lima', 'Carla Pereira', 'Diego Santos', 'Elisa Costa', 'Felipe Rocha', 'Gabriela Alves', 'Henrique Dias'];

/** Cuts the excess of the requested legs over the net off the legs in the order sent (first leg first). */
export function applySplit(requested: SplitItem[], net: Cents): SplitItem[] {
  let excess = Math.max(0, requested.reduce((s, l) => s + l.amount, 0) - Math.max(net, 0));
  return requested
    .map((leg) => {
      const cut = Math.min(leg.amount, excess);
      excess -= cut;
      return { subAccount: leg.subAccount, amount: leg.amount - cut };
    })
    .filter((leg) => leg.amount > 0);
}

function walletOfSplit(account: Account, reference: string): Wallet {
  if (reference === PRINCIPAL) return mainWallet(account);
  const sub = findSubAccount(account, reference)!;
  return account.wallets[sub.id]!;
}

function chargeOf(account: Account, id: string): Transaction {
  const tx = ownValue(account.transactions, id);
  if (!tx?.charge) throw notFound('TRANSACTION_NOT_FOUND', 'charge', id);
  return tx;
}

export function payCharge(deps: Deps, account: Account, id: string, payer: { payerName?: string; payerDocument?: string } = {}): Transaction {
  const tx = chargeOf(account, id);
  tx.status = transition(TRANSACTION_TRANSITIONS, 'charge', tx.status, 'completed', 'pay');
  const now = nowOf(deps, account);
  const charge = tx.charge!;
  // A cobv costs what its due-date rules say on the day it is paid (fines and interest, or a discount).
  if (charge.due) tx.amount = dueAmounts(charge.due, brtDay(now)).final;
  const wallet = account.wallets[tx.walletId]!;
  const fee = Math.min(pixFee(tx.amount, account.fees.pix), tx.amount);
  const applied = charge.split ? applySplit(charge.split, tx.amount - fee) : undefined;

  tx.paidAt = now;
  tx.updatedAt = now;
  tx.e2eId = makeE2eId(deps.settings.ispb, new Date(now), deps.ids.randomInt);
  tx.counterpartName = payer.payerName ?? PAYER_NAMES[deps.ids.randomInt(PAYER_NAMES.length)]!;
  tx.counterpartDocument = payer.payerDocument ?? generateCpf(deps.ids.randomInt);
  charge.feeAmount = fee;
  if (applied) charge.appliedSplit = applied;

  const child = (type: 'fee' | 'internal_transfer', amount: Cents, extra: Partial<Transaction>): Transaction => {
    const t: Transaction = { id: deps.ids.uuid(), walletId: wallet.id, type, status: 'completed', paymentMethod: 'pix', amount, createdAt: now, updatedAt: now, relatedTransactionId: tx.id, ...extra };
    account.transactions[t.id] = t;
    publishTransactions(deps.bus, account.id, t);
    return t;
  };
  post(account, [{ walletId: wallet.id, amount: tx.amount, transactionId: tx.id }], now, deps.ids.uuid);
  if (fee > 0) {
    const feeTx = child('fee', fee, { description: `PIX fee of ${tx.id}` });
    post(account, [{ walletId: wallet.id, amount: -fee, transactionId: feeTx.id }], now, deps.ids.uuid);
  }
  for (const leg of applied ?? []) {
    const to = walletOfSplit(account, leg.subAccount);
    const legTx = child('internal_transfer', leg.amount, { counterpartWalletId: to.id, description: `Split of ${tx.id} to ${leg.subAccount}` });
    post(account, [{ walletId: wallet.id, amount: -leg.amount, transactionId: legTx.id }, { walletId: to.id, amount: leg.amount, transactionId: legTx.id }], now, deps.ids.uuid);
  }

  recordEvent(deps, account, wallet, 'payment_completed', tx.id, {
    transactionId: tx.id,
    environment: account.environment,
    amount: tx.amount / 100,
    feeAmount: fee / 100,
    netAmount: (tx.amount - fee) / 100,
    ...(applied ? { split: applied.map((l) => ({ subAccount: l.subAccount, amount: l.amount / 100 })) } : {}),
    currency: 'BRL',
    paymentMethod: tx.paymentMethod,
    status: 'completed',
    completedAt: isoTime(now),
    ...opt('externalReference', tx.externalReference),
    e2eId: tx.e2eId,
    counterpartName: tx.counterpartName,
    counterpartDocument: tx.counterpartDocument,
    ...opt('metadata', tx.metadata),
  });
  // Whoever paid it (a link's page, /pay, the control API, autopay), a payment link or static QR counts it.
  const link = charge.paymentLinkId ? account.paymentLinks[charge.paymentLinkId] : undefined;
  if (link) recordLinkPayment(link, tx.amount, now);
  const qr = charge.staticQrId ? account.staticQrs[charge.staticQrId] : undefined;
  if (qr) qr.paymentsCount += 1;
  // A charge of the standard face is a Pix received on its key: the key's webhook (PUT /webhook/{chave}) hears of it.
  if (charge.apiPix) recordPixNotice(deps, account, tx);
  // Whoever paid it (the magic job, the control action, autopay), a magic 00000000434 charge gets its MED block later.
  if (charge.magic === 'charge_paid_then_med_block')
    deps.scheduler.schedule({ kind: MAGIC_BLOCK_JOB, dueAt: now + MAGIC_FOLLOW_UP_SECONDS * 1000, accountId: account.id, ref: tx.id });
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

/**
 * A pending charge revised by its receiver (PATCH of the standard face): a new amount, expiry or location, with its BR
 * Code made again. An expiry moved later is a new job; the old one finds the charge not yet due and does nothing.
 */
export function reviseCharge(deps: Deps, account: Account, id: string, change: { amount?: Cents; expiresAt?: number; description?: string; location?: string }): Transaction {
  const tx = chargeOf(account, id);
  if (tx.status !== 'pending') transition(TRANSACTION_TRANSITIONS, 'charge', tx.status, 'pending', 'revise');
  const charge = tx.charge!;
  if (change.amount !== undefined) tx.amount = change.amount;
  if (change.description !== undefined) tx.description = change.description;
  if (change.expiresAt !== undefined && change.expiresAt !== charge.expiresAt) {
    charge.expiresAt = change.expiresAt;
    deps.scheduler.dated(EXPIRE_JOB, tx);
  }
  const wallet = account.wallets[tx.walletId]!;
  const location = change.location ?? parseBrCodeLocation(charge.pixCopyPaste);
  charge.pixCopyPaste = buildDynamicBrCode({ location, merchantName: account.subAccounts.find((s) => s.id === wallet.id)?.name ?? account.name, merchantCity: account.city, amountCents: tx.amount });
  tx.updatedAt = nowOf(deps, account);
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

const parseBrCodeLocation = (code: string) => parseBrCode(code).merchantAccount['25']!;

/** Expiry (by the clock or the control action): cancelled, with a payment_expired event that says `expired`. */
export function expireCharge(deps: Deps, account: Account, id: string): Transaction {
  const tx = chargeOf(account, id);
  tx.status = transition(TRANSACTION_TRANSITIONS, 'charge', tx.status, 'cancelled', 'expire');
  const now = nowOf(deps, account);
  tx.updatedAt = now;
  tx.charge!.endReason = 'expired';
  recordEvent(deps, account, account.wallets[tx.walletId]!, 'payment_expired', `payment_expired_${tx.id}`, {
    transactionId: tx.id,
    environment: account.environment,
    amount: tx.amount / 100,
    feeAmount: 0,
    netAmount: 0,
    currency: 'BRL',
    paymentMethod: 'pix',
    status: 'expired',
    expiredAt: isoTime(now),
    ...opt('externalReference', tx.externalReference),
    ...opt('metadata', tx.metadata),
  });
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

/** Fail or cancel a pending charge: no money moves and no event is sent (sandbox.md 2.5). */
export function endCharge(deps: Deps, account: Account, id: string, to: 'failed' | 'cancelled', action: string): Transaction {
  const tx = chargeOf(account, id);
  tx.status = transition(TRANSACTION_TRANSITIONS, 'charge', tx.status, to, action);
  tx.updatedAt = nowOf(deps, account);
  tx.charge!.endReason = to;
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

/**
 * Expiry at expiresAt (a deadline the charge dates: no job is stored for it) and automatic payment (a job); each does
 * nothing when the charge has already moved on.
 */
export function registerChargeJobs(deps: Deps) {
  const pending = (accountId: string, id: string) => {
    const account = deps.store.findAccount(accountId);
    const tx = account?.transactions[id];
    return account && tx?.charge && tx.status === 'pending' ? account : undefined;
  };
  const expire = (account: Account | undefined, id: string) => {
    // A charge whose expiry was moved later (reviseCharge) was dated again: it waits for that date.
    if (account && account.transactions[id]!.charge!.expiresAt <= nowOf(deps, account)) expireCharge(deps, account, id);
  };
  deps.scheduler.deadlines<Transaction>(EXPIRE_JOB, {
    *scan(account) {
      for (const tx of valuesOf(account.transactions)) if (tx.charge && tx.status === 'pending') yield tx;
    },
    accountOf: (tx) => holderOf(deps.store, 'wallet', tx.walletId)?.id,
    dueAt: (tx) => (tx.status === 'pending' ? tx.charge!.expiresAt : undefined),
    run: (tx) => {
      const holder = holderOf(deps.store, 'wallet', tx.walletId);
      expire(holder && pending(holder.id, tx.id), tx.id);
    },
  });
  // Data written before charge expiries were deadlines holds a job for each; it still runs (the deadline, or this, finds
  // the charge expired already and does nothing).
  deps.scheduler.on(EXPIRE_JOB, (job) => expire(pending(job.accountId, job.ref), job.ref));
  deps.scheduler.on(AUTOPAY_JOB, (job) => {
    const account = pending(job.accountId, job.ref);
    if (account) payCharge(deps, account, job.ref);
  });
}
