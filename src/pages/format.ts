// Small shapers shared by the pages (console, checkout, /pay): money and the status words a customer reads.
import type { CustomerStatus } from '../services/checkout';

/** Integer cents as Brazilian reais: 2590 -> "R$ 25,90". */
export const brl = (cents: number) => (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' }).replace(/\u00a0/g, ' ');

export const STATUS_LABEL: Record<CustomerStatus, string> = {
  pending: 'Waiting for payment',
  paid: 'Paid',
  expired: 'Expired',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
