// Sixty-odd wrong requests to the standard API Pix face and what each answer says (sandbox.md 14), in the face's
// problem+json: unknown fields warned of (or, strict, violacoes naming them and the field meant), wrong types as
// violacoes, wrong methods 405 with Allow, near paths 404 naming the operation meant, another face's credential named.
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { cobBody, KEYS, pixToken } from '../helpers/api-pix';
import { label, warning, warningsOf, type Wrong } from './table';

const V2 = '/api-pix/v2';
let n = 0;
const txid = () => `tabletypo${String(++n).padStart(20, '0')}`;
const cobv = (over: Record<string, unknown> = {}) => ({
  calendario: { dataDeVencimento: '2026-04-01' },
  devedor: { cpf: '12345678909', nome: 'Francisco da Silva' },
  valor: { original: '123.45' },
  chave: KEYS.evp,
  ...over,
});
const typo = (method: string, path: string | (() => string), body: unknown, field: string, suggestion?: string, status = 201) =>
  ({ kind: 'typo', method, path: typeof path === 'string' ? path : path(), body, field, suggestion, status }) as Wrong;
const cob = (over: Record<string, unknown>) => cobBody(over);

// prettier-ignore
const TYPOS: Wrong[] = [
  typo('POST', `${V2}/cob`, { calendario: { expiracao: 60 }, valor: { original: '1.00' }, chavee: KEYS.evp }, 'chavee', 'chave', 400), // chave is required
  typo('POST', `${V2}/cob`, cob({ calendario: { expiracaoo: 60 } }), 'calendario.expiracaoo', 'calendario.expiracao'),
  typo('POST', `${V2}/cob`, cob({ calendaro: { expiracao: 60 } }), 'calendaro', 'calendario'),
  typo('POST', `${V2}/cob`, cob({ devedor: { cpf: '12345678909', nome: 'F', nomee: 'F' } }), 'devedor.nomee', 'devedor.nome'),
  typo('POST', `${V2}/cob`, cob({ devedor: { cpf: '12345678909', nome: 'F', cpff: '1' } }), 'devedor.cpff', 'devedor.cpf'),
  typo('POST', `${V2}/cob`, cob({ valor: { original: '1.00', originall: '2.00' } }), 'valor.originall', 'valor.original'),
  typo('POST', `${V2}/cob`, cob({ valor: { original: '1.00', modalidadeAlteracaoo: 1 } }), 'valor.modalidadeAlteracaoo', 'valor.modalidadeAlteracao'),
  typo('POST', `${V2}/cob`, cob({ chavee: KEYS.evp }), 'chavee', 'chave'),
  typo('POST', `${V2}/cob`, cob({ solicitacaoPagadr: 'x' }), 'solicitacaoPagadr', 'solicitacaoPagador'),
  typo('POST', `${V2}/cob`, cob({ infoAdicional: [] }), 'infoAdicional', 'infoAdicionais'),
  typo('POST', `${V2}/cob`, cob({ infoAdicionais: [{ nome: 'a', valor: 'b', valr: 'c' }] }), 'infoAdicionais[0].valr', 'infoAdicionais[0].valor'),
  typo('POST', `${V2}/cob`, cob({ xyzxyz: 1 }), 'xyzxyz'),
  typo('PUT', () => `${V2}/cob/${txid()}`, cob({ valor: { original: '1.00', origial: '1.00' } }), 'valor.origial', 'valor.original'),
  typo('PUT', () => `${V2}/cobv/${txid()}`, cobv({ calendario: { dataDeVencimento: '2026-04-01', dataDeVencimentoo: '2026-04-02' } }), 'calendario.dataDeVencimentoo', 'calendario.dataDeVencimento'),
  typo('PUT', () => `${V2}/cobv/${txid()}`, cobv({ valor: { original: '1.00', multaa: { modalidade: 1, valorPerc: '1.00' } } }), 'valor.multaa', 'valor.multa'),
  typo('PUT', () => `${V2}/cobv/${txid()}`, cobv({ devedor: { cpf: '12345678909', nome: 'F', logradoro: 'Rua' } }), 'devedor.logradoro', 'devedor.logradouro'),
  typo('PUT', () => `${V2}/cobv/${txid()}`, cobv({ devedor: { cpf: '12345678909', nome: 'F', emial: 'a@b.co' } }), 'devedor.emial', 'devedor.email'),
  typo('PUT', () => `${V2}/cobv/${txid()}`, cobv({ valor: { original: '10.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-20', valorPerc: '1.00', dat: 'x' }] } } }), 'valor.desconto.descontoDataFixa[0].dat', 'valor.desconto.descontoDataFixa[0].data'),
  typo('POST', `${V2}/loc`, { tipoCob: 'cob', tipoCobb: 'cob' }, 'tipoCobb', 'tipoCob'),
  typo('PUT', `${V2}/webhook/${KEYS.evp}`, { webhookUrl: 'https://example.com/hook', webhookURL: 'x' }, 'webhookURL', 'webhookUrl', 200),
  typo('PUT', `${V2}/webhook/${KEYS.evp}`, { webhookUrl: 'https://example.com/hook', url: 'x' }, 'url', undefined, 200),
];

