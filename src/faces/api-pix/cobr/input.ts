// The checked body of PUT and POST /cobr as the verb's input, and the families of the cobr routes.
import { textCents } from '../../../domain/api-pix';
import type { CobRInput } from '../../../services/cobrs';
import type { Family } from '../problems';
import type { z } from 'zod';
import type { CobRBody } from '../rec/schemas';

export const COBR_WRITE: Family = { invalid: 'CobROperacaoInvalida', prefix: 'cobr' };
export const COBR_READ: Family = { invalid: 'CobRConsultaInvalida' };

export function cobrInput(b: z.output<typeof CobRBody>): CobRInput {
  const input: CobRInput = { idRec: b.idRec, dataDeVencimento: b.calendario.dataDeVencimento, original: textCents(b.valor.original), ajusteDiaUtil: b.ajusteDiaUtil, recebedor: b.recebedor };
  if (b.infoAdicional !== undefined) input.infoAdicional = b.infoAdicional;
  if (b.devedor !== undefined) input.devedor = b.devedor as Record<string, string>;
  return input;
}
