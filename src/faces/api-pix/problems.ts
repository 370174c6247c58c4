// The one place that turns failures of the standard face into its answers: application/problem+json (RFC 7807) with
// the document's type URIs (https://pix.bcb.gov.br/api/v2/error/<Name>), title, status, detail and, for field errors,
// violacoes naming the property. Each route says which family its 400s belong to (CobOperacaoInvalida,
// PixConsultaInvalida...); the core's codes map to the document's names here, so no verb knows this face.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { SandboxError } from '../../domain/errors';

export const PROBLEM_BASE = 'https://pix.bcb.gov.br/api/v2/error/';

const TITLES: Record<string, string> = {
  RequisicaoInvalida: 'Requisição inválida.',
  AcessoNegado: 'Acesso Negado',
  NaoEncontrado: 'Não Encontrado',
  // Not names of the document, which lists no type for 401 (AcessoNegado is its 403, for an authenticated caller) nor
  // for a method a path does not take: the sandbox's own, in the same form (docs/api-pix.md, docs/reference.md).
  NaoAutenticado: 'Não autenticado.',
  MetodoNaoPermitido: 'Método não permitido.',
  ErroInternoDoServidor: 'Erro interno do servidor.',
  ServicoIndisponivel: 'Serviço Indisponível',
  CobOperacaoInvalida: 'Cobrança inválida.',
  CobVOperacaoInvalida: 'Cobrança inválida.',
  CobConsultaInvalida: 'Consulta inválida.',
  CobVConsultaInvalida: 'Consulta inválida.',
  CobNaoEncontrado: 'Cobrança não encontrada.',
  CobVNaoEncontrada: 'Cobrança não encontrada.',
  CobPayloadNaoEncontrado: 'Cobrança não encontrada.',
  CobPayloadOperacaoInvalida: 'Operação inválida.',
  PayloadLocationOperacaoInvalida: 'PayloadLocation inválido.',
  PayloadLocationConsultaInvalida: 'Consulta inválida.',
  PayloadLocationNaoEncontrado: 'Location não encontrada.',
  PixNaoEncontrado: 'Pix não encontrado.',
  PixConsultaInvalida: 'Consulta inválida.',
  PixDevolucaoInvalida: 'Devolução inválida.',
  PixDevolucaoNaoEncontrada: 'Devolução não encontrada.',
  WebhookOperacaoInvalida: 'Webhook inválido.',
  LoteCobVOperacaoInvalida: 'Lote de cobranças inválido.',
  LoteCobVConsultaInvalida: 'Consulta inválida.',
  LoteCobVNaoEncontrado: 'Lote não encontrado.',
  WebhookNaoEncontrado: 'Webhook não encontrado.',
  RecNaoEncontrada: 'Recorrência não encontrada.',
  RecOperacaoInvalida: 'Operação inválida.',
  RecConsultaInvalida: 'Consulta inválida.',
  RecPayloadNaoEncontrado: 'Recorrência não encontrada.',
  RecPayloadOperacaoInvalida: 'Operação inválida.',
  SolicRecNaoEncontrada: 'Solicitação não encontrada.',
  SolicRecOperacaoInvalida: 'Operação inválida.',
  CobRNaoEncontrado: 'Cobrança não encontrada.',
  CobROperacaoInvalida: 'Operação inválida.',
  CobRConsultaInvalida: 'Consulta inválida.',
  PayloadLocationRecNaoEncontrado: 'Location não encontrada.',
  PayloadLocationRecConsultaInvalida: 'Consulta inválida.',
  WebhookRecOperacaoInvalida: 'Webhook inválido.',
  WebhookCobROperacaoInvalida: 'Webhook inválido.',
};
export type ProblemName = keyof typeof TITLES;

export interface Violacao {
  razao: string;
  propriedade: string;
  valor?: string;
}

