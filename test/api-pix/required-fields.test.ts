// Requests as strict as the served document: for every operation of /openapi-api-pix.json that takes a JSON body, a
// valid body (checked against the document first) loses each of its required properties in turn, at every depth the
// document makes unambiguous (allOf merged; of a oneOf, the one branch the body fits), and the answer must be a 400
// problem+json naming that property, with the state untouched. Required query parameters the same way. Then each valid
// body is sent as is and accepted, so every 400 above was the missing property's. T0 is Tuesday 2026-03-10.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { startHarness, type Harness } from '../helpers/harness';
import { ajvOf, apiPix, cobBody, KEYS, payCob, pixToken, TXID } from '../helpers/api-pix';
import { approvedRec, cobrBody, createRec, recBody, sendSolicRec, solicBody } from '../helpers/api-pix-rec';
import { servedDocuments } from '../helpers/operations';

type Json = Record<string, any>;
const { pixDoc: doc } = await servedDocuments();
const ajv = ajvOf(doc);

const deref = (s: Json | undefined): Json => {
  let at = s ?? {};
  while (at.$ref) at = String(at.$ref).split('/').slice(1).reduce((o: Json, k) => o[k], doc);
  return at;
};
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Shape {
  properties: Record<string, Json>;
  required: string[];
  items?: Json;
}
/** An object schema's properties and required names through allOf; of a oneOf/anyOf, the one branch whose required names `value` has all of. */
function shapeOf(schema: Json | undefined, value: unknown): Shape {
  const s = deref(schema);
  const shape: Shape = { properties: {}, required: [...((s.required as string[]) ?? [])], ...(s.items ? { items: s.items } : {}) };
  const merge = (part: Shape) => {
    for (const [name, sub] of Object.entries(part.properties)) shape.properties[name] = shape.properties[name] ? { allOf: [shape.properties[name], sub] } : sub;
    shape.required.push(...part.required);
    if (part.items) shape.items = part.items;
  };
  merge({ properties: { ...(s.properties ?? {}) }, required: [] });
  for (const part of (s.allOf as Json[]) ?? []) merge(shapeOf(part, value));
  for (const alternatives of [s.oneOf, s.anyOf] as Array<Json[] | undefined>) {
    if (!alternatives) continue;
    const fitting = alternatives.map((b) => shapeOf(b, value)).filter((b) => isObject(value) && b.required.every((r) => r in value));
    if (fitting.length === 1) merge(fitting[0]!);
  }
  return shape;
}

/** Every required property of `value` under `schema`, as a path (calendario.expiracao, cobsv[0].txid). */
function requiredPaths(schema: Json | undefined, value: unknown, at = ''): string[] {
  const shape = shapeOf(schema, value);
  if (Array.isArray(value)) return value.length > 0 && shape.items ? requiredPaths(shape.items, value[0], `${at}[0]`) : [];
  if (!isObject(value)) return [];
  const join = (name: string) => (at ? `${at}.${name}` : name);
  const paths = [...new Set(shape.required)].map(join);
  for (const [name, v] of Object.entries(value)) if (shape.properties[name]) paths.push(...requiredPaths(shape.properties[name], v, join(name)));
  return paths;
}

