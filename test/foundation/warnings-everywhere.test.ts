// Warnings on every answer of every face, on both transports (sandbox.md 14, STYLE.md habit 19): each create or update
// of /openapi.json and /openapi-api-pix.json, sent with a misspelt field added to its body, answers with a
// Sandbox-Warning naming it on v2, v1 and API Pix, whatever else it answers, and with a 400 naming it on the control API;
// so does the replay of an idempotent create. Run in process and on a real port: a path that only one of them takes
// (sendIdempotent answered with a bare Response on a port) cannot drop the header unseen.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type Harness, type Transport } from '../helpers/harness';
import { cobBody } from '../helpers/api-pix';
import { credentialOf, faceOf, filledPath, operationsOf, servedDocuments } from '../helpers/operations';
const TYPO = 'zzNotAField';
const WARNING = `unknown field "${TYPO}"; it is ignored, as the service ignores it`;
const WRITES = ['post', 'put', 'patch'] as const;

interface Row {
  label: string;
  method: string;
  path: string;
  body: Record<string, unknown>;
}

const { doc, pixDoc } = await servedDocuments();
const rows: Row[] = [
  // POST /v2/auth is left out: the token call keeps the service's small error body and its own fields.
  ...operationsOf(doc, WRITES)
    .filter(({ path, op }) => path !== '/v2/auth' && op.requestBody?.content?.['application/json']?.example !== undefined)
    .map(({ method, path, op }) => ({ label: `${method} ${path}`, method, path: filledPath(doc, path, op), body: { ...op.requestBody.content['application/json'].example, [TYPO]: 1 } })),
  // The API Pix document has no request examples: a charge for PUT cob and cobv, else {} (the misspelt field is told
  // beside the missing ones).
  ...operationsOf(pixDoc, WRITES)
    .filter(({ op }) => op.requestBody)
    .map(({ method, path, op }) => ({
      label: `${method} /api-pix/v2${path}`,
      method,
      path: `/api-pix/v2${filledPath(pixDoc, path, op)}`,
      body: { ...(/^\/cobv?\/\{txid\}$/.test(path) && method === 'PUT' ? cobBody() : {}), [TYPO]: 1 },
    })),
];

const send = async (h: Harness, row: Row, extra: Record<string, string> = {}) => h.api(row.method, row.path, { body: row.body, headers: { ...extra, ...(await credentialOf(h, row.path)) } });

test('the table holds the writes of every face', () => {
  const faces = new Set(rows.map((r) => faceOf(r.path)));
  expect([...faces].sort()).toEqual(['api-pix', 'control', 'v1', 'v2']);
  expect(rows.length).toBeGreaterThan(50);
});

describe.each(['process', 'port'] as Transport[])('%s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, transport);
  });
  afterAll(() => h.sb.close());

  test.each(rows.map((r) => [r.label, r] as const))('%s names the misspelt field', async (_label, row) => {
    const res = await send(h, row);
    const why = `${row.method} ${row.path} ${res.status}: ${res.text.slice(0, 300)}`;
    expect(res.status, why).toBeLessThan(500);
    if (faceOf(row.path) === 'control') {
      // The sandbox's own API refuses an unknown field (sandbox.md 14).
      expect(res.status, why).toBe(400);
      expect(res.text, why).toContain(TYPO);
    } else expect(res.headers.get('sandbox-warning'), why).toContain(WARNING);
  });

  test.each([
    ['POST /v2/pix', { amount: 10.5, description: 'typo', expiresInn: 600 }, 'expiresInn'],
    ['POST /v2/withdrawals', { amount: 20, pixKey: 'ana@example.com', pixKeyType: 'email', holderName: 'Ana', holderDocument: '12345678909', holderDocumentType: 'cpf', descripton: 'x' }, 'descripton'],
  ] as const)('%s warns on its answer and on the replay of its Idempotency-Key', async (label, body, field) => {
    const row: Row = { label, method: 'POST', path: label.split(' ')[1]!, body };
    const key = { 'idempotency-key': `warn-${transport}-${field}` };
    const first = await send(h, row, key);
    const replay = await send(h, row, key);
    for (const [res, replayed] of [[first, null], [replay, 'true']] as const) {
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('idempotent-replayed'), res.text).toBe(replayed);
      expect(res.headers.get('sandbox-warning'), res.text).toMatch(new RegExp(`unknown field "${field}"`));
      expect(res.headers.get('location'), res.text).toBe(`/v2/transactions/${first.body.id}`);
    }
  });
});
