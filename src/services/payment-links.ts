// Payment links (the SDKs' /v1/charges, sandbox.md 12): a new domain object over the core. A link takes payments;
// each one is an ordinary charge of the core (createCharge, then payCharge, or paid later through /pay), carrying the
// link's id, so v2, the control API, the console, faults, webhooks and the ledger see it like any other payment.
import type { Deps } from '../deps';
import type { Caller } from '../domain/auth';
import { SandboxError, notFound, validationError } from '../domain/errors';
import type { Cents } from '../domain/money';
import { paginate } from '../domain/pagination';
import { linkStatusAt, slugBase } from '../domain/payment-links';
import { transition, PAYMENT_LINK_TRANSITIONS } from '../domain/transitions';
import type { Account, PaymentLink, PaymentLinkStatus, PaymentMethod, Transaction } from '../domain/types';
import { mainWallet } from '../domain/subaccounts';
import { opt } from '../lib/objects';
import { createCharge, payCharge, resolveProject } from './charges';
import { holderOf, noteHolder } from './holders';
import { nowOf } from './clocks';

export const LINK_EXPIRE_JOB = 'link.expire';
/** The PIX charge a link's page makes lives this long (or until the link expires, at least 300 s). */
const LINK_PIX_SECONDS = 3600;

export interface PaymentLinkInput {
  projectId: string;
  name: string;
  description?: string;
  amount: Cents;
  paymentMethods: PaymentMethod[];
  expiresAt?: number;
  customerId?: string;
  allowCoupons?: boolean;
  notifications?: string[];
  maxInstallments?: number;
}

export function createPaymentLink(deps: Deps, caller: Caller, input: PaymentLinkInput): PaymentLink {
  const { account } = caller;
  const now = nowOf(deps, caller.account);
  // Every check first: a refused link leaves nothing.
  const projectId = resolveProject(caller, input.projectId)!;
  if (input.customerId !== undefined && !account.customers.some((c) => c.id === input.customerId))
    throw notFound('CUSTOMER_NOT_FOUND', 'customer', input.customerId, 'Use an id from GET /v1/customers (or POST /v1/customers), or omit customerId.');
  if (input.expiresAt !== undefined && input.expiresAt <= now)
    throw validationError([{ field: 'expiresAt', message: `must be in the future (the sandbox clock reads ${new Date(now).toISOString()})` }]);
  const id = deps.ids.uuid();
  const slug = `${slugBase(input.name)}-${deps.ids.token(6, 'abcdefghijkmnpqrstuvwxyz23456789')}`;
  const link: PaymentLink = {
    id,
    walletId: caller.wallet.id,
    projectId,
    ...opt('customerId', input.customerId),
    name: input.name,
    ...opt('description', input.description),
    amount: input.amount,
    status: 'active',
    slug,
    paymentMethods: [...new Set(input.paymentMethods)],
    ...opt('maxInstallments', input.maxInstallments),
    notifications: input.notifications ?? [],
    allowCoupons: input.allowCoupons ?? false,
    ...opt('expiresAt', input.expiresAt),
    paymentsCount: 0,
    totalCollected: 0,
    createdAt: now,
    updatedAt: now,
  };
  account.paymentLinks[id] = link;
  noteHolder(deps.store, 'paymentLink', id, account.id);
  if (link.expiresAt !== undefined) deps.scheduler.schedule({ kind: LINK_EXPIRE_JOB, dueAt: link.expiresAt, accountId: account.id, ref: id });
  return link;
}

export interface PaymentLinkQuery {
  page: number;
  limit: number;
  search?: string | undefined;
  status?: PaymentLinkStatus | undefined;
  projectId?: string | undefined;
}

/** GET /v1/charges: newest first; search over name, description and slug; status as the clock reads it. */
export function listPaymentLinks(deps: Deps, account: Account, q: PaymentLinkQuery) {
  const now = nowOf(deps, account);
  const needle = q.search?.trim().toLowerCase();
  const found = Object.values(account.paymentLinks)
    .filter((l) => (q.status === undefined || linkStatusAt(l, now) === q.status) && (q.projectId === undefined || l.projectId === q.projectId))
    .filter((l) => !needle || [l.name, l.description ?? '', l.slug].some((t) => t.toLowerCase().includes(needle)))
    .reverse();
  return paginate(found, q.page, q.limit);
}

export function getPaymentLink(account: Account, id: string): PaymentLink {
  const link = Object.hasOwn(account.paymentLinks, id) ? account.paymentLinks[id] : undefined;
  if (!link) throw notFound('PAYMENT_LINK_NOT_FOUND', 'charge', id, 'Use an id from GET /v1/charges.');
  return link;
}

