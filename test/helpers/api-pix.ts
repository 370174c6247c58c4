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
