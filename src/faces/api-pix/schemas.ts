// Requests of the standard face, checked as the document's schemas say (bacen/pix-api 2.9.0, docs/standards/), with
// the document's field rules turned into violacoes that name the property (cob.valor.original) and say what to send.
import type { Context } from 'hono';
import { z } from 'zod';
import { COB_STATUSES, MONEY_TEXT, TXID } from '../../domain/api-pix';
import { serviceDocument } from '../../wire/documents';
import { warnUnreachable } from '../../wire/webhook-urls';
import { answerUnknownFields, checkedWithWarnings, type UnknownFieldPolicy } from '../../wire/validate';
import { unknownFieldMessage, type UnknownField } from '../../wire/unknown-fields';
import { Problem, type Family, type Violacao } from './problems';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, pathBeyond } from '../../lib/json-limits';
import { CLOCK_RANGE_TEXT, DAY_RANGE_TEXT, inClockRange, inDayRange } from '../../lib/clock';


export const money = (what = 'an amount') => z.string({ error: `must be ${what} as a string with 2 decimals, like "10.00"` }).regex(MONEY_TEXT, { error: `must be ${what} as a string with 2 decimals, like "10.00"` });
export const positiveMoney = (what: string) => money(what).refine((v) => Number(v) > 0, { error: 'must be more than zero' });
const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && inDayRange(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
export const date = () => z.string({ error: 'must be a date YYYY-MM-DD' }).refine(isDate, { error: `must be a date YYYY-MM-DD from ${DAY_RANGE_TEXT}, like 2026-04-01` });

// The payer's document as the service takes it: any check digits, wrong ones named in a warning (sandbox.md 13).
const cpf = z.string().regex(/^\d{11}$/, { error: 'must be 11 digits' }).refine(serviceDocument('devedor.cpf', 'cpf'), { error: 'must be a CPF: 11 digits, like 12345678909' });
const cnpj = z.string().regex(/^[0-9A-Z]{14}$/, { error: 'must be 14 digits or uppercase letters' }).refine(serviceDocument('devedor.cnpj', 'cnpj'), { error: 'must be a CNPJ: 12 digits or uppercase letters and 2 digits, like 11222333000181' });
const nome = z.string({ error: 'is required (at most 200 characters)' }).min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' });
// The document's oneOf PessoaFisica/PessoaJuridica: exactly one of cpf and cnpj. With neither, both are named (the
// client may have meant either); with both, cpf.
const oneDocument = (d: { cpf?: string | undefined; cnpj?: string | undefined }, ctx: z.RefinementCtx) => {
  if (d.cpf !== undefined && d.cnpj !== undefined) ctx.addIssue({ code: 'custom', path: ['cpf'], message: 'cannot be given with cnpj: send one of them' });
  if (d.cpf === undefined && d.cnpj === undefined) {
    ctx.addIssue({ code: 'custom', path: ['cpf'], message: "is required unless cnpj is given: the payer's CPF, 11 digits" });
    ctx.addIssue({ code: 'custom', path: ['cnpj'], message: "is required unless cpf is given: the payer's CNPJ, 14 digits or uppercase letters" });
  }
};

export const Devedor = z.object({ cpf: cpf.optional(), cnpj: cnpj.optional(), nome }).superRefine(oneDocument);
const DevedorV = z
  .object({
    cpf: cpf.optional(),
    cnpj: cnpj.optional(),
    nome,
    email: z.string().max(200).optional(),
    logradouro: z.string().max(200).optional(),
    cidade: z.string().max(200).optional(),
    uf: z.string().length(2, { error: 'must be 2 letters, like SP' }).optional(),
    cep: z.string().regex(/^\d{8}$/, { error: 'must be 8 digits' }).optional(),
  })
  .superRefine(oneDocument);

const Loc = z.object({ id: z.number({ error: 'must be the id of a payload location (POST /loc)' }).int().positive() });
const chave = z.string({ error: 'is required: a PIX key of the account' }).min(1).max(77, { error: 'must be at most 77 characters' });
const InfoAdicionais = z.array(z.object({ nome: z.string().max(50, { error: 'must be at most 50 characters' }), valor: z.string().max(200, { error: 'must be at most 200 characters' }) })).max(50, { error: 'must have at most 50 items' });
const solicitacaoPagador = z.string().max(140, { error: 'must be at most 140 characters' });
const notEmulated = (what: string) => z.unknown().refine(() => false, { error: `${what} is not emulated by this sandbox; remove it` });

const CobValor = z.object({
  original: positiveMoney('the value'),
  modalidadeAlteracao: z.number().int().min(0).max(1, { error: 'must be 0 or 1' }).optional(),
  retirada: notEmulated('valor.retirada (Pix Saque and Pix Troco)').optional(),
});
const Calendario = z.object({ expiracao: z.number({ error: 'must be a whole number of seconds' }).int({ error: 'must be a whole number of seconds' }).positive({ error: 'must be more than zero seconds' }).max(2_147_483_647).optional() });

/** What cob and cobv share (CobBase and loc); a PATCH may give any of it, and a status that removes the charge. */
const common = { loc: Loc.optional(), solicitacaoPagador: solicitacaoPagador.optional(), infoAdicionais: InfoAdicionais.optional() };
const patchOnly = { chave: chave.optional(), status: z.enum(['REMOVIDA_PELO_USUARIO_RECEBEDOR'], { error: 'can only be REMOVIDA_PELO_USUARIO_RECEBEDOR' }).optional() };

// calendario is required by the document (CobSolicitada) even when it is empty: {} takes expiracao's default, 86400 s.
export const CobBody = z.object({ ...common, calendario: z.object(Calendario.shape, { error: 'is required: {expiracao?} (an empty object takes the default, 86400 seconds)' }), devedor: Devedor.optional(), valor: CobValor, chave });
export const CobPatchBody = z.object({ ...common, ...patchOnly, calendario: Calendario.optional(), devedor: Devedor.optional(), valor: CobValor.partial().optional() });

const modality = (max: number) => z.number({ error: `must be a modalidade from 1 to ${max}` }).int().min(1, { error: `must be from 1 to ${max}` }).max(max, { error: `must be from 1 to ${max}` });
const ValorPerc = (max: number) => z.object({ modalidade: modality(max), valorPerc: money('a value or percentage') });
const Desconto = z.object({
  modalidade: modality(6),
  valorPerc: money('a value or percentage').optional(),
  descontoDataFixa: z.array(z.object({ data: date(), valorPerc: money('a value or percentage') })).min(1).max(3, { error: 'must have 1 to 3 items' }).optional(),
});
const CobVValor = z.object({ original: positiveMoney('the value'), multa: ValorPerc(2).optional(), juros: ValorPerc(8).optional(), abatimento: ValorPerc(2).optional(), desconto: Desconto.optional() });
const CalendarioV = z.object({
  dataDeVencimento: date(),
  validadeAposVencimento: z.number({ error: 'must be a whole number of days' }).int().min(0, { error: 'must not be negative' }).max(3650).optional(),
});

export const CobVBody = z.object({ ...common, calendario: CalendarioV, devedor: DevedorV, valor: CobVValor, chave });
export const CobVPatchBody = z.object({ ...common, ...patchOnly, calendario: CalendarioV.partial().optional(), devedor: DevedorV.optional(), valor: CobVValor.partial().optional() });

/** lotecobv: the batch's charges, each a cobv request (PUT: whole, PATCH: a revision) with its txid. */
const loteTxid = z.string({ error: 'is required: the txid of the charge, 26 to 35 letters and digits' }).regex(TXID, { error: 'must be 26 to 35 letters and digits ([a-zA-Z0-9]{26,35})' });
const descricao = z.string({ error: 'is required: a description of the batch' }).max(140, { error: 'must be at most 140 characters' });
export const LoteCobVBody = z.object({
  descricao,
  cobsv: z.array(CobVBody.extend({ txid: loteTxid }), { error: "is required: the batch's charges, each a cobv request with its txid" }).min(1, { error: 'must have at least one charge' }).max(1000, { error: 'must have at most 1000 charges; split them into several batches' }),
});
export const LoteCobVPatchBody = z.object({
  descricao: descricao.optional(),
  cobsv: z.array(CobVPatchBody.extend({ txid: loteTxid }), { error: "must be a list of the batch's charges to revise, each with its txid" }).max(1000, { error: 'must have at most 1000 charges' }).optional(),
});

export const LocBody = z.object({ tipoCob: z.enum(['cob', 'cobv'], { error: "must be 'cob' or 'cobv'" }) });
export const DevolucaoBody = z.object({
  valor: positiveMoney('the value to return'),
  natureza: z.enum(['ORIGINAL', 'RETIRADA'], { error: "must be 'ORIGINAL' (or 'RETIRADA', not emulated)" }).optional(),
  descricao: z.string().max(140, { error: 'must be at most 140 characters' }).optional(),
});
export const WebhookBody = z.object({
  webhookUrl: z.string({ error: 'is required: the URL that receives the Pix notices (at {webhookUrl}/pix)' }).refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), { error: 'must be an http(s) URL, like https://example.com/webhook' }).refine(warnUnreachable('webhookUrl')),
});

