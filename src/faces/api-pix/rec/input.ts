// The checked bodies of POST and PATCH /rec as the verbs' input (money to cents), and the families of the rec routes.
import { textCents } from '../../../domain/api-pix';
import type { RecInput, RecPatch } from '../../../services/recs';
import type { Family } from '../problems';
import type { z } from 'zod';
import type { RecBody, RecPatchBody } from './schemas';

export const REC_WRITE: Family = { invalid: 'RecOperacaoInvalida', prefix: 'rec' };
export const REC_READ: Family = { invalid: 'RecConsultaInvalida' };

export function recInput(b: z.output<typeof RecBody>): RecInput {
  const input: RecInput = { vinculo: b.vinculo as RecInput['vinculo'], calendario: b.calendario as RecInput['calendario'], politicaRetentativa: b.politicaRetentativa };
  if (b.valor?.valorRec !== undefined) input.valorRec = textCents(b.valor.valorRec);
  if (b.valor?.valorMinimoRecebedor !== undefined) input.valorMinimoRecebedor = textCents(b.valor.valorMinimoRecebedor);
  if (b.recebedor?.convenio !== undefined) input.convenio = b.recebedor.convenio;
  if (b.loc !== undefined) input.locId = b.loc;
  if (b.ativacao?.dadosJornada?.txid !== undefined) input.txidJornada = b.ativacao.dadosJornada.txid;
  return input;
}

export function recPatch(b: z.output<typeof RecPatchBody>): RecPatch {
  const patch: RecPatch = {};
  if (b.status !== undefined) patch.cancel = true;
  if (b.loc !== undefined) patch.locId = b.loc;
  if (b.calendario?.dataInicial !== undefined) patch.dataInicial = b.calendario.dataInicial;
  if (b.vinculo?.devedor?.nome !== undefined) patch.devedorNome = b.vinculo.devedor.nome;
  if (b.ativacao?.dadosJornada?.txid !== undefined) patch.txidJornada = b.ativacao.dadosJornada.txid;
  return patch;
}
