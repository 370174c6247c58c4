// Calls of the standard API Pix face for tests: a token from POST /api-pix/oauth/token (HTTP Basic, form body) and
// requests under /api-pix/v2 with it.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { DEFAULT, type ApiResponse, type CallOptions, type Harness } from './harness';

/** The default world's keys (fixtures/default.json). */
export const KEYS = { evp: '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d', cnpj: '11222333000181' } as const;
export const TXID = 'pedido1234sandboxtxid0000001';

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export async function tokenResponse(h: Harness, form: string, auth = basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret)): Promise<ApiResponse> {
  return h.api('POST', '/api-pix/oauth/token', { raw: form, contentType: 'application/x-www-form-urlencoded', headers: { authorization: auth } });
}

export async function pixToken(h: Harness, scope?: string, client: { clientId: string; clientSecret: string } = DEFAULT.full): Promise<string> {
  const res = await tokenResponse(h, `grant_type=client_credentials${scope ? `&scope=${encodeURIComponent(scope)}` : ''}`, basic(client.clientId, client.clientSecret));
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

/** A request to /api-pix/v2 with a fresh token of every scope (or `token`). */
export async function apiPix<T = any>(h: Harness, method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  return h.api(method, `/api-pix/v2${path}`, { ...opts, token: opts.token ?? (await pixToken(h)) });
}

export const cobBody = (over: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 3600 },
  devedor: { cpf: '12345678909', nome: 'Francisco da Silva' },
  valor: { original: '123.45' },
  chave: KEYS.evp,
  solicitacaoPagador: 'Serviço realizado.',
  ...over,
});

/** PUT /cob/{txid} that must succeed; returns the answer. */
export async function putCob(h: Harness, txid = TXID, body: Record<string, unknown> = cobBody()): Promise<ApiResponse> {
  const res = await apiPix(h, 'PUT', `/cob/${txid}`, { body });
  expect(res.status, res.text).toBe(201);
  return res;
}

export async function payCob(h: Harness, txid = TXID, body: Record<string, unknown> = {}): Promise<ApiResponse> {
  const res = await h.control('POST', `/api-pix/cob/${txid}/pay`, body);
  expect(res.status, res.text).toBe(200);
  return res;
}

/**
 * ajv over a served /openapi-api-pix.json as an integrator sets it up: ajv-formats and OpenAPI's own int32/int64
 * formats, the document added as 'pix' (schemas at pix#/components/schemas/Name), nothing corrected.
 */
export function ajvOf(doc: object): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: Number.isInteger });
  ajv.addSchema(doc, 'pix');
  return ajv;
}

/** An answer the document declares as application/jose: a compact JWS whose payload follows the schema given (checked where it is read). */
export const JOSE = 'application/jose';

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * The schema a document (added to `ajv` as 'pix') gives `method template` answering `status`: its $ref, a pointer to
 * the inline schema, JOSE, or '' when the answer has no body. A status the document leaves out (401, ...) is a Problema.
 */
export function answerSchemaRef(doc: any, template: string, method: string, status: number): string {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`the document has no ${method} ${template}`);
  let response = op.responses[String(status)];
  if (!response && status >= 400) return 'pix#/components/schemas/Problema';
  if (!response) throw new Error(`the document has no ${status} for ${method} ${template}`);
  let at = ['paths', template, method.toLowerCase(), 'responses', String(status)];
  if (response.$ref) {
    const name = response.$ref.split('/').pop();
    response = doc.components.responses[name];
    at = ['components', 'responses', name];
  }
  if (response.content?.[JOSE]) return JOSE;
  const type = response.content?.['application/json'] ? 'application/json' : 'application/problem+json';
  const schema = response.content?.[type]?.schema;
  if (!schema) return '';
  return schema.$ref ? `pix${schema.$ref}` : `pix#/${pointer(...at, 'content', type, 'schema')}`;
}

/** Asserts `res` is what the document says `method template` answers with its status (`ajv` holds the document as 'pix'). */
export function expectAnswerValid(doc: any, ajv: Ajv, template: string, method: string, res: ApiResponse) {
  const ref = answerSchemaRef(doc, template, method, res.status);
  if (res.status >= 400) expect(res.headers.get('content-type'), res.text).toContain('application/problem+json');
  if (ref === JOSE) {
    expect(res.headers.get('content-type'), res.text).toContain(JOSE);
    expect(res.text.split('.'), res.text).toHaveLength(3);
    return;
  }
  if (!ref) {
    expect(res.text, `${method} ${template} ${res.status} has no body in the document`).toBe('');
    return;
  }
  const validate = ajv.getSchema(ref)!;
  expect(validate(res.body), `${method} ${template} ${res.status} against ${ref}: ${ajv.errorsText(validate.errors)}\n${res.text}`).toBe(true);
}
