// Pix Automático for tests: bodies of the document's examples, a recurrence taken to APROVADA through the payer's
// control API, and a validator of answers against the document the sandbox serves (/openapi-api-pix.json, its errata
// corrected in scripts/api-pix-errata.mjs), read by ajv as an integrator reads it: nothing corrected here.
import { expect } from 'vitest';
import { startHarness, type ApiResponse, type Harness } from './harness';
import { ajvOf, apiPix, expectAnswerValid } from './api-pix';

const served = await startHarness();
const doc = (await served.api('GET', '/openapi-api-pix.json')).body;
await served.sb.close();
const ajv = ajvOf(doc);

/** Asserts an answer is what the served document says `method template` answers with its status. */
export const expectDocumented = (template: string, method: string, res: ApiResponse) => expectAnswerValid(doc, ajv, template, method, res);

/** Validates a payload against a named schema of the served document. */
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

/** Moves the sandbox clock to `iso`. */
export async function at(h: Harness, iso: string) {
  const res = await h.control('PUT', '/clock', { now: iso });
  expect(res.status, res.text).toBe(200);
}

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

/** The default world's receiver account (its id's digits, branch 0001), as GET /_sandbox/accounts/{id} lists it. */
export const DEFAULT_RECEIVER = { conta: '11111111111141118111', agencia: '0001', tipoConta: 'PAGAMENTO' } as const;

export const cobrBody = (idRec: string, dataDeVencimento: string, over: Record<string, unknown> = {}) => ({
  idRec,
  calendario: { dataDeVencimento },
  valor: { original: '35.00' },
  ajusteDiaUtil: true,
  recebedor: DEFAULT_RECEIVER,
  infoAdicional: 'Mensalidade',
  ...over,
});

/** A webhook delivery the harness made: where it was POSTed and its parsed body. */
export type Posted = { url: string; body: any };
/** A harness whose webhook deliveries are recorded in `posted` instead of sent (every one answered 200). */
export async function harnessRecordingPosts(): Promise<{ h: Harness; posted: Posted[] }> {
  const posted: Posted[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    posted.push({ url, body: JSON.parse(String(init.body)) });
    return new Response('ok', { status: 200 });
  }) as unknown as typeof globalThis.fetch;
  return { h: await startHarness({ fetch }), posted };
}
