// Answers of the standard face, shaped as the document's schemas (CobCompleta, CobVCompleta, CobPayload,
// CobVPayload, PayloadLocationCompleta, WebhookCompleto, Paginacao) from the core's records.
import type { Deps } from '../../deps';
import { brtDay, cobStatus, dayText, dueAmounts, moneyText } from '../../domain/api-pix';
import type { Account, PayloadLoc, WebhookEndpoint } from '../../domain/types';
import { buildDynamicBrCode } from '../../pix';
import { locationOf, type CobRecord } from '../../services/cobs';
import { pixEntry } from '../../webhooks/api-pix';
import { isoTime as iso } from '../../lib/iso';
import { extended } from '../../lib/objects';
import type { DueRules } from '../../domain/types';
import { nowOf, isoOf } from '../../services/clocks';

const opt = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

export const locView = (deps: Deps, loc: PayloadLoc) => ({
  id: loc.numericId,
  ...opt('txid', loc.txid),
  location: locationOf(deps, loc),
  tipoCob: loc.tipoCob,
  criacao: iso(loc.createdAt),
});

/** The account's CNPJ (its CNPJ key), which the standard's receiver and webhook answers carry. */
export const cnpjOf = (account: Account) => account.pixKeys?.find((k) => k.type === 'cnpj')?.key;

/**
 * The receiver a cobv shows. The standard requires a street, state and postal code the sandbox's accounts do not
 * keep, so every account shows the same made-up address in its city (README: where the document is silent).
 */
export const RECEIVER_ADDRESS = { logradouro: 'Rua da Sandbox, 1', uf: 'SP', cep: '01001000' } as const;
const recebedorOf = (account: Account) => extended(opt('cnpj', cnpjOf(account)), { nome: account.name, cidade: account.city, ...RECEIVER_ADDRESS });

/** A cobv's value rules as the document shows them (the strings it was given). */
function cobvValor(due: DueRules) {
  return { original: moneyText(due.original), ...opt('multa', due.multa), ...opt('juros', due.juros), ...opt('abatimento', due.abatimento), ...opt('desconto', due.desconto) };
}

/** The BR Code of a charge as it stands now: a cobv's amount is what it costs today. */
export function copyPaste(deps: Deps, account: Account, record: CobRecord): string | undefined {
  const { tx, loc } = record;
  if (!loc) return undefined;
  const due = tx.charge!.due;
  if (!due || tx.status !== 'pending') return tx.charge!.pixCopyPaste;
  return buildDynamicBrCode({ location: locationOf(deps, loc), merchantName: account.name, merchantCity: account.city, amountCents: dueAmounts(due, brtDay(nowOf(deps, account))).final });
}

/** GET/PUT/PATCH answers of /cob and /cobv (CobCompleta, CobVCompleta). `refunds` are the payment's, for its pix entry. */
export function cobView(deps: Deps, account: Account, record: CobRecord, refunds: Parameters<typeof pixEntry>[1]) {
  const { cob, tx, loc } = record;
  const due = tx.charge!.due;
  const pixCopiaECola = copyPaste(deps, account, record);
  return {
    calendario: due
      ? { criacao: iso(cob.createdAt), dataDeVencimento: due.dataDeVencimento, validadeAposVencimento: due.validadeAposVencimento }
      : { criacao: iso(cob.createdAt), expiracao: cob.expiracao! },
    txid: cob.id,
    revisao: cob.revisao,
    ...(loc ? { loc: locView(deps, loc), location: locationOf(deps, loc) } : {}),
    status: cobStatus(tx),
    ...opt('devedor', cob.devedor),
    ...(cob.kind === 'cobv' ? { recebedor: recebedorOf(account) } : {}),
    valor: due ? cobvValor(due) : { original: moneyText(tx.amount), ...opt('modalidadeAlteracao', cob.modalidadeAlteracao) },
    chave: cob.chave,
    ...opt('solicitacaoPagador', cob.solicitacaoPagador),
    ...opt('infoAdicionais', cob.infoAdicionais),
    ...opt('pixCopiaECola', pixCopiaECola),
    ...(tx.status === 'completed' ? { pix: [pixEntry(tx, refunds)] } : {}),
  };
}

/** What a payload location answers, signed (CobPayload, CobVPayload): a cobv's value on `payDay` (today, or the DPP asked). */
export function payloadView(deps: Deps, account: Account, record: CobRecord, payDay: number) {
  const { cob, tx } = record;
  const due = tx.charge!.due;
  const common = {
    txid: cob.id,
    revisao: cob.revisao,
    status: cobStatus(tx),
    ...opt('devedor', cob.devedor && extended(cob.devedor.cpf ? { cpf: cob.devedor.cpf } : { cnpj: cob.devedor.cnpj! }, { nome: cob.devedor.nome! })),
    chave: cob.chave,
    ...opt('solicitacaoPagador', cob.solicitacaoPagador),
    ...opt('infoAdicionais', cob.infoAdicionais),
  };
  const calendario = { criacao: iso(cob.createdAt), apresentacao: isoOf(deps, account) };
  if (!due) return extended(common, { calendario: extended(calendario, { expiracao: cob.expiracao! }), valor: { original: moneyText(tx.amount), ...opt('modalidadeAlteracao', cob.modalidadeAlteracao) } });
  const v = dueAmounts(due, payDay);
  return extended(common, {
    calendario: extended(calendario, { dataDeVencimento: due.dataDeVencimento, validadeAposVencimento: due.validadeAposVencimento }),
    recebedor: recebedorOf(account),
    valor: { original: moneyText(v.original), multa: moneyText(v.multa), juros: moneyText(v.juros), abatimento: moneyText(v.abatimento), desconto: moneyText(v.desconto), final: moneyText(v.final) },
  });
}

export const webhookView = (account: Account, w: WebhookEndpoint) => ({ webhookUrl: w.url!, chave: w.chave!, ...opt('cnpj', cnpjOf(account)), criacao: iso(w.createdAt) });

/** One page of a list and its paginacao (pages from 0; at least one page, even when empty). */
export function paginate<T>(items: T[], query: { 'paginacao.paginaAtual'?: number; 'paginacao.itensPorPagina'?: number }) {
  const paginaAtual = query['paginacao.paginaAtual'] ?? 0;
  const itensPorPagina = query['paginacao.itensPorPagina'] ?? 100;
  return {
    page: items.slice(paginaAtual * itensPorPagina, (paginaAtual + 1) * itensPorPagina),
    paginacao: { paginaAtual, itensPorPagina, quantidadeDePaginas: Math.max(1, Math.ceil(items.length / itensPorPagina)), quantidadeTotalDeItens: items.length },
  };
}

export { dayText };
