// Payment links as the v1 face shows them (sandbox.md 12). A link counts its payments; one made for a customer
// (customerId) is single-use and becomes `paid` with its first. Expiry follows the sandbox clock: a link whose
// expiresAt has passed reads as expired even before its expiry job has run.
import type { Cents } from './money';
import { transition, PAYMENT_LINK_TRANSITIONS } from './transitions';
import type { PaymentLink, PaymentLinkStatus } from './types';

/** The status a link has at `now` (an active link past its expiresAt is expired). */
export function linkStatusAt(link: PaymentLink, now: number): PaymentLinkStatus {
  return link.status === 'active' && link.expiresAt !== undefined && link.expiresAt <= now ? 'expired' : link.status;
}

/** A payment of the link completed: counters rise; a single-use link is paid. */
export function recordLinkPayment(link: PaymentLink, amount: Cents, now: number): void {
  link.paymentsCount += 1;
  link.totalCollected += amount;
  link.updatedAt = now;
  if (link.customerId !== undefined && link.status === 'active') link.status = transition(PAYMENT_LINK_TRANSITIONS, 'payment link', link.status, 'paid', 'pay');
}

/** `Produto Premium 2024!` -> `produto-premium-2024`; accents stripped, at most 40 characters, never empty. */
export function slugBase(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'link';
}
