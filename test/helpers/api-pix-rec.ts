// Pix Automático for tests: bodies of the document's examples, a recurrence taken to APROVADA through the payer's
// control API, and a validator of answers against the document's own schemas (docs/standards/, ajv), with the
// document's slips on these schemas corrected and named (ERRATA), nothing else relaxed.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { expect } from 'vitest';
import type { ApiResponse, Harness } from './harness';
import { apiPix } from './api-pix';

const doc = parse(readFileSync(new URL('../../docs/standards/bacen-pix-api-2.9.0.openapi.yaml', import.meta.url), 'utf8'));
const schemas = doc.components.schemas;
export const REC_ERRATA: Array<[string, () => void]> = [
  ['cpf patterns are written with JS slashes ("/^\\d{11}$/"), which match no string', () => {
    schemas.PessoaFisicaRecorrencia.properties.cpf.pattern = '^\\d{11}$';
    for (const p of ['ParametrosConsultaRec', 'ParametrosConsultaCobR']) schemas[p].properties.cpf.pattern = '^\\d{11}$';
    schemas.CPF.properties.cpf.pattern = '^\\d{11}$';
  }],
  ['RecBase requires `retentativa`, a property defined nowhere (the policy is politicaRetentativa, which RecConfiguracao requires)', () => {
    schemas.RecBase.required = ['idRec', 'calendario', 'vinculo'];
  }],
  ["DadosPagadorRec's required ispbParticipante sits beside `pagador`, not inside it", () => delete schemas.DadosPagadorRec.required],
  ["RecNotification requires 'atualizacao\"' (a stray quote)", () => (schemas.RecNotification.required = ['idRec', 'status', 'atualizacao'])],
  ['SolicRecCompleta requires `rec`, and SolicRecBase `pagador`, properties defined nowhere (they are recPayload and destinatario)', () => {
    schemas.SolicRecCompleta.required = ['recPayload'];
    schemas.SolicRecBase.required = ['calendario', 'idRec', 'destinatario'];
  }],
  ['the two ways an encerramento ends (rejeicao, cancelamento) are a oneOf of objects that require neither, so every encerramento matches both and fails', () => {
    for (const encerramento of [schemas.RecEncerramento.properties.encerramento, schemas.CobRAtualizacao.properties.encerramento])
      for (const branch of encerramento.oneOf) branch.required = Object.keys(branch.properties);
  }],
  ['PayloadLocationRecGerada requires `tipo`, which it does not define (and its examples do not carry)', () => (schemas.PayloadLocationRecGerada.required = ['id', 'location', 'criacao'])],
  ["PixAutomatico's valor is a string that must also match one of five objects (anyOf PixValorOriginal...), which no value can", () => delete schemas.PixAutomatico.properties.valor.anyOf],
];
for (const [, fix] of REC_ERRATA) fix();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: Number.isInteger });
ajv.addFormat('uri', (s: string) => URL.canParse(s) || URL.canParse(`https://${s}`));
ajv.addSchema(doc, 'pix');

/** The schema the document gives `method template` answering `status` ('' when it has no body). */
function schemaRef(template: string, method: string, status: number): string {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`the document has no ${method} ${template}`);
  let response = op.responses[String(status)];
  if (!response && status >= 400) return 'pix#/components/schemas/Problema';
  if (!response) throw new Error(`the document has no ${status} for ${method} ${template}`);
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  const content = response.content?.['application/json'] ?? response.content?.['application/problem+json'];
  if (content?.schema?.$ref) return `pix${content.schema.$ref}`;
  if (content?.schema) {
    const id = `inline-${method}${template}-${status}`.replace(/[^a-zA-Z0-9-]/g, '-');
    if (!ajv.getSchema(id)) ajv.addSchema({ $id: id, ...JSON.parse(JSON.stringify(content.schema).replaceAll('"#/components', '"pix#/components')) });
    return id;
  }
  return '';
}

/** Asserts an answer is what the document says `method template` answers with its status. */
export function expectDocumented(template: string, method: string, res: ApiResponse) {
  const ref = schemaRef(template, method, res.status);
  if (res.status >= 400) expect(res.headers.get('content-type'), res.text).toContain('application/problem+json');
  if (!ref) return expect(res.text, `${method} ${template} ${res.status} has no body in the document`).toBe('');
  const validate = ajv.getSchema(ref)!;
  expect(validate(res.body), `${method} ${template} ${res.status} against ${ref}: ${ajv.errorsText(validate.errors)}\n${res.text}`).toBe(true);
}

/** Validates a payload against a named schema of the document. */
export function expectSchema(name: string, value: unknown) {
  const validate = ajv.getSchema(`pix#/components/schemas/${name}`)!;
  expect(validate(value), `${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`).toBe(true);
}

/** A request to the face, validated against the document. */
export async function documented(h: Harness, template: string, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const res = await apiPix(h, method, path, body === undefined ? {} : { body });
  expectDocumented(template, method, res);
  return res;
}

/** T0 is 2026-03-10 (Brasília); a monthly recurrence from April. */
export const recBody = (over: Record<string, unknown> = {}) => ({
  vinculo: { contrato: '63100862', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' }, objeto: 'Streaming de música' },
  calendario: { dataInicial: '2026-04-01', periodicidade: 'MENSAL' },
  valor: { valorRec: '35.00' },
  politicaRetentativa: 'PERMITE_3R_7D',
  ...over,
});

export const solicBody = (idRec: string, over: Record<string, unknown> = {}) => ({
  idRec,
  calendario: { dataExpiracaoSolicitacao: '2026-03-20T12:00:00Z' },
  destinatario: { cpf: '45164632481', conta: '550689', agencia: '2569', ispbParticipante: '91193552' },
  ...over,
});

export async function createRec(h: Harness, body: Record<string, unknown> = recBody()): Promise<string> {
  const res = await apiPix(h, 'POST', '/rec', { body });
  expect(res.status, res.text).toBe(201);
  return res.body.idRec as string;
}

export async function sendSolicRec(h: Harness, idRec: string, over: Record<string, unknown> = {}): Promise<string> {
  const res = await apiPix(h, 'POST', '/solicrec', { body: solicBody(idRec, over) });
  expect(res.status, res.text).toBe(201);
  return res.body.idSolicRec as string;
}

/** A recurrence created, sent to its payer and accepted through the control API: APROVADA. */
export async function approvedRec(h: Harness, body: Record<string, unknown> = recBody()): Promise<string> {
  const idRec = await createRec(h, body);
  const id = await sendSolicRec(h, idRec);
  const res = await h.control('POST', `/api-pix/solicrec/${id}/accept`);
  expect(res.status, res.text).toBe(200);
  return idRec;
}

export const cobrBody = (idRec: string, dataDeVencimento: string, over: Record<string, unknown> = {}) => ({
  idRec,
  calendario: { dataDeVencimento },
  valor: { original: '35.00' },
  ajusteDiaUtil: true,
  infoAdicional: 'Mensalidade',
  ...over,
});