/** `body` without the property at `path`. */
function without(body: Json, path: string): Json {
  const copy = structuredClone(body);
  const steps = path.split(/\.|(?=\[)/).map((s) => (s.startsWith('[') ? Number(s.slice(1, -1)) : s));
  let at: any = copy;
  for (const step of steps.slice(0, -1)) at = at[step];
  delete at[steps.at(-1)!];
  return copy;
}

/** The request body schema of `method template` in the served document, as an ajv key. */
function bodySchema(template: string, method: string): { schema: Json; key: string } {
  const op = doc.paths[template][method.toLowerCase()];
  let at = `#/paths/${template.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/requestBody`;
  let body = op.requestBody;
  if (body.$ref) {
    at = body.$ref;
    body = deref(body);
  }
  const schema = body.content['application/json'].schema;
  return { schema, key: schema.$ref ? `pix${schema.$ref}` : `pix${at}/content/application~1json/schema` };
}

// What the cases address, made in beforeAll (the shapes only need the bodies' form, so they are computed with these).
const ctx = { cobTxid: 'requiredcob000000000000000001', cobvTxid: 'requiredcobv00000000000000001', loteId: 2001, e2eid: '', recForPatch: '', solicForPatch: '', recForSolic: '', recForPut: '', recForPost: '', cobrTxid: 'requiredcobr00000000000000001' };
const DUE = '2026-03-19'; // a Thursday 9 days after T0: inside the window for creating a cobr (10 to 2 days before)
const recIn = () => recBody({ calendario: { dataInicial: DUE, periodicidade: 'MENSAL' } });
const cobvBody = (over: Json = {}) => ({
  calendario: { dataDeVencimento: '2026-03-20', validadeAposVencimento: 5 },
  devedor: { cpf: '12345678909', nome: 'Francisco da Silva', logradouro: 'Rua 1', cidade: 'Recife', uf: 'PE', cep: '50000000' },
  valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '1.00' }, abatimento: { modalidade: 1, valorPerc: '1.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-15', valorPerc: '5.00' }] } },
  chave: KEYS.cnpj,
  infoAdicionais: [{ nome: 'Pedido', valor: '1234' }],
  ...over,
});
const info = [{ nome: 'Campo 1', valor: 'x' }];

