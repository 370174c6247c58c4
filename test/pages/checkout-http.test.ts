// GET /pix/qr/{id} answers by the Accept header: the JWS and the JSON stay what they were for API clients and banks;
// a browser gets the checkout page. Over HTTP in process; the page in Chromium is test/browser/checkout.test.ts.
import { compactVerify, createLocalJWKSet } from 'jose';
import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';

const CHROME = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const AXIOS = 'application/json, text/plain, */*';

async function newCharge(h: Harness, over: Record<string, unknown> = {}) {
  const res = await h.v2('POST', '/pix', { body: { amount: 25.9, description: 'Pedido 1234', ...over } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; pixCopyPaste: string; qrCodeBase64: string; expiresAt: string };
}

const get = (h: Harness, path: string, accept?: string) => h.api('GET', path, accept === undefined ? {} : { headers: { accept } });

describe('GET /pix/qr/{id}: content negotiation', () => {
  test.each([
    ['no Accept header (a bank, curl without -H)', 'application/jose', undefined],
    ['*/* (curl)', 'application/jose', '*/*'],
    ['application/jose', 'application/jose', 'application/jose'],
    ['application/*', 'application/jose', 'application/*'],
    ['application/jose, text/html (both preferred: the first wins)', 'application/jose', 'application/jose, text/html'],
    ['image/png (nothing it serves: the default)', 'application/jose', 'image/png'],
    ['application/json', 'application/json', 'application/json'],
    ['axios default', 'application/json', AXIOS],
    ['text/html;q=0.5, application/json', 'application/json', 'text/html;q=0.5, application/json'],
    ['text/html', 'text/html', 'text/html'],
    ['text/*', 'text/html', 'text/*'],
    ['Chrome navigation', 'text/html', CHROME],
    ['Firefox navigation', 'text/html', FIREFOX],
    ['application/json;q=0.4, text/html', 'text/html', 'application/json;q=0.4, text/html'],
  ])('%s: %s', async (_name, type, accept) => {
    const h = await startHarness();
    const { id } = await newCharge(h);
    const res = await get(h, `/pix/qr/${id}`, accept);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')!.split(';')[0]).toBe(type);
  });

  test('the JWS and the JSON answers are unchanged: the cob payload, signed with the published key', async () => {
    const h = await startHarness();
    const { id } = await newCharge(h);
    const json = await get(h, `/pix/qr/${id}`, 'application/json');
    expect(json.body, json.text).toEqual({
      calendario: { criacao: '2026-03-10T12:00:00.000Z', apresentacao: '2026-03-10T12:00:00.000Z', expiracao: 86400 },
      txid: id.replaceAll('-', ''),
      revisao: 0,
      status: 'ATIVA',
      valor: { original: '25.90' },
      chave: DEFAULT.accountId,
      solicitacaoPagador: 'Pedido 1234',
    });
    const jose = await get(h, `/pix/qr/${id}`);
    const jwks = createLocalJWKSet((await h.api('GET', '/.well-known/jwks.json')).body);
    const { payload } = await compactVerify(jose.text, jwks);
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual(json.body);
  });

  test.each([
    ['a browser', CHROME, 'text/html'],
    ['curl', '*/*', 'application/json'],
    ['a JSON client', 'application/json', 'application/json'],
    ['a bank (no Accept)', undefined, 'application/json'],
  ])('an unknown id is a 404 for %s: an HTML page for browsers, the envelope for API clients', async (_name, accept, type) => {
    const h = await startHarness();
    const res = await get(h, '/pix/qr/00000000-0000-4000-8000-000000000000', accept);
    expect(res.status, res.text.slice(0, 300)).toBe(404);
    expect(res.headers.get('content-type')!.split(';')[0]).toBe(type);
    if (type === 'text/html') {
      expect(res.text).toContain('Charge not found');
      expect(res.text).toContain('00000000-0000-4000-8000-000000000000');
    } else {
      expect(res.body.details.code, res.text).toBe('TRANSACTION_NOT_FOUND');
    }
  });
});

describe('the checkout page (HTML)', () => {
  test('shows merchant, amount, description, the QR the API returned, the copy-paste code, status and the sandbox clock', async () => {
    const h = await startHarness();
    const charge = await newCharge(h);
    const res = await get(h, `/pix/qr/${charge.id}`, CHROME);
    const html = res.text;
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/<html lang="[a-z-]+"/);
    expect(html).toContain('name="viewport"');
    expect(html).toContain('Loja Exemplo LTDA');
    expect(html).toContain('R$ 25,90');
    expect(html).toContain('Pedido 1234');
    expect(html).toContain(`src="${charge.qrCodeBase64}"`);
    expect(html).toContain(charge.pixCopyPaste);
    expect(html).toContain('Waiting for payment');
    expect(html).toContain(`data-expires-at="${Date.parse(charge.expiresAt)}"`);
    expect(html).toContain(`data-now="${Date.parse('2026-03-10T12:00:00.000Z')}"`);
    expect(html).toContain('data-frozen="true"');
    expect(html).toMatch(/id="countdown"[^>]*>1 d 00:00:00</);
  });

  test("a sub-account's charge shows the sub-account's name, as its BR Code does", async () => {
    const h = await startHarness();
    await h.control('POST', `/accounts/${DEFAULT.accountId}/sub-accounts`, { reference: 'cafe', name: 'Café da Praça' });
    const created = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' }, subAccount: 'cafe' });
    const res = await get(h, `/pix/qr/${created.body.id}`, CHROME);
    expect(res.text).toContain('Café da Praça');
  });

  test.each([
    ['pay', 'Paid', 'paid'],
    ['expire', 'Expired', 'expired'],
    ['fail', 'Failed', 'failed'],
    ['cancel', 'Cancelled', 'cancelled'],
  ])('after the control action %s the page says %s and no longer offers to pay', async (action, label, status) => {
    const h = await startHarness();
    const { id } = await newCharge(h);
    expect((await h.control('POST', `/transactions/${id}/${action}`)).status).toBe(200);
    const res = await get(h, `/pix/qr/${id}`, CHROME);
    expect(res.text).toMatch(new RegExp(`id="status"[^>]*data-status="${status}"[^>]*>${label}<`));
    expect(res.text).toMatch(/<button type="submit" id="pay" disabled/);
  });

  test('a charge that expires by the clock says Expired', async () => {
    const h = await startHarness();
    const { id } = await newCharge(h, { expiresIn: 300 });
    await h.advance(300);
    const res = await get(h, `/pix/qr/${id}`, CHROME);
    expect(res.text).toMatch(/data-status="expired"[^>]*>Expired</);
  });

  test('a transaction that is not a charge (a withdrawal) is not a checkout page', async () => {
    const h = await startHarness();
    const w = await h.v2('POST', '/withdrawals', { body: { amount: 10, pixKey: 'a@b.com', pixKeyType: 'email', holderName: 'Ana', holderDocument: '52998224725', holderDocumentType: 'cpf' } });
    const id = w.body.id ?? w.body.transactionId;
    expect(typeof id, w.text).toBe('string');
    const res = await get(h, `/pix/qr/${id}`, CHROME);
    expect(res.status).toBe(404);
  });
});
