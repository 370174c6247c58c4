// A CPF or CNPJ as the service takes it (sandbox.md 13): the right shape, whatever its check digits. Wrong check
// digits are accepted, as the service's hosted sandbox accepts them (the PHP SDK's own suite sends 12345678900), and
// named in a warning (sandbox.md 14), so a client learns that no real payer has that document.
import { checkDigitsProblem, documentKind } from '../pix';
import { quotedForHeader } from '../lib/header-text';
import { warn } from '../lib/warnings';

/** A refinement for a document field named `field`: true for the right shape; a warning when its check digits are wrong. */
export const serviceDocument =
  (field: string, kind?: 'cpf' | 'cnpj') =>
  (doc: string): boolean => {
    const found = documentKind(doc);
    if (found === undefined || (kind !== undefined && found !== kind)) return false;
    warnCheckDigits(field, doc);
    return true;
  };

/** The warning of a document field the caller already checked the shape of, if its check digits are wrong. */
export function warnCheckDigits(field: string, doc: string): void {
  const problem = checkDigitsProblem(doc);
  if (problem) warn(`${field} ${quotedForHeader(doc)} ${problem}; accepted, as the service accepts it`);
}