/** zod issues as violacoes: the property with the family's prefix, and what to send instead. */
function violacoesOf(error: z.ZodError, prefix: string | undefined, data: unknown): Violacao[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    const propriedade = `${prefix ?? ''}${prefix ? path : path.slice(1)}` || (prefix ?? 'body');
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    let valor: unknown = data;
    for (const p of issue.path) valor = valor && typeof valor === 'object' ? (valor as Record<string | number, unknown>)[p as string] : undefined;
    return { razao: `${propriedade} ${message}`, propriedade, ...(valor === undefined || typeof valor === 'object' ? {} : { valor: String(valor) }) };
  });
}

export const invalid = (family: Family, violacoes: Violacao[]) =>
  new Problem(family.invalid, 400, `The request does not follow the document's schema: ${violacoes.map((v) => v.razao).join('; ')}.`, violacoes);

export function check<T extends z.ZodType>(schema: T, data: unknown, family: Family): z.output<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw invalid(family, violacoesOf(result.error, family.prefix, data));
  return result.data;
}

/** A JSON body (at most 512 KiB, an object), checked against `schema`. */
export async function body<T extends z.ZodType>(c: Context, schema: T, family: Family): Promise<z.output<T>> {
  const declared = Number(c.req.header('content-length') ?? 0);
  const text = declared > MAX_BODY_BYTES ? '' : await c.req.text();
  if (declared > MAX_BODY_BYTES || Buffer.byteLength(text) > MAX_BODY_BYTES) throw new Problem('RequisicaoInvalida', 400, `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB; send a smaller JSON object.`);
  let data: unknown = {};
  if (text.trim() !== '') {
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Problem('RequisicaoInvalida', 400, `The request body is not valid JSON (${(err as Error).message}); send a JSON object with Content-Type: application/json.`);
    }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Problem('RequisicaoInvalida', 400, 'The request body must be a JSON object.');
  // The same depth limit as the other faces (sandbox.md 11), before anything reads it.
  if (pathBeyond(data, MAX_JSON_DEPTH)) throw new Problem('RequisicaoInvalida', 400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays; send the document's flat shape.`);
  return checkedWithWarnings(c, () => {
    const result = schema.safeParse(data);
    const unknown = answerUnknownFields(c, policyOf(family), schema, data, !result.success);
    if (!result.success) throw invalid(family, [...violacoesOf(result.error, family.prefix, data), ...unknownViolacoes(family, unknown)]);
    return result.data as z.output<T>;
  });
}

const unknownViolacoes = (family: Family, fields: UnknownField[] = []): Violacao[] =>
  fields.map((f) => {
    const propriedade = family.prefix ? `${family.prefix}.${f.field}` : f.field;
    return { razao: `${propriedade} ${unknownFieldMessage(f)}`, propriedade };
  });

// Unknown fields of a body (sandbox.md 14): warned of, or under --strict and for a strict tenant violacoes of the
// route's family. One policy per family, made at its first unknown field.
const policies = new WeakMap<Family, UnknownFieldPolicy>();
function policyOf(family: Family): UnknownFieldPolicy {
  let policy = policies.get(family);
  if (!policy) {
    policy = {
      mode: (c) => (c.get('strictFields') === true ? 'refuse' : 'warn'),
      refuse(fields) {
        throw invalid(family, unknownViolacoes(family, fields));
      },
    };
    policies.set(family, policy);
  }
  return policy;
}

export const dateTime = (name: string) =>
  z
    .string({ error: `is required: an RFC 3339 date-time, like 2026-03-01T00:00:00Z` })
    .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)), { error: `must be an RFC 3339 date-time, like 2026-03-01T00:00:00Z (${name})`, abort: true })
    // An offset can carry 9999-12-31 into year 10000, so the instant is checked, not the text.
    .refine((v) => inClockRange(Date.parse(v)), { error: `must be an instant from ${CLOCK_RANGE_TEXT} (${name})` });
