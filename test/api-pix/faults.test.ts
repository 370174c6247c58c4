// All-or-nothing on the standard face (sandbox.md 2.8): each write of its verbs fails in turn (the failWrite test hook);
// every failed try answers a 500 problem and leaves the whole state as it was; then the request goes through.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { UnitHooks } from '../../src/store/unit';
import { expectLedgerBalanced, failEachWrite, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { apiPix, cobBody, KEYS, pixToken, putCob, TXID } from '../helpers/api-pix';

let h: Harness;
let hooks: UnitHooks;
let token: string;
beforeEach(async () => {
  hooks = { failWrite: null };
  h = await startHarness({ testHooks: hooks });
  token = await pixToken(h);
});
afterEach(() => h.sb.close());

const snapshot = () => JSON.stringify(h.sb.deps.store.state);

async function expectAllOrNothing(request: () => Promise<ApiResponse>, minWrites: number) {
  const before = snapshot();
  const failures = await failEachWrite(hooks, request, (res, n) => {
    expect(res.body.type, `write #${n}: ${res.text}`).toBe('https://pix.bcb.gov.br/api/v2/error/ErroInternoDoServidor');
    expect(snapshot(), `write #${n} failed and left a change`).toBe(before);
  });
  expect(failures).toBeGreaterThanOrEqual(minWrites);
  expectLedgerBalanced(h.sb);
}

test.each([
  ['PUT /cob', () => apiPix(h, 'PUT', `/cob/${TXID}`, { body: cobBody(), token }), 4],
  ['PUT /cobv', () => apiPix(h, 'PUT', `/cobv/${TXID}`, { body: { calendario: { dataDeVencimento: '2026-03-20' }, devedor: { cpf: '12345678909', nome: 'F' }, valor: { original: '10.00' }, chave: KEYS.cnpj }, token }), 4],
  ['POST /loc', () => apiPix(h, 'POST', '/loc', { body: { tipoCob: 'cob' }, token }), 1],
  ['PUT /webhook', () => apiPix(h, 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://x.example/h' }, token }), 1],
])('%s fails at each of its writes without leaving any', async (_n, request, min) => {
  await expectAllOrNothing(request, min);
});

test('PATCH /cob, the pay by txid and PUT devolução fail at each of their writes without leaving any', async () => {
  await putCob(h);
  await apiPix(h, 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://x.example/h' }, token });
  await expectAllOrNothing(() => apiPix(h, 'PATCH', `/cob/${TXID}`, { body: { valor: { original: '99.00' }, calendario: { expiracao: 600 } }, token }), 3);
  const before = snapshot();
  const failures = await failEachWrite(hooks, () => h.control('POST', `/api-pix/cob/${TXID}/pay`, { infoPagador: 'oi' }), (_res, n) => expect(snapshot(), `write #${n}`).toBe(before));
  expect(failures).toBeGreaterThan(5);
  const pix = (await apiPix(h, 'GET', `/cob/${TXID}`, { token })).body.pix[0];
  expect(pix.infoPagador).toBe('oi');
  // The payment's webhook is attempted in the background: it is done before the state is compared again.
  expect((await h.control('POST', '/settle')).status).toBe(200);
  await expectAllOrNothing(() => apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D1`, { body: { valor: '99.00' }, token }), 3);
});
