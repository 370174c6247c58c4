import { createLocalJWKSet, compactVerify } from 'jose';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, test } from 'vitest';
import { parseBrCode } from '../../src/pix';
import { DEFAULT, expectLedgerBalanced, startHarness, T0 } from '../helpers/harness';

const charge = (over: Record<string, unknown> = {}) => ({ amount: 25.9, description: 'Pedido 1234', ...over });

function decodeQr(dataUrl: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe('POST /v2/pix', () => {
  test('creates a pending charge with every field of the creation response', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: charge({ externalReference: 'order-1', metadata: { orderId: 1234 } }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', amount: 25.9, currency: 'BRL', externalReference: 'order-1', createdAt: T0 });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.expiresAt).toBe(new Date(Date.parse(T0) + 86400_000).toISOString());
    expect(res.body.qrCodeBase64).toMatch(/^data:image\/png;base64,/);
    expect(res.body.pspPaymentId).toEqual(expect.any(String));
    expect(res.body).not.toHaveProperty('pspCredentialId');
    expect(res.body).not.toHaveProperty('split');
    expectLedgerBalanced(h.sb);
  });

  test('pixCopyPaste is a dynamic BR Code whose fields say what was charged, and the QR decodes to it', async () => {
    const h = await startHarness({ publicHost: 'pix.sandbox.test' });
    const res = await h.v2('POST', '/pix', { body: charge({ amount: 1234.5 }) });
    const code: string = res.body.pixCopyPaste;
    expect(code).toMatch(/^[\x20-\x7e]+$/);
    const parsed = parseBrCode(code);
    expect(parsed.crcValid).toBe(true);
    expect(parsed.fields['00']).toBe('01');
    expect(parsed.fields['01']).toBe('12');
    expect(parsed.merchantAccount['00']).toBe('br.gov.bcb.pix');
    expect(parsed.merchantAccount['25']).toBe(`pix.sandbox.test/pix/qr/${res.body.id}`);
    expect(parsed.merchantAccount['25']!.length).toBeLessThanOrEqual(77);
    expect(parsed.fields['52']).toBe('0000');
    expect(parsed.fields['53']).toBe('986');
    expect(parsed.fields['54']).toBe('1234.50');
    expect(parsed.fields['58']).toBe('BR');
    expect(parsed.fields['59']).toBe('Loja Exemplo LTDA');
    expect(parsed.fields['60']).toBe('Sao Paulo');
    expect(parsed.additionalData['05']).toBe('***');
    expect(code.slice(-8, -4)).toBe('6304');
    expect(decodeQr(res.body.qrCodeBase64)).toBe(code);
  });

  test('the BR Code location is served by the sandbox as a JWS signed with the published key', async () => {
    const h = await startHarness();
    const created = await h.v2('POST', '/pix', { body: charge() });
    const res = await h.sb.app.request(`/pix/qr/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/jose');
    const jwks = createLocalJWKSet((await h.api('GET', '/.well-known/jwks.json')).body);
    const { payload } = await compactVerify(await res.text(), jwks);
    const cob = JSON.parse(new TextDecoder().decode(payload));
    expect(cob).toMatchObject({ status: 'ATIVA', valor: { original: '25.90' }, txid: created.body.id.replaceAll('-', '') });
  });

  test('the merchant name in the BR Code is the sub-account name for a charge made with X-Sub-Account, accents stripped', async () => {
    const h = await startHarness();
    await h.control('POST', `/accounts/${DEFAULT.accountId}/sub-accounts`, { reference: 'cafe', name: 'Café São João da Praça Grande' });
    const res = await h.v2('POST', '/pix', { body: charge(), subAccount: 'cafe' });
    expect(res.status, res.text).toBe(201);
    const fields = parseBrCode(res.body.pixCopyPaste).fields;
    expect(fields['59']).toBe('Cafe Sao Joao da Praca Gr');
    expect(fields['59']!.length).toBeLessThanOrEqual(25);
  });

  test('expiresIn sets expiresAt', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: charge({ expiresIn: 300 }) });
    expect(res.body.expiresAt).toBe(new Date(Date.parse(T0) + 300_000).toISOString());
  });

  test.each([
    ['amount below 1', { amount: 0.99 }, 'amount'],
    ['amount with 3 decimals', { amount: 10.001 }, 'amount'],
    ['amount as a string', { amount: '10.00' }, 'amount'],
    ['missing description', { description: undefined }, 'description'],
    ['description over 255', { description: 'x'.repeat(256) }, 'description'],
    ['expiresIn below 300', { expiresIn: 299 }, 'expiresIn'],
    ['expiresIn above 604800', { expiresIn: 604801 }, 'expiresIn'],
    ['expiresIn not whole', { expiresIn: 300.5 }, 'expiresIn'],
    ['externalReference over 255', { externalReference: 'r'.repeat(256) }, 'externalReference'],
    ['customer email not an email', { customer: { email: 'nope' } }, 'customer.email'],
    ['customer document of 13 digits', { customer: { document: '1234567890001' } }, 'customer.document'],
    ['customer name over 255', { customer: { name: 'n'.repeat(256) } }, 'customer.name'],
    ['customer phone over 20', { customer: { phone: '1'.repeat(21) } }, 'customer.phone'],
    ['metadata not an object', { metadata: 'x' }, 'metadata'],
    ['more than 10 split items', { amount: 100, split: Array.from({ length: 11 }, () => ({ subAccount: 'loja-centro', amount: 1 })) }, 'split'],
    ['split amount below 0.01', { split: [{ subAccount: 'loja-centro', amount: 0.001 }] }, 'split[0].amount'],
    ['split subAccount not a reference', { split: [{ subAccount: 'Loja Centro!', amount: 1 }] }, 'split[0].subAccount'],
  ])('400 VALIDATION_ERROR for %s, naming the field', async (_name, over, field) => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: charge(over) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields.map((f: { field: string }) => f.field), res.text).toContain(field);
    expect(res.body.message).toContain(field);
    const after = await h.control('GET', `/accounts/${DEFAULT.accountId}`);
    expect(Object.keys(h.sb.deps.store.account(DEFAULT.accountId).transactions)).toHaveLength(1); // only the initial balance
    expect(after.status).toBe(200);
  });

  test('every failing field is listed at once', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: { amount: 0, expiresIn: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['amount', 'description', 'expiresIn']);
  });

  test('an account with exactly one project gives it to the charge; with several the charge has none; an explicit one is kept', async () => {
    const h = await startHarness();
    const one = await h.v2('POST', '/pix', { body: charge() });
    expect((await h.v2('GET', `/transactions/${one.body.id}`)).body.projectId).toBe(DEFAULT.projectId);
    const second = await h.v2('POST', '/projects', { body: { name: 'Second', color: '#000000' } });
    const none = await h.v2('POST', '/pix', { body: charge() });
    expect((await h.v2('GET', `/transactions/${none.body.id}`)).body).not.toHaveProperty('projectId');
    const explicit = await h.v2('POST', '/pix', { body: charge({ projectId: second.body.id }) });
    expect((await h.v2('GET', `/transactions/${explicit.body.id}`)).body.projectId).toBe(second.body.id);
  });

  test('an unknown projectId is 404 PROJECT_NOT_FOUND and creates nothing', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: charge({ projectId: '00000000-0000-4000-8000-000000000000' }) });
    expect(res.status, res.text).toBe(404);
    expect(res.body.details.code).toBe('PROJECT_NOT_FOUND');
    expect(Object.keys(h.sb.deps.store.state.jobs)).toHaveLength(0);
  });
});

describe('institution pinning (pspCredentialId)', () => {
  test('an eligible institution that is up is echoed as pspCredentialId', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: charge({ pspCredentialId: DEFAULT.institutionUp }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.pspCredentialId).toBe(DEFAULT.institutionUp);
  });

  test.each([
    ['an unknown institution', '00000000-0000-4000-8000-000000000000', 404, 'PSP_CREDENTIAL_NOT_FOUND'],
    ['a down institution (never routed elsewhere)', DEFAULT.institutionDown, 503, 'PSP_UNAVAILABLE'],
  ])('%s fails the charge', async (_name, id, status, code) => {
    const h = await startHarness();
    const res = await h.v2('POST', '/pix', { body: charge({ pspCredentialId: id }) });
    expect(res.status, res.text).toBe(status);
    expect(res.body.details.code).toBe(code);
    expect(Object.values(h.sb.deps.store.account(DEFAULT.accountId).transactions).filter((t) => t.type === 'payment')).toHaveLength(0);
  });

  test.each([
    ['out of capacity', { status: 'out_of_capacity' }, undefined, 503, 'PSP_OUT_OF_CAPACITY'],
    ['disabled', { enabled: false }, undefined, 400, 'PSP_CREDENTIAL_NOT_ELIGIBLE'],
    ['up, but the account has no institution choice', {}, { institutionChoice: false }, 400, 'PSP_CREDENTIAL_NOT_ELIGIBLE'],
  ])('an institution %s gives %s %s', async (_name, instPatch, accountPatch, status, code) => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}/institutions/${DEFAULT.institutionUp}`, instPatch);
    if (accountPatch) await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, accountPatch);
    const res = await h.v2('POST', '/pix', { body: charge({ pspCredentialId: DEFAULT.institutionUp }) });
    expect(res.status, res.text).toBe(status);
    expect(res.body.details.code).toBe(code);
  });
});