export const bool = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
export const nat = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number from ${min}` })
    .transform(Number)
    .refine((v) => v >= min && v <= max, { error: `must be from ${min} to ${max}` });

/** The query of the list operations: period, filters and paginacao.* (paginaAtual from 0, itensPorPagina 1-1000, default 100). */
export const ListQuery = z
  .object({
    inicio: dateTime('inicio'),
    fim: dateTime('fim'),
    cpf: z.string().regex(/^\d{11}$/, { error: 'must be 11 digits' }).optional(),
    cnpj: z.string().regex(/^[0-9A-Z]{14}$/, { error: 'must be 14 digits or uppercase letters' }).optional(),
    status: z.enum(COB_STATUSES, { error: `must be one of ${COB_STATUSES.join(', ')}` }).optional(),
    locationPresente: bool.optional(),
    txid: z.string().regex(/^[a-zA-Z0-9]{1,35}$/, { error: 'must be 1 to 35 letters and digits' }).optional(),
    txIdPresente: bool.optional(),
    devolucaoPresente: bool.optional(),
    tipoCob: z.enum(['cob', 'cobv'], { error: "must be 'cob' or 'cobv'" }).optional(),
    'paginacao.paginaAtual': nat(0, 1_000_000).optional(),
    'paginacao.itensPorPagina': nat(1, 1000).optional(),
  })
  .refine((q) => Date.parse(q.fim) >= Date.parse(q.inicio), { error: 'must not be before inicio', path: ['fim'] })
  .refine((q) => q.cpf === undefined || q.cnpj === undefined, { error: 'cannot be used together with cnpj', path: ['cpf'] });
export type ListQueryValue = z.output<typeof ListQuery>;

/** The batch list takes the period and paginacao. */
export const LoteListQuery = z
  .object({ inicio: dateTime('inicio'), fim: dateTime('fim'), 'paginacao.paginaAtual': nat(0, 1_000_000).optional(), 'paginacao.itensPorPagina': nat(1, 1000).optional() })
  .refine((q) => Date.parse(q.fim) >= Date.parse(q.inicio), { error: 'must not be before inicio', path: ['fim'] });

/** The webhook list takes only the period (optional) and paginacao. */
export const WebhookListQuery = z.object({
  inicio: dateTime('inicio').optional(),
  fim: dateTime('fim').optional(),
  'paginacao.paginaAtual': nat(0, 1_000_000).optional(),
  'paginacao.itensPorPagina': nat(1, 1000).optional(),
});