interface Case {
  template: string;
  method: string;
  path: () => string;
  body: () => Json;
  /** What must be unchanged by a refused request and show the accepted one (a GET answering 404 before, 2xx after). */
  made?: () => string;
}
const CASES: Case[] = [
  { template: '/cob/{txid}', method: 'PUT', path: () => '/cob/requiredcobput0000000000001', body: () => cobBody({ infoAdicionais: info }), made: () => '/cob/requiredcobput0000000000001' },
  { template: '/cob', method: 'POST', path: () => '/cob', body: () => cobBody({ infoAdicionais: info }) },
  { template: '/cob/{txid}', method: 'PATCH', path: () => `/cob/${ctx.cobTxid}`, body: () => ({ devedor: { cpf: '12345678909', nome: 'Francisco da Silva' }, valor: { original: '10.00' }, infoAdicionais: info }) },
  { template: '/cobv/{txid}', method: 'PUT', path: () => '/cobv/requiredcobvput000000000000001', body: () => cobvBody(), made: () => '/cobv/requiredcobvput000000000000001' },
  { template: '/cobv/{txid}', method: 'PATCH', path: () => `/cobv/${ctx.cobvTxid}`, body: () => ({ devedor: { cnpj: '11222333000181', nome: 'Empresa' }, valor: { multa: { modalidade: 1, valorPerc: '3.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-15', valorPerc: '4.00' }] } }, infoAdicionais: info }) },
  { template: '/lotecobv/{id}', method: 'PUT', path: () => '/lotecobv/2002', body: () => ({ descricao: 'Lote', cobsv: [{ ...cobvBody(), txid: 'requiredlote00000000000000002' }] }), made: () => '/lotecobv/2002' },
  { template: '/lotecobv/{id}', method: 'PATCH', path: () => `/lotecobv/${ctx.loteId}`, body: () => ({ cobsv: [{ txid: 'requiredlote00000000000000001', devedor: { cpf: '12345678909', nome: 'Francisco' }, valor: { original: '90.00', juros: { modalidade: 2, valorPerc: '1.00' } } }] }) },
  { template: '/loc', method: 'POST', path: () => '/loc', body: () => ({ tipoCob: 'cob' }) },
  { template: '/pix/{e2eid}/devolucao/{id}', method: 'PUT', path: () => `/pix/${ctx.e2eid}/devolucao/R1`, body: () => ({ valor: '1.00', natureza: 'ORIGINAL', descricao: 'Devolução' }), made: () => `/pix/${ctx.e2eid}/devolucao/R1` },
  { template: '/webhook/{chave}', method: 'PUT', path: () => `/webhook/${KEYS.evp}`, body: () => ({ webhookUrl: 'https://loja.example/pix' }), made: () => `/webhook/${KEYS.evp}` },
  { template: '/webhookrec', method: 'PUT', path: () => '/webhookrec', body: () => ({ webhookUrl: 'https://loja.example/rec' }), made: () => '/webhookrec' },
  { template: '/webhookcobr', method: 'PUT', path: () => '/webhookcobr', body: () => ({ webhookUrl: 'https://loja.example/cobr' }), made: () => '/webhookcobr' },
  { template: '/rec', method: 'POST', path: () => '/rec', body: () => recBody({ recebedor: { convenio: 'C1' }, ativacao: { dadosJornada: { txid: 'requiredjornada0000000000001' } } }) },
  { template: '/rec/{idRec}', method: 'PATCH', path: () => `/rec/${ctx.recForPatch}`, body: () => ({ vinculo: { devedor: { nome: 'Fulano Tal' } }, calendario: { dataInicial: '2026-04-02' } }) },
  { template: '/solicrec', method: 'POST', path: () => '/solicrec', body: () => solicBody(ctx.recForSolic) },
  { template: '/solicrec/{idSolicRec}', method: 'PATCH', path: () => `/solicrec/${ctx.solicForPatch}`, body: () => ({ status: 'CANCELADA' }) },
  { template: '/cobr/{txid}', method: 'PUT', path: () => '/cobr/requiredcobrput000000000000001', body: () => cobrBody(ctx.recForPut, DUE, { devedor: { email: 'a@b.example', cep: '50000000' } }), made: () => '/cobr/requiredcobrput000000000000001' },
  { template: '/cobr', method: 'POST', path: () => '/cobr', body: () => cobrBody(ctx.recForPost, DUE) },
  { template: '/cobr/{txid}', method: 'PATCH', path: () => `/cobr/${ctx.cobrTxid}`, body: () => ({ status: 'CANCELADA' }) },
];
const label = (c: Case) => `${c.method} ${c.template}`;
const DUMMY_REC = 'RR1234567820260310abcdefghijk';
const MUTATIONS = CASES.flatMap((c) => {
  const saved = { ...ctx };
  Object.assign(ctx, { e2eid: 'E12345678202603101200abcdefghijk', recForPatch: DUMMY_REC, solicForPatch: 'SC1234567820260310abcdefghijk', recForSolic: DUMMY_REC, recForPut: DUMMY_REC, recForPost: DUMMY_REC });
  const paths = requiredPaths(bodySchema(c.template, c.method).schema, c.body());
  Object.assign(ctx, saved);
  return paths.map((field) => ({ op: label(c), field, c }));
});

let h: Harness;
let token: string;
/** The whole state, to compare before and after a refused request. */
const state = () => JSON.stringify(h.sb.deps.store.state);