// prettier-ignore
const OTHERS: Wrong[] = [
  { kind: 'type', method: 'POST', path: `${V2}/cob`, body: cob({ valor: { original: 123 } }), field: 'valor.original' },
  { kind: 'type', method: 'POST', path: `${V2}/cob`, body: cob({ calendario: { expiracao: 'x' } }), field: 'calendario.expiracao' },
  { kind: 'type', method: 'POST', path: `${V2}/cob`, body: cob({ devedor: 'x' }), field: 'devedor' },
  { kind: 'type', method: 'POST', path: `${V2}/cob`, body: cob({ chave: 5 }), field: 'chave' },
  { kind: 'type', method: 'POST', path: `${V2}/cob`, body: cob({ infoAdicionais: {} }), field: 'infoAdicionais' },
  { kind: 'type', method: 'POST', path: `${V2}/cob`, body: cob({ devedor: { cpf: 123, nome: 'F' } }), field: 'devedor.cpf' },
  { kind: 'type', method: 'POST', path: `${V2}/loc`, body: { tipoCob: 'x' }, field: 'tipoCob' },
  { kind: 'type', method: 'PUT', path: `${V2}/webhook/${KEYS.evp}`, body: { webhookUrl: 5 }, field: 'webhookUrl' },
  { kind: 'type', method: 'PUT', path: `${V2}/cobv/tabletypetxid00000000000001`, body: cobv({ calendario: { dataDeVencimento: 20260401 } }), field: 'calendario.dataDeVencimento' },
  { kind: 'method', method: 'DELETE', path: `${V2}/cob`, allow: 'GET, HEAD, POST' },
  { kind: 'method', method: 'DELETE', path: `${V2}/loc`, allow: 'GET, HEAD, POST' },
  { kind: 'method', method: 'POST', path: `${V2}/pix`, allow: 'GET, HEAD' },
  { kind: 'method', method: 'DELETE', path: `${V2}/cob/tabletypetxid00000000000001`, allow: 'GET, HEAD, PATCH, PUT' },
  { kind: 'method', method: 'POST', path: `${V2}/webhook/${KEYS.evp}`, allow: 'DELETE, GET, HEAD, PUT' },
  { kind: 'method', method: 'GET', path: '/api-pix/oauth/token', allow: 'POST' },
  { kind: 'method', method: 'POST', path: `${V2}/webhook`, allow: 'GET, HEAD' },
  { kind: 'path', method: 'POST', path: `${V2}/cobb`, suggestion: 'POST /api-pix/v2/cob' },
  { kind: 'path', method: 'GET', path: `${V2}/cobs`, suggestion: 'GET /api-pix/v2/cob' },
  { kind: 'path', method: 'POST', path: `${V2}/locc`, suggestion: 'POST /api-pix/v2/loc' },
  { kind: 'path', method: 'GET', path: `${V2}/pixx`, suggestion: 'GET /api-pix/v2/pix' },
  { kind: 'path', method: 'PUT', path: `${V2}/webhok/${KEYS.evp}`, suggestion: 'PUT /api-pix/v2/webhook/{chave}' },
  { kind: 'path', method: 'POST', path: '/api-pix/oauth/tokn', suggestion: 'POST /api-pix/oauth/token' },
  { kind: 'path', method: 'POST', path: '/api-pix/v3/cob', suggestion: 'POST /api-pix/v2/cob' },
  { kind: 'path', method: 'PUT', path: `${V2}/cobv/x/y`, suggestion: 'PUT /api-pix/v2/cobv/{txid}' },
  { kind: 'credential', method: 'POST', path: `${V2}/cob`, headers: { 'x-api-key': DEFAULT.apiKey }, status: 401, says: "X-API-Key is the v1 face's header" },
  { kind: 'credential', method: 'GET', path: `${V2}/cob/abc`, headers: {}, status: 401, says: 'Missing bearer token' },
  { kind: 'credential', method: 'GET', path: `${V2}/pix`, headers: { authorization: 'Basic eDp5' }, status: 401, says: 'POST /api-pix/oauth/token' },
];

