// Entity -> response JSON. Money leaves as BRL numbers, times as ISO strings; absent optional fields stay absent.
import { magicValuesOn } from '../domain/magic-rules';
import { spendable } from '../domain/claims';
import { fixedFee, toBrl, type Cents } from '../domain/money';
import { totalOf } from '../domain/ledger';
import type { Account, BalanceBlock, Credential, Delivery, Institution, PaymentLink, Project, SubAccount, Transaction, Wallet, WebhookEndpoint } from '../domain/types';
import { linkStatusAt } from '../domain/payment-links';
import { opt, extended } from '../lib/objects';
import type { Permission } from '../domain/permissions';

/** Permissions were checked against PERMISSIONS when the credential or key was made (control/schemas.ts). */
const permissionsOf = (list: string[]) => list as Permission[];
import { isoTime } from '../lib/iso';
import { rawOf } from '../store/unit';
import type { EventKind, SandboxEvent } from '../domain/events';
import { receiverAccountsOf } from '../domain/api-pix-rec';

export const iso = isoTime;
export const isoOrUndefined = (ms: number | undefined) => (ms === undefined ? undefined : iso(ms));

/** `amount` in cents, `amountFormatted` in BRL: in the service's example the first is 100 times the second. */
const money = (cents: Cents) => ({ amount: cents, amountFormatted: toBrl(cents) });

export function balanceView(wallet: Wallet) {
  return {
    available: money(wallet.balances.available),
    promotional: money(wallet.balances.promotional),
    held: money(wallet.balances.held),
    total: money(totalOf(wallet)),
    currency: 'BRL' as const,
    updatedAt: iso(wallet.updatedAt),
  };
}

export const subAccountView = (s: SubAccount) => ({
  id: s.id,
  reference: s.reference,
  name: s.name,
  status: s.status,
  createdAt: iso(s.createdAt),
});

export const projectView = (p: Project) => ({
  id: p.id,
  name: p.name,
  color: p.color,
  createdAt: iso(p.createdAt),
  updatedAt: iso(p.updatedAt),
  ...opt('description', p.description),
  ...opt('logoUrl', p.logoUrl),
});

export const credentialView = (c: Credential) => ({
  id: c.id,
  clientId: c.clientId,
  clientSecret: c.clientSecret,
  permissions: permissionsOf(c.permissions),
  subAccountAccess: c.subAccountAccess,
});

export const institutionView = (i: Institution) => ({ id: i.id, name: i.name, status: i.status, enabled: i.enabled });

export const webhookView = (w: WebhookEndpoint, withSecret: boolean) => ({
  id: w.id,
  url: w.url,
  subAccount: w.subAccount,
  events: w.events as EventKind[], // checked against EVENT_KINDS when the endpoint was made
  createdAt: iso(w.createdAt),
  ...(withSecret ? { secret: w.secret } : {}),
  ...(w.chave === undefined ? {} : { chave: w.chave }),
});

/** The control API's view of a whole account. Secrets of webhook endpoints are shown only when they are created. */
export function accountDetailView(a: Account, opts: { webhookSecrets: boolean; headerWord?: string }) {
  const wallets = [{ reference: null as string | null, wallet: a.wallets[a.id]! }, ...a.subAccounts.map((s) => ({ reference: s.reference, wallet: a.wallets[s.id]! }))];
  return {
    id: a.id,
    name: a.name,
    environment: a.environment,
    status: a.status,
    createdAt: iso(a.createdAt),
    institutionChoice: a.institutionChoice,
    strict: a.strict === true,
    fees: a.fees,
    limits: {
      withdrawalMax: a.limits.withdrawalMax === null ? null : toBrl(a.limits.withdrawalMax),
      dailyWithdrawalMax: a.limits.dailyWithdrawalMax === null ? null : toBrl(a.limits.dailyWithdrawalMax),
    },
    automation: extended(a.automation, { magicValues: magicValuesOn(a.automation) }),
    webhookRetrySchedule: a.webhookRetrySchedule,
    // reservedFees and spendable: the fees of pending refunds set aside (sandbox.md 2.8); GET /v2/account keeps the
    // service's four buckets, where available stays the ledger's sum.
    balances: wallets.map(({ reference, wallet }) => {
      const funds = spendable(a, wallet, fixedFee(a.fees.refund.fixed));
      return { subAccount: reference, walletId: wallet.id, ...balanceView(wallet), reservedFees: money(funds.reserved), spendable: money(funds.spendable) };
    }),
    credentials: a.credentials.map(credentialView),
    apiKeys: a.apiKeys.map((k) => ({ id: k.id, key: k.key, permissions: permissionsOf(k.permissions) })),
    subAccounts: a.subAccounts.map(subAccountView),
    projects: a.projects.map((p) => extended(projectView(p), { subAccount: a.wallets[p.walletId]?.reference ?? null })),
    institutions: a.institutions.map(institutionView),
    webhooks: a.webhooks.map((w) => webhookView(w, opts.webhookSecrets)),
    bankAccounts: a.bankAccounts.map((b) => ({ ...b })),
    webhookHeaderWord: a.webhookHeaderWord ?? opts.headerWord ?? 'Service',
    company: a.company ?? null,
    pixKeys: (a.pixKeys ?? []).map((k) => ({ key: k.key, type: k.type, createdAt: iso(k.createdAt) })),
    receiverAccounts: receiverAccountsOf(a),
  };
}


