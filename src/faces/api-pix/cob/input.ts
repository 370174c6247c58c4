// The checked bodies of PUT/POST/PATCH /cob and /cobv as the verbs' input (money to cents, a cobv's calendar and rules).
import { textCents, TXID } from '../../../domain/api-pix';
import type { Deps } from '../../../deps';
import type { Account } from '../../../domain/types';
import { type CobInput, type CobKind, type CobPatch, type CobRecord } from '../../../services/cobs';
import { refundsByPayment } from '../../../webhooks/api-pix';
import type { ApiPixEnv } from '../env';
import type { Family } from '../problems';
import { invalid, type CobBody, type CobPatchBody, type CobVBody, type CobVPatchBody } from '../schemas';
import type { Context } from 'hono';
import type { z } from 'zod';
import { cobView } from '../views';
import { extended } from '../../../lib/objects';

export const writeFamily = (kind: CobKind): Family => ({ invalid: kind === 'cob' ? 'CobOperacaoInvalida' : 'CobVOperacaoInvalida', prefix: kind });
export const readFamily = (kind: CobKind): Family => ({ invalid: kind === 'cob' ? 'CobConsultaInvalida' : 'CobVConsultaInvalida' });

type AnyBody = z.output<typeof CobBody> | z.output<typeof CobVBody> | z.output<typeof CobPatchBody> | z.output<typeof CobVPatchBody>;

/** The fields a body gives, as the verbs take them (absent fields stay absent, so a PATCH changes only those). */
export function cobInput(body: AnyBody): Partial<CobInput> {
  const b = body as Partial<z.output<typeof CobVBody>> & Partial<z.output<typeof CobBody>>;
  const valor = b.valor as Record<string, unknown> | undefined;
  const calendario = b.calendario as Record<string, unknown> | undefined;
  const out: Partial<CobInput> = {};
  if (b.chave !== undefined) out.chave = b.chave;
  if (valor?.original !== undefined) out.original = textCents(valor.original as string);
  if (valor?.modalidadeAlteracao !== undefined) out.modalidadeAlteracao = valor.modalidadeAlteracao as number;
  if (calendario?.expiracao !== undefined) out.expiracao = calendario.expiracao as number;
  if (b.devedor !== undefined) out.devedor = b.devedor as Record<string, string>;
  if (b.solicitacaoPagador !== undefined) out.solicitacaoPagador = b.solicitacaoPagador;
  if (b.infoAdicionais !== undefined) out.infoAdicionais = b.infoAdicionais;
  if (b.loc !== undefined) out.locId = b.loc.id;
  const due: Record<string, unknown> = {};
  for (const key of ['dataDeVencimento', 'validadeAposVencimento'] as const) if (calendario?.[key] !== undefined) due[key] = calendario[key];
  for (const key of ['multa', 'juros', 'abatimento', 'desconto'] as const) if (valor?.[key] !== undefined) due[key] = valor[key];
  if (Object.keys(due).length > 0) out.due = due as unknown as CobInput['due'];
  return out;
}

/** A PATCH body as reviseCob takes it: its fields, and the removal when it sends status. */
export const patchInput = (body: z.output<typeof CobPatchBody> | z.output<typeof CobVPatchBody>): CobPatch => ({ ...cobInput(body), ...(body.status ? { remove: true } : {}) });

/** A new cobv's calendar with its default validity (30 days after the due date). */
export function withDefaults(kind: CobKind, input: Partial<CobInput>): CobInput {
  if (kind === 'cobv') input.due = extended(input.due!, { validadeAposVencimento: input.due?.validadeAposVencimento ?? 30 });
  return input as CobInput;
}

export function checkTxid(txid: string, family: Family) {
  if (!TXID.test(txid)) throw invalid(family, [{ razao: `${family.prefix}.txid must be 26 to 35 letters and digits ([a-zA-Z0-9]{26,35})`, propriedade: `${family.prefix}.txid`, valor: txid }]);
}

/** The answer of a cob operation, with the core charge's id in a header (the control API and console address it). */
export function answerCob(c: Context<ApiPixEnv>, deps: Deps, account: Account, record: CobRecord, status: 200 | 201) {
  const refunds = refundsByPayment(account).get(record.tx.id) ?? [];
  c.header('X-Sandbox-Transaction-Id', record.tx.id);
  return c.json(cobView(deps, account, record, refunds), status);
}

export type { CobPatch };