/** A failure already in the standard's words. */
export class Problem extends Error {
  constructor(
    readonly problem: ProblemName,
    readonly status: number,
    readonly detail: string,
    readonly violacoes?: Violacao[],
  ) {
    super(detail);
  }
}

export const problemBody = (p: Problem) => ({
  type: `${PROBLEM_BASE}${p.problem}`,
  title: TITLES[p.problem] ?? p.problem,
  status: p.status,
  detail: p.detail,
  ...(p.violacoes?.length ? { violacoes: p.violacoes } : {}),
});

/** The family of a route's 400s, and how its fields are prefixed in violacoes (cob.valor.original). */
export interface Family {
  invalid: ProblemName;
  prefix?: string;
}

/** 404 names by the core's code (a cob or cobv by the resource it names). */
function notFoundName(err: SandboxError): ProblemName {
  switch (err.code) {
    case 'COB_NOT_FOUND':
      return err.details.resource === 'cobv' ? 'CobVNaoEncontrada' : 'CobNaoEncontrado';
    case 'PAYLOAD_LOCATION_NOT_FOUND':
      return 'PayloadLocationNaoEncontrado';
    case 'PIX_NOT_FOUND':
      return 'PixNaoEncontrado';
    case 'DEVOLUCAO_NOT_FOUND':
      return 'PixDevolucaoNaoEncontrada';
    case 'NOT_FOUND':
      return err.details.resource === 'lotecobv' ? 'LoteCobVNaoEncontrado' : 'NaoEncontrado';
    case 'REC_NOT_FOUND':
      return 'RecNaoEncontrada';
    case 'SOLICREC_NOT_FOUND':
      return 'SolicRecNaoEncontrada';
    case 'COBR_NOT_FOUND':
      return 'CobRNaoEncontrado';
    case 'PAYLOAD_LOCATION_REC_NOT_FOUND':
      return 'PayloadLocationRecNaoEncontrado';
    default:
      return 'NaoEncontrado';
  }
}

/** Anything thrown on this face as a Problem; unknown errors are logged and become ErroInternoDoServidor. */
export function toProblem(err: unknown, family: Family, log: (line: string) => void): Problem {
  if (err instanceof Problem) return err;
  if (!(err instanceof SandboxError)) {
    log(`unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return new Problem('ErroInternoDoServidor', 500, 'Unexpected error inside the sandbox. This is a bug in pix-sandbox; please report it.');
  }
  const status = err.status;
  if (status === 404) return new Problem(notFoundName(err), 404, err.message);
  if (status === 401 || status === 403) return new Problem(status === 401 ? 'NaoAutenticado' : 'AcessoNegado', status, err.message);
  // A full store (--max-records) keeps its 507 as on the other faces: the document has no name for it, and
  // ServicoIndisponivel is what it is to a client (this PSP makes nothing new until room is made).
  if (status >= 500) return new Problem(status === 500 ? 'ErroInternoDoServidor' : 'ServicoIndisponivel', status === 507 ? 507 : status >= 503 ? 503 : status, err.message);
  const fields = (err.details.fields as Array<{ field: string; message: string }> | undefined) ?? [];
  const prefixed = (f: string) => (family.prefix && !f.startsWith(`${family.prefix}.`) && !f.startsWith(`${family.prefix}[`) && f !== family.prefix ? `${family.prefix}.${f}` : f);
  const violacoes = fields.map((f) => ({ razao: `${prefixed(f.field)} ${f.message}`, propriedade: prefixed(f.field) }));
  const detail = fields.length ? `The request does not follow the document's schema or rules: ${violacoes.map((v) => v.razao).join('; ')}.` : err.message;
  return new Problem(family.invalid, 400, detail, violacoes);
}

export function sendProblem(c: Context, p: Problem) {
  const headers: Record<string, string> = { 'Content-Type': 'application/problem+json' };
  if (p.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="api-pix"';
  if (p.status === 503) headers['Retry-After'] = '1';
  return c.body(JSON.stringify(problemBody(p)), p.status as ContentfulStatusCode, headers);
}