beforeAll(async () => {
  h = await startHarness();
  const ok = async (method: string, path: string, body: Json) => {
    const res = await apiPix(h, method, path, { body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res;
  };
  await ok('PUT', `/cob/${ctx.cobTxid}`, cobBody());
  await ok('PUT', `/cobv/${ctx.cobvTxid}`, cobvBody());
  await ok('PUT', `/lotecobv/${ctx.loteId}`, { descricao: 'Lote', cobsv: [{ ...cobvBody(), txid: 'requiredlote00000000000000001' }] });
  await h.advance(1); // the batch's charge is made
  await ok('PUT', '/cob/requiredjornada0000000000001', cobBody()); // the Jornada 3 charge of POST /rec's ativacao
  await ok('PUT', `/cob/${TXID}`, cobBody());
  await payCob(h, TXID);
  ctx.e2eid = (await apiPix(h, 'GET', `/cob/${TXID}`)).body.pix[0].endToEndId;
  ctx.recForPatch = await createRec(h);
  ctx.recForSolic = await createRec(h);
  ctx.solicForPatch = await sendSolicRec(h, await createRec(h));
  ctx.recForPut = await approvedRec(h, recIn());
  ctx.recForPost = await approvedRec(h, recIn());
  await ok('PUT', `/cobr/${ctx.cobrTxid}`, cobrBody(await approvedRec(h, recIn()), DUE));
  token = await pixToken(h);
});
afterAll(() => h.sb.close());

describe('every required property of every request body is required', () => {
  test('the table covers every operation of the served document that takes a JSON body, each valid against it', () => {
    const withBody = Object.entries(doc.paths as Record<string, Json>).flatMap(([template, item]) =>
      ['put', 'post', 'patch'].filter((m) => item[m]?.requestBody).map((m) => `${m.toUpperCase()} ${template}`),
    );
    expect(withBody.filter((op) => !CASES.some((c) => label(c) === op))).toEqual([]);
    for (const c of CASES) {
      const validate = ajv.getSchema(bodySchema(c.template, c.method).key) as ValidateFunction;
      expect(validate(c.body()), `${label(c)}: the test's body is not valid against the document: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    expect(MUTATIONS.length).toBeGreaterThan(60);
  });

  test.each(MUTATIONS)('$op without $field: 400 naming it, nothing changed', async ({ op, field, c }) => {
    const body = without(c.body(), field);
    const validate = ajv.getSchema(bodySchema(c.template, c.method).key) as ValidateFunction;
    expect(validate(body), `${op} without ${field} should be invalid against the document`).toBe(false);
    const before = state();
    const res = await apiPix(h, c.method, c.path(), { body, token });
    expect(res.status, `${op} without ${field}: ${res.text}`).toBe(400);
    expect(res.headers.get('content-type'), `${op} without ${field}`).toContain('application/problem+json');
    expect(res.text, `${op} without ${field} must name it`).toContain(field);
    expect(state() === before, `${op} without ${field} changed the state`).toBe(true);
    if (c.made) expect((await apiPix(h, 'GET', c.made(), { token })).status, `${op} without ${field} made ${c.made()}`).toBe(404);
  });

  test.each(CASES.map((c) => ({ op: label(c), c })))('$op with the whole body is accepted', async ({ op, c }) => {
    const res = await apiPix(h, c.method, c.path(), { body: c.body(), token });
    expect(res.status, `${op}: ${res.text}`).toBeLessThan(300);
    if (c.made) expect((await apiPix(h, 'GET', c.made(), { token })).status, `${op} then GET ${c.made()}`).toBe(200);
  });
});

describe('every required query parameter is required', () => {
  const PERIOD: Json = { inicio: '2026-03-01T00:00:00Z', fim: '2026-04-01T00:00:00Z' };
  const LISTS = Object.entries(doc.paths as Record<string, Json>).flatMap(([template, item]) => {
    const params = ((item.get?.parameters ?? []) as Json[]).map(deref).filter((p) => p.in === 'query' && p.required);
    return params.map((p) => ({ op: `GET ${template}`, template, field: String(p.name), all: params.map((q) => String(q.name)) }));
  });

  test('the lists take inicio and fim', () => {
    expect(LISTS.length).toBeGreaterThanOrEqual(16);
    for (const { field } of LISTS) expect(field in PERIOD, field).toBe(true);
  });

  test.each(LISTS)('$op without $field: 400 naming it', async ({ op, template, field, all }) => {
    const query = all.filter((n) => n !== field).map((n) => `${n}=${PERIOD[n]}`).join('&');
    const res = await apiPix(h, 'GET', `${template}?${query}`, { token });
    expect(res.status, `${op} without ${field}: ${res.text}`).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.text, `${op} without ${field} must name it`).toContain(field);
    const whole = await apiPix(h, 'GET', `${template}?${all.map((n) => `${n}=${PERIOD[n]}`).join('&')}`, { token });
    expect(whole.status, `${op} with every required parameter: ${whole.text}`).toBe(200);
  });
});
