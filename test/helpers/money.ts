// Helpers for the money tests (refunds, withdrawals, balance blocks): paid charges, balances read through the API,
// events, and a snapshot of everything that moves, to assert that a refused request moved nothing.
import { expect } from 'vitest';
import { DEFAULT, type Harness } from './harness';

export const VALID_CPF = '52998224725';
export const VALID_CNPJ = '11222333000181';
export const VALID_ALNUM_CNPJ = '12ABC34501DE35';

/** Creates a charge and pays it (control action pay); returns its id. */
export async function paidCharge(h: Harness, body: Record<string, unknown> = {}, subAccount?: string): Promise<string> {
  const created = await h.v2('POST', '/pix', { body: { amount: 100, description: 'order', ...body }, ...(subAccount ? { subAccount } : {}) });
  expect(created.status, created.text).toBe(201);
  const paid = await h.control('POST', `/transactions/${created.body.id}/pay`, { payerName: 'Maria Silva', payerDocument: VALID_CPF });
  expect(paid.status, paid.text).toBe(200);
  return created.body.id as string;
}

export interface WalletBalance {
  available: number;
  held: number;
  promotional: number;
  total: number;
}

/** A wallet's balance in BRL, through GET /v2/account. */
export async function balanceOf(h: Harness, subAccount?: string): Promise<WalletBalance> {
  const res = await h.v2('GET', '/account', subAccount ? { subAccount } : {});
  expect(res.status, res.text).toBe(200);
  const b = res.body.balance;
  return { available: b.available.amountFormatted, held: b.held.amountFormatted, promotional: b.promotional.amountFormatted, total: b.total.amountFormatted };
}

export const brl = (n: number) => Math.round(n * 100) / 100;

export async function eventsOf(h: Harness, event?: string): Promise<any[]> {
  const res = await h.control('GET', `/accounts/${DEFAULT.accountId}/events${event ? `?event=${event}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

/** Everything a request could move: balances of every wallet, transactions, ledger, events, jobs, blocks. */
export function snapshot(h: Harness) {
  const account = h.sb.deps.store.account(DEFAULT.accountId);
  return structuredClone({
    balances: Object.fromEntries(Object.values(account.wallets).map((w) => [w.reference ?? 'main', w.balances])),
    transactions: Object.keys(account.transactions).length,
    ledger: account.ledger.length,
    events: account.events.length,
    jobs: Object.keys(h.sb.deps.store.state.jobs).length,
    blocks: Object.keys(account.balanceBlocks).length,
  });
}

/** The store's copy of the account (for ids the API does not show, like a refund's fee transaction). */
export const accountOf = (h: Harness) => h.sb.deps.store.account(DEFAULT.accountId);

/** The refund transaction id named by the Location header of a refund answer. */
export const refundIdOf = (res: { headers: Headers }) => res.headers.get('location')!.replace('/v2/transactions/', '');
