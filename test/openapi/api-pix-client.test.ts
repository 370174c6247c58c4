// /openapi-api-pix.json in a bank integrator's toolchain: openapi-typescript generates the types, a consumer written
// against them with openapi-fetch compiles under --strict in a directory of its own (typing a cobv's location and
// loc.txid, a batch of cobv, and the payload location under {api_pix}), and the same client, pointed at the server the document names
// and the token URL it gives, makes and reads charges whose every answer ajv validates against the served document.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { ajvOf, basic, KEYS } from '../helpers/api-pix';
import { typeErrors, type Json } from './document';

let h: Harness;
let dir: string;
let doc: Json;

beforeAll(async () => {
  h = await startHarness();
  doc = (await h.api('GET', '/openapi-api-pix.json')).body as Json;
  dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-api-pix-client-'));
  symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'), 'dir');
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.sb.close();
});

const CONSUMER = `
import createClient from 'openapi-fetch';
import type { paths } from './api';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4747/api-pix/v2' });

export async function dueCharge(txid: string): Promise<{ location: string; locTxid: string; cpf: string | undefined }> {
  const { data, error } = await client.PUT('/cobv/{txid}', {
    params: { path: { txid } },
    body: {
      calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 2 },
      devedor: { cpf: '12345678909', nome: 'Francisco da Silva' },
      valor: { original: '100.00' },
      chave: '11222333000181',
    },
  });
  if (error || !data) throw new Error(String(error?.detail));
  return { location: data.location, locTxid: data.loc?.txid ?? '', cpf: 'cpf' in (data.devedor ?? {}) ? (data.devedor as { cpf?: string }).cpf : undefined };
}

export async function payload(pixUrlAccessToken: string): Promise<string | undefined> {
  const { data } = await client.GET('/qr/cobv/{pixUrlAccessToken}', { params: { path: { pixUrlAccessToken } }, parseAs: 'text' });
  return data;
}

export async function received(inicio: string, fim: string): Promise<number> {
  const { data } = await client.GET('/pix', { params: { query: { inicio, fim } } });
  return data?.pix?.length ?? 0;
}

export async function batch(id: string, txids: string[]): Promise<Array<'EM_PROCESSAMENTO' | 'CRIADA' | 'NEGADA'>> {
  await client.PUT('/lotecobv/{id}', {
    params: { path: { id } },
    body: { descricao: 'Mensalidades', cobsv: txids.map((txid) => ({ txid, calendario: { dataDeVencimento: '2026-04-10', validadeAposVencimento: 30 }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original: '10.00' }, chave: '11222333000181' })) },
  });
  const { data } = await client.GET('/lotecobv/{id}', { params: { path: { id } } });
  return data?.cobsv.map((c) => c.status) ?? [];
}

// @ts-expect-error the payload location is not a charge's path
export const wrong = () => client.GET('/cobv/{pixUrlAccessToken}', { params: { path: { pixUrlAccessToken: 'x' } } });
`;

test('a consumer of the generated types and openapi-fetch compiles under --strict', { timeout: 120_000 }, async () => {
  writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(JSON.parse(JSON.stringify(doc)))));
  writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
  const diagnostics = typeErrors(join(dir, 'consumer.ts'), {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    skipLibCheck: true,
    types: [],
  });
  expect(diagnostics, diagnostics.join('\n')).toEqual([]);
});

test("openapi-fetch on the document's server and token URL: every answer validates with ajv", async () => {
  const ajv = ajvOf(doc);
  const valid = (name: string, body: unknown) => {
    const validate = ajv.getSchema(`pix#/components/schemas/${name}`)!;
    expect(validate(body), `${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
  };
  const fetch = (request: Request) => Promise.resolve(h.sb.app.request(request));

  const tokenUrl = doc.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl as string;
  const granted = await fetch(new Request(tokenUrl, { method: 'POST', headers: { authorization: basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret), 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }));
  expect(granted.status).toBe(200);
  const { access_token } = (await granted.json()) as { access_token: string };
  const client = createClient<any>({ baseUrl: doc.servers[0].url, fetch, headers: { authorization: `Bearer ${access_token}` } });

  const txid = 'clientecobv00000000000000000001';
  const made = await client.PUT('/cobv/{txid}', {
    params: { path: { txid } },
    body: { calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 2 }, devedor: { cpf: '12345678909', nome: 'Francisco da Silva' }, valor: { original: '100.00' }, chave: KEYS.cnpj },
  });
  expect(made.response.status, JSON.stringify(made.error)).toBe(201);
  valid('CobVCompleta', made.data);
  expect(made.data.loc.txid).toBe(txid);
  const cob = await client.PUT('/cob/{txid}', { params: { path: { txid: 'clientecob000000000000000000001' } }, body: { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: KEYS.evp, devedor: { cpf: '12345678909', nome: 'Fulano' } } });
  valid('CobCompleta', cob.data);
  for (const [path, name] of [['/cob', 'CobsConsultadas'], ['/cobv', 'CobsVConsultadas'], ['/pix', 'PixConsultados']] as const) {
    const list = await client.GET(path, { params: { query: { inicio: '2026-03-01T00:00:00Z', fim: '2026-04-01T00:00:00Z' } } });
    expect(list.response.status, JSON.stringify(list.error)).toBe(200);
    valid(name, list.data);
  }
  const jws = await client.GET('/qr/cobv/{pixUrlAccessToken}', { params: { path: { pixUrlAccessToken: made.data.location.split('/').pop() } }, parseAs: 'text' });
  expect(jws.response.headers.get('content-type')).toContain('application/jose');
  const payload = JSON.parse(Buffer.from((jws.data as string).split('.')[1]!, 'base64url').toString('utf8'));
  valid('CobVPayload', payload);
  expect(payload.txid).toBe(txid);
});