/** A transaction as the service shows it (service document 2.5); the optional fields are absent, never null. */
export interface TransactionBody {
  id: string;
  status: Transaction['status'];
  type: Transaction['type'];
  paymentMethod: Transaction['paymentMethod'];
  amount: number;
  currency: 'BRL';
  createdAt: string;
  description?: string;
  externalReference?: string;
  customerId?: string;
  projectId?: string;
  metadata?: Record<string, unknown>;
  pixCopyPaste?: string;
  expiresAt?: string;
  paidAt?: string;
  e2eId?: string;
  counterpartName?: string;
  counterpartDocument?: string;
  updatedAt: string;
}

/**
 * Transaction (service document 2.5): pixCopyPaste and expiresAt only while a PIX charge is pending. Read from the raw
 * record: a write's answer (a pay, a refund) is shaped inside its unit of work, where the record is a view whose every
 * property read is a trap. The optional fields are assigned in order rather than spread (`...opt()`), which made an
 * object per field on every read.
 */
export function transactionView(viewed: Transaction): TransactionBody {
  const tx = rawOf(viewed);
  const v: TransactionBody = {
    id: tx.id,
    status: tx.status,
    type: tx.type,
    paymentMethod: tx.paymentMethod,
    amount: toBrl(tx.amount),
    currency: 'BRL',
    createdAt: iso(tx.createdAt),
  } as TransactionBody; // updatedAt comes last, as in the service's answers
  if (tx.description !== undefined) v.description = tx.description;
  if (tx.externalReference !== undefined) v.externalReference = tx.externalReference;
  if (tx.customerId !== undefined) v.customerId = tx.customerId;
  if (tx.projectId !== undefined) v.projectId = tx.projectId;
  if (tx.metadata !== undefined) v.metadata = tx.metadata;
  if (tx.status === 'pending' && tx.charge) {
    v.pixCopyPaste = tx.charge.pixCopyPaste;
    v.expiresAt = iso(tx.charge.expiresAt);
  }
  if (tx.paidAt !== undefined) v.paidAt = iso(tx.paidAt);
  if (tx.e2eId !== undefined) v.e2eId = tx.e2eId;
  if (tx.counterpartName !== undefined) v.counterpartName = tx.counterpartName;
  if (tx.counterpartDocument !== undefined) v.counterpartDocument = tx.counterpartDocument;
  v.updatedAt = iso(tx.updatedAt);
  return v;
}

/** PIX charge creation response (service document 2.4); the optional fields are absent, never null. */
export interface ChargeBody {
  id: string;
  status: Transaction['status'];
  amount: number;
  currency: 'BRL';
  pixCopyPaste: string;
  qrCodeBase64?: string;
  pspPaymentId?: string;
  expiresAt: string;
  pspCredentialId?: string;
  externalReference?: string;
  createdAt: string;
  split?: { subAccount: string; amount: number }[];
}

/** The answer of a create (service document 2.4), its optional fields assigned in order as transactionView's. */
export function chargeView(tx: Transaction, qrCodeBase64: string | undefined): ChargeBody {
  const charge = tx.charge!;
  const v = { id: tx.id, status: tx.status, amount: toBrl(tx.amount), currency: 'BRL', pixCopyPaste: charge.pixCopyPaste } as ChargeBody;
  if (qrCodeBase64 !== undefined) v.qrCodeBase64 = qrCodeBase64;
  if (charge.pspPaymentId !== undefined) v.pspPaymentId = charge.pspPaymentId;
  v.expiresAt = iso(charge.expiresAt);
  if (charge.pspCredentialId !== undefined) v.pspCredentialId = charge.pspCredentialId;
  if (tx.externalReference !== undefined) v.externalReference = tx.externalReference;
  v.createdAt = iso(tx.createdAt);
  if (charge.split !== undefined) v.split = charge.split.map((l) => ({ subAccount: l.subAccount, amount: toBrl(l.amount) }));
  return v;
}