/** A link by its slug, in any account (the page /c/{slug} is not signed in). */
export function findLinkBySlug(deps: Deps, slug: string): { account: Account; link: PaymentLink } | undefined {
  for (const account of Object.values(deps.store.state.accounts)) {
    for (const link of Object.values(account.paymentLinks)) if (link.slug === slug) return { account, link };
  }
  return undefined;
}

/** A link by id in any account (the control API addresses links by id alone). */
export function locateLink(deps: Deps, id: string): { account: Account; link: PaymentLink } {
  const account = holderOf(deps.store, 'paymentLink', id);
  if (account) return { account, link: account.paymentLinks[id]! };
  throw notFound('PAYMENT_LINK_NOT_FOUND', 'charge', id, 'Use a payment link id from GET /v1/charges.');
}

/** Expiry on the clock is written down the first time anything touches the link after its expiresAt. */
function settleExpiry(deps: Deps, account: Account, link: PaymentLink): void {
  if (linkStatusAt(link, nowOf(deps, account)) === 'expired' && link.status === 'active') expireLinkNow(deps, account, link);
}

function expireLinkNow(deps: Deps, account: Account, link: PaymentLink) {
  link.status = transition(PAYMENT_LINK_TRANSITIONS, 'payment link', link.status, 'expired', 'expire');
  link.updatedAt = nowOf(deps, account);
}

function payable(deps: Deps, account: Account, link: PaymentLink, method: PaymentMethod): void {
  settleExpiry(deps, account, link);
  if (link.status !== 'active')
    throw new SandboxError('PAYMENT_LINK_NOT_PAYABLE', `This payment link is ${link.status}; only an active link takes payments.`, { resource: 'charge', id: link.id, status: link.status });
  if (!link.paymentMethods.includes(method))
    throw validationError([{ field: 'paymentMethod', message: `must be one of this link's payment methods: ${link.paymentMethods.join(', ')}` }]);
}

const linkCaller = (account: Account, link: PaymentLink): Caller => ({ account, wallet: account.wallets[link.walletId] ?? mainWallet(account), subAccount: null });

/** A pending charge of the link (its page's PIX button): paid later through its BR Code, /pay or the control API. */
export function startLinkCharge(deps: Deps, account: Account, link: PaymentLink, method: PaymentMethod = 'pix'): Transaction {
  payable(deps, account, link, method);
  const now = nowOf(deps, account);
  const untilExpiry = link.expiresAt === undefined ? LINK_PIX_SECONDS : Math.floor((link.expiresAt - now) / 1000);
  const { tx } = createCharge(deps, linkCaller(account, link), {
    amount: link.amount,
    description: link.name,
    projectId: link.projectId,
    ...opt('customerId', link.customerId),
    expiresIn: Math.max(300, Math.min(LINK_PIX_SECONDS, untilExpiry)),
    metadata: { paymentLinkId: link.id },
    paymentMethod: method,
    paymentLinkId: link.id,
  }, undefined, { paying: true });
  return tx;
}

/** Pays the link now with any of its methods (card and boleto simulated): a completed payment of the core. */
export function payPaymentLink(deps: Deps, account: Account, id: string, body: { paymentMethod?: PaymentMethod; payerName?: string; payerDocument?: string }): Transaction {
  const link = getPaymentLink(account, id);
  const tx = startLinkCharge(deps, account, link, body.paymentMethod ?? link.paymentMethods[0] ?? 'pix');
  return payCharge(deps, account, tx.id, body);
}

export function expirePaymentLink(deps: Deps, account: Account, id: string): PaymentLink {
  const link = getPaymentLink(account, id);
  expireLinkNow(deps, account, link);
  return link;
}

export function disablePaymentLink(deps: Deps, account: Account, id: string): PaymentLink {
  const link = getPaymentLink(account, id);
  settleExpiry(deps, account, link);
  link.status = transition(PAYMENT_LINK_TRANSITIONS, 'payment link', link.status, 'disabled', 'disable');
  link.updatedAt = nowOf(deps, account);
  return link;
}

export function registerPaymentLinkJobs(deps: Deps) {
  deps.scheduler.on(LINK_EXPIRE_JOB, (job) => {
    const account = deps.store.findAccount(job.accountId);
    const link = account?.paymentLinks[job.ref];
    if (account && link?.status === 'active') expireLinkNow(deps, account, link);
  });
}
