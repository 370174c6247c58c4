// Customers are the payers that an account's charges named: one record per person (same document, else same
// email). A charge's customerId names its record. Records belong to the account (main wallet and sub-accounts alike),
// which is also the scope of the v1 customer list (API keys are account-level).
import type { Deps } from '../deps';
import { paginate } from '../domain/pagination';
import { customerMatches, maskDocument } from '../domain/customers';
import { conflict } from '../domain/errors';
import { opt } from '../lib/objects';
import type { Account, Customer } from '../domain/types';
import { nowOf } from './clocks';

export interface CustomerInput {
  name?: string;
  document?: string;
  email?: string;
  phone?: string;
}

export function upsertCustomer(deps: Deps, account: Account, input: CustomerInput): Customer | undefined {
  const document = input.document?.trim() || undefined;
  const email = input.email?.trim().toLowerCase() || undefined;
  if (!document && !email && !input.name && !input.phone) return undefined;
  // Same document: same person. Else same email, unless both records carry different documents.
  let customer = document ? account.customers.find((c) => c.document === document) : undefined;
  if (!customer && email) customer = account.customers.find((c) => c.email?.toLowerCase() === email && (!document || !c.document));
  const now = nowOf(deps, account);
  if (!customer) {
    customer = { id: deps.ids.uuid(), createdAt: now, updatedAt: now };
    account.customers.push(customer);
  }
  // The newest charge's details win for the fields it gives.
  if (input.name) customer.name = input.name;
  if (document) customer.document = document;
  if (input.email) customer.email = input.email.trim();
  if (input.phone) customer.phone = input.phone;
  customer.updatedAt = now;
  return customer;
}

export interface CustomerQuery {
  page: number;
  limit: number;
  search?: string | undefined;
}

/** GET /v1/customers: newest first (createdAt descending; equal times in reverse order of creation), paginated. */
export function listCustomers(account: Account, q: CustomerQuery) {
  const found = account.customers
    .map((customer, index) => ({ customer, index }))
    .filter(({ customer }) => q.search === undefined || customerMatches(customer, q.search))
    .sort((a, b) => b.customer.createdAt - a.customer.createdAt || b.index - a.index)
    .map(({ customer }) => customer);
  return paginate(found, q.page, q.limit);
}

/** CPF (11 digits) or CNPJ (14 characters), by length: the documents a customer record may hold. */
export const documentTypeOf = (document: string): 'cpf' | 'cnpj' => (document.length === 14 ? 'cnpj' : 'cpf');

/** POST /v1/customers: a new record; a document the account already has is a 409 naming it (masked). */
export function createCustomer(deps: Deps, account: Account, input: { name: string; document: string; email?: string; phone?: string }): Customer {
  if (account.customers.some((c) => c.document === input.document))
    throw conflict('CUSTOMER_DOCUMENT_TAKEN', 'customer', 'document', maskDocument(input.document), 'A customer with this document already exists; find it with GET /v1/customers?search=<document> and use its id.');
  const now = nowOf(deps, account);
  const customer: Customer = { id: deps.ids.uuid(), name: input.name, document: input.document, ...opt('email', input.email), ...opt('phone', input.phone), createdAt: now, updatedAt: now };
  account.customers.push(customer);
  return customer;
}