/** A recorded event for the control API: its record and the exact envelope its deliveries send. */
export const eventView = (e: SandboxEvent) => ({ id: e.id, event: e.event, eventId: e.eventId, subAccount: e.subAccount, createdAt: iso(e.createdAt), payload: JSON.parse(e.body) as Record<string, unknown> });

/** A delivery with its attempts; given the event's body, each attempt that made a request shows it (headers and exact body). */
export const deliveryView = (d: Delivery, body?: string) => ({
  id: d.id,
  event: d.event,
  eventId: d.eventId,
  subAccount: d.subAccount,
  endpoint: { id: d.endpointId, url: d.url },
  state: d.state,
  createdAt: iso(d.createdAt),
  nextAttemptAt: d.nextAttemptAt === null ? null : iso(d.nextAttemptAt),
  replayOf: d.replayOf ?? null,
  attempts: d.attempts.map((a) => ({
    at: iso(a.at),
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    error: a.error,
    ...opt('responseBody', a.responseBody),
    ...(a.requestHeaders && body !== undefined ? { request: { headers: a.requestHeaders, body } } : {}),
  })),
});

/** Refund request result (service document 2.6): the PSP status follows the refund transaction. */
export function refundResultView(tx: Transaction) {
  const refund = tx.refund!;
  return {
    originalTransactionId: tx.relatedTransactionId!,
    pspProvider: refund.pspProvider,
    pspRefundTransactionId: refund.pspRefundTransactionId,
    status: tx.status === 'completed' ? ('CONFIRMED' as const) : tx.status === 'failed' ? ('ERROR' as const) : ('PENDING' as const),
  };
}

/** Withdrawal (service document 2.7): every "or null" field is present, null until known; reversed shows as failed. */
export function withdrawalView(tx: Transaction) {
  const w = tx.withdrawal!;
  return {
    id: tx.id,
    amount: toBrl(tx.amount),
    feeAmount: toBrl(w.feeAmount),
    netAmount: toBrl(w.netAmount),
    status: w.status === 'reversed' ? ('failed' as const) : w.status,
    snapshotHolderName: w.holderName,
    snapshotHolderDocument: w.holderDocument,
    createdAt: iso(tx.createdAt),
    projectId: tx.projectId ?? null,
    snapshotPixKey: w.pixKey,
    snapshotPixKeyType: w.pixKeyType,
    failureReason: w.failureReason ?? null,
    pspReference: w.pspReference ?? null,
    processedAt: w.processedAt === undefined ? null : iso(w.processedAt),
    externalReference: tx.externalReference ?? null,
  };
}

/** Balance block (service document 2.10); resolutionReason and resolvedAt once resolved. */
export function balanceBlockView(b: BalanceBlock) {
  return {
    id: b.id,
    transactionId: b.transactionId,
    amount: toBrl(b.amount),
    status: b.status,
    blockType: b.blockType,
    referenceNumber: b.referenceNumber,
    reason: b.reason,
    createdAt: iso(b.createdAt),
    ...opt('externalReference', b.externalReference),
    ...opt('e2eId', b.e2eId),
    ...opt('resolutionReason', b.resolutionReason),
    ...opt('resolvedAt', isoOrUndefined(b.resolvedAt)),
  };
}

/** The control API's view of a block: 2.10 plus the wallet it weighs on and its chargeback transaction. */
export const balanceBlockControlView = (a: Account, b: BalanceBlock) =>
  extended(balanceBlockView(b), { subAccount: a.wallets[b.walletId]?.reference ?? null, chargebackTransactionId: b.chargebackTransactionId });

/** Payment link (the SDKs' Charge, sandbox.md 12): `url` is the sandbox's page of the link; status as the clock reads it. */
export function paymentLinkView(link: PaymentLink, now: number, baseUrl: string) {
  return {
    id: link.id,
    projectId: link.projectId,
    ...opt('customerId', link.customerId),
    name: link.name,
    ...opt('description', link.description),
    amount: toBrl(link.amount),
    currency: 'BRL' as const,
    status: linkStatusAt(link, now),
    slug: link.slug,
    url: `${baseUrl}/c/${link.slug}`,
    paymentMethods: link.paymentMethods,
    ...opt('maxInstallments', link.maxInstallments),
    notifications: link.notifications,
    allowCoupons: link.allowCoupons,
    ...opt('expiresAt', isoOrUndefined(link.expiresAt)),
    paymentsCount: link.paymentsCount,
    totalCollected: toBrl(link.totalCollected),
    createdAt: iso(link.createdAt),
    updatedAt: iso(link.updatedAt),
  };
}
