// Customer records as the v1 API shows and finds them. Masking keeps the first 3 and the last 2 characters of a
// document and puts one asterisk in place of each character between, so the length (CPF 11, CNPJ 14) still shows
// which kind of document it is. Search is case- and accent-insensitive and reads the document unmasked.
import type { Customer } from './types';

const KEEP_START = 3;
const KEEP_END = 2;

/** `52998224725` -> `529******25`; a value too short to keep anything is all asterisks. */
export function maskDocument(document: string): string {
  if (document.length <= KEEP_START + KEEP_END) return '*'.repeat(document.length);
  return document.slice(0, KEEP_START) + '*'.repeat(document.length - KEEP_START - KEEP_END) + document.slice(-KEEP_END);
}

/** Lower case, accents stripped, runs of white space as one space: `  JOÃO  da Silva` -> `joao da silva`. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The search term as document characters: punctuation and spaces removed (`529.982.247-25` -> `52998224725`). */
const documentNeedle = (search: string) => search.replace(/[\s./-]/g, '').toLowerCase();

/** Does a free-text search find this customer? Name, email, or the unmasked document; an empty search finds all. */
export function customerMatches(customer: Customer, search: string): boolean {
  const needle = foldText(search);
  if (needle === '') return true;
  if (customer.name !== undefined && foldText(customer.name).includes(needle)) return true;
  if (customer.email !== undefined && foldText(customer.email).includes(needle)) return true;
  const doc = documentNeedle(search);
  return doc !== '' && /^[0-9a-z]+$/.test(doc) && customer.document !== undefined && customer.document.toLowerCase().includes(doc);
}
