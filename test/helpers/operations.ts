// The operations of the served OpenAPI documents (/openapi.json: v2, v1 and the control API; /openapi-api-pix.json),
// made into requests a test can send: path parameters filled from their examples, and each face's credential.
import { DEFAULT, startHarness, type Harness } from './harness';
import { basic, TXID } from './api-pix';

export type Json = Record<string, any>;
export type Face = 'v2' | 'v1' | 'api-pix' | 'control';

/** Both documents, as a fresh sandbox serves them. */
export async function servedDocuments(): Promise<{ doc: Json; pixDoc: Json }> {
  const h = await startHarness({}, 'process');
  const doc = (await h.api('GET', '/openapi.json')).body as Json;
  const pixDoc = (await h.api('GET', '/openapi-api-pix.json')).body as Json;
  await h.sb.close();
  return { doc, pixDoc };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export const operationsOf = (doc: Json, methods: readonly string[] = METHODS) =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) => methods.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, op: item[m] as Json })));

const exampleOf = (p: Json) => p.example ?? p.schema?.example;
/** Values of the API Pix path parameters, which its document gives no example: the fixtures' txid, a batch id, ids. */
const PIX_PARAMS: Record<string, string> = { txid: TXID, id: '1001', e2eid: 'E12345678202603101200abcdefghijk', chave: '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d' };

/**
 * The path with each parameter's example (declared on the operation or on its path, possibly as a $ref, as the API Pix
 * document does), else a stand-in.
 */
export function filledPath(doc: Json, path: string, op: Json): string {
  const params = [...((doc.paths[path]?.parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])].map((p) => (p.$ref ? doc.components.parameters[String(p.$ref).split('/').pop()!] : p) as Json);
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const declared = params.find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(String((declared && exampleOf(declared)) ?? PIX_PARAMS[name] ?? 'x'));
  });
}

export const faceOf = (path: string): Face => (path.startsWith('/v2/') ? 'v2' : path.startsWith('/v1/') ? 'v1' : path.startsWith('/api-pix/') ? 'api-pix' : 'control');

/** The face's credential as request headers, fetched afresh (the clock may have moved): none for the token calls. */
export async function credentialOf(h: Harness, path: string): Promise<Record<string, string>> {
  const face = faceOf(path);
  if (path === '/v2/auth' || path === '/api-pix/oauth/token' || face === 'control') return {};
  if (face === 'v1') return { 'x-api-key': DEFAULT.apiKey };
  if (face === 'v2') return { authorization: `Bearer ${await h.token()}` };
  const t = await h.api('POST', '/api-pix/oauth/token', { raw: 'grant_type=client_credentials', contentType: 'application/x-www-form-urlencoded', headers: { authorization: basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret) } });
  return { authorization: `Bearer ${t.body.access_token}` };
}