function expectProblemAnswer(w: Wrong, res: ApiResponse, strict: boolean) {
  const why = `${label(w)}: ${res.text.slice(0, 500)}`;
  if (res.status !== 200 && res.status !== 201) expect(res.headers.get('content-type'), why).toMatch(/^application\/problem\+json/);
  switch (w.kind) {
    case 'typo':
      // Refused (strict, or lenient when the misspelt field was a required one): the violacoes name it.
      if (strict || w.status === 400) {
        expect(res.status, why).toBe(400);
        const violacao = res.body.violacoes.find((v: { propriedade: string }) => v.propriedade.endsWith(w.field));
        expect(violacao, why).toBeDefined();
        expect(violacao.razao, why).toContain(w.suggestion ? `did you mean "${w.suggestion}"?` : 'remove it');
      }
      if (!strict) {
        expect(res.status, why).toBe(w.status);
        expect(warningsOf(res), why).toContain(warning(w.field, w.suggestion));
      }
      return;
    case 'type':
      expect(res.status, why).toBe(400);
      expect(res.body.violacoes.map((v: { propriedade: string }) => v.propriedade).some((p: string) => p.endsWith(w.field)), why).toBe(true);
      return;
    case 'method':
      expect(res.status, why).toBe(405);
      expect(res.headers.get('allow'), why).toBe(w.allow);
      return;
    case 'path':
      expect(res.status, why).toBe(404);
      expect(res.body.type, why).toBe('https://pix.bcb.gov.br/api/v2/error/NaoEncontrado');
      expect(res.body.detail, why).toContain(w.suggestion);
      return;
    case 'credential':
      expect(res.status, why).toBe(w.status);
      expect(res.body.detail, why).toContain(w.says);
  }
}

describe.each([false, true])('API Pix, strict %s', (strict) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness({ strict });
    token = await pixToken(h);
  });
  const cases = strict ? TYPOS : [...TYPOS, ...OTHERS];
  test.each(cases.map((w) => [label(w), w] as const))('%s', async (_label, w) => {
    const body = 'body' in w ? { body: w.body } : w.method === 'GET' || w.method === 'HEAD' ? {} : { body: {} };
    const res = await h.api(w.method, w.path, { ...body, ...(w.kind === 'credential' ? { headers: w.headers } : { token }) });
    expectProblemAnswer(w, res, strict);
  });
});

test('the API Pix table has at least 60 wrong requests', () => {
  expect(TYPOS.length * 2 + OTHERS.length).toBeGreaterThanOrEqual(60);
});

test.each([
  ['http://127.0.0.1:3000/pix', 'a loopback address and plain http'],
  ['https://192.168.0.10/pix', 'a private address'],
  ['http://example.com/pix', 'plain http'],
  ['https://localhost/pix', 'a loopback name'],
])('PUT /webhook/{chave} takes %s with a warning that production could never deliver there', async (url, reason) => {
  const h = await startHarness();
  const res = await h.api('PUT', `${V2}/webhook/${KEYS.evp}`, { body: { webhookUrl: url }, token: await pixToken(h) });
  expect(res.status, res.text).toBe(200);
  expect(warningsOf(res)).toBe(`webhookUrl "${url}" is ${reason}, which production could never deliver to (it needs a public https URL); accepted, as the sandbox delivers from this machine`);
});

test('a public https webhook URL carries no warning', async () => {
  const h = await startHarness();
  const res = await h.api('PUT', `${V2}/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://example.com/pix' }, token: await pixToken(h) });
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('sandbox-warning')).toBeNull();
});
