// Small shapers shared by the pages (console, checkout, /pay): money and the status words a customer reads.
import type { CustomerStatus } from '../services/checkout';
import { brlAmount } from '../lib/brl';

/** Integer cents as Brazilian reais: 2590 -> "R$ 25,90" (the one rule: lib/brl's brlAmount). */
export const brl = brlAmount;

export const STATUS_LABEL: Record<CustomerStatus, string> = {
  pending: 'Waiting for payment',
  paid: 'Paid',
  expired: 'Expired',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
