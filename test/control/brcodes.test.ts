// POST /_sandbox/brcodes/decode: the checks the payer page shows, over HTTP, for codes of this sandbox, codes of
// others and malformed ones; and paying the charge it points at through the route the page uses.
import { describe, expect, test } from 'vitest';
import { buildDynamicBrCode, buildStaticBrCode, crc16CcittFalse, encodeTlv, parseTlv } from '../../src/pix';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';

async function newCharge(h: Harness, over: Record<string, unknown> = {}) {
  const res = await h.v2('POST', '/pix', { body: { amount: 25.9, description: 'Pedido 1234', ...over } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; pixCopyPaste: string; qrCodeBase64: string };
}

const decode = (h: Harness, code: unknown) => h.control('POST', '/brcodes/decode', { code });

/** The code rebuilt without field `id` (and a fresh CRC, so only that field is wrong). */
function without(code: string, id: string): string {
  if (id === '63') return code.slice(0, -8);
  const body = parseTlv(code.slice(0, -8))
    .filter((f) => f.id !== id)
    .map((f) => encodeTlv(f.id, f.value))
    .join('');
  return `${body}6304${crc16CcittFalse(`${body}6304`)}`;
}

const failedChecks = (body: { checks: { check: string; ok: boolean }[] }) => body.checks.filter((c) => !c.ok).map((c) => c.check);

describe('POST /_sandbox/brcodes/decode', () => {
  test('a code of this sandbox decodes with every check passed and names its pending charge as payable', async () => {
    const h = await startHarness({ publicHost: 'pix.sandbox.test' });
    const charge = await newCharge(h);
    const res = await decode(h, charge.pixCopyPaste);
    expect(res.status, res.text).toBe(200);
    expect(res.body, res.text).toMatchObject({
      verdict: 'payable',
      valid: true,
      length: charge.pixCopyPaste.length,
      chargeId: charge.id,
      decoded: { payloadFormat: '01', gui: 'br.gov.bcb.pix', location: `pix.sandbox.test/pix/qr/${charge.id}`, currency: '986', amount: 25.9, country: 'BR', merchantName: 'Loja Exemplo LTDA', merchantCity: 'Sao Paulo' },
      crc: { valid: true, found: charge.pixCopyPaste.slice(-4), expected: charge.pixCopyPaste.slice(-4) },
      charge: { id: charge.id, accountId: DEFAULT.accountId, subAccount: null, merchantName: 'Loja Exemplo LTDA', amount: 25.9, description: 'Pedido 1234', status: 'pending', checkoutPath: `/pix/qr/${charge.id}`, payPath: `/_sandbox/transactions/${charge.id}/pay` },
    });
    expect(failedChecks(res.body)).toEqual([]);
    expect(res.body.checks.map((c: { check: string }) => c.check)).toEqual(
      expect.arrayContaining(['length', 'tlv', 'payloadFormat', 'merchantAccount', 'location', 'amount', 'merchantName', 'merchantCity', 'crc']),
    );
    expect(res.body.fields.find((f: { id: string }) => f.id === '26').subfields).toContainEqual({ id: '25', name: 'Location (URL of the charge)', value: `pix.sandbox.test/pix/qr/${charge.id}` });
  });

  test('the location path names the charge whatever host the code carries (a LAN address, another --public-host)', async () => {
    const h = await startHarness();
    const charge = await newCharge(h, { amount: 10 });
    const code = buildDynamicBrCode({ location: `192.168.0.7:4747/pix/qr/${charge.id}`, merchantName: 'Loja Exemplo LTDA', merchantCity: 'Sao Paulo', amountCents: 1000 });
    const res = await decode(h, code);
    expect(res.body, res.text).toMatchObject({ verdict: 'payable', chargeId: charge.id, charge: { id: charge.id } });
  });

  test('surrounding whitespace (a pasted line break) is ignored', async () => {
    const h = await startHarness();
    const charge = await newCharge(h);
    const res = await decode(h, `  ${charge.pixCopyPaste}\n`);
    expect(res.body.verdict, res.text).toBe('payable');
  });

  test('a paid charge is found but not payable, and the message says it is paid', async () => {
    const h = await startHarness();
    const charge = await newCharge(h);
    expect((await h.control('POST', `/transactions/${charge.id}/pay`)).status).toBe(200);
    const res = await decode(h, charge.pixCopyPaste);
    expect(res.body, res.text).toMatchObject({ verdict: 'not_payable', valid: true, charge: { status: 'paid' } });
    expect(res.body.message).toMatch(/paid; only a pending charge can be paid/);
  });

  test('an expired charge says expired', async () => {
    const h = await startHarness();
    const charge = await newCharge(h, { expiresIn: 300 });
    await h.advance(301);
    const res = await decode(h, charge.pixCopyPaste);
    expect(res.body, res.text).toMatchObject({ verdict: 'not_payable', charge: { status: 'expired' } });
  });

  test.each([
    ['a static code with a PIX key (the Central Bank example)', buildStaticBrCode({ key: '123e4567-e12b-12d1-a456-426655440000', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', amountCents: 1000 }), /static BR Code for the PIX key 123e4567.*not one this sandbox issued/],
    ['a dynamic code of another PSP', buildDynamicBrCode({ location: 'pix.example.com/qr/v2/9d36b84f', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', amountCents: 1000 }), /not one this sandbox issued: its location pix\.example\.com\/qr\/v2\/9d36b84f/],
    ['a sandbox-shaped location with an unknown id', buildDynamicBrCode({ location: '127.0.0.1:4747/pix/qr/00000000-0000-4000-8000-000000000000', merchantName: 'X', merchantCity: 'Y', amountCents: 1000 }), /this sandbox has no charge 00000000-0000-4000-8000-000000000000/],
    ['the Central Bank static example (no amount: the payer types it)', '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D', /static BR Code for the PIX key 123e4567/],
  ])('a valid code not issued here (%s) is valid, not ours, with no charge', async (_name, code, message) => {
    const h = await startHarness();
    const res = await decode(h, code);
    expect(res.status, res.text).toBe(200);
    expect(res.body, res.text).toMatchObject({ valid: true, verdict: 'not_ours', charge: null });
    expect(res.body.message).toMatch(message);
  });

  test('a code whose amount differs from its charge (rebuilt by hand) is refused', async () => {
    const h = await startHarness();
    const charge = await newCharge(h, { amount: 10 });
    const code = buildDynamicBrCode({ location: `127.0.0.1:4747/pix/qr/${charge.id}`, merchantName: 'Loja', merchantCity: 'Sao Paulo', amountCents: 1 });
    const res = await decode(h, code);
    expect(res.body, res.text).toMatchObject({ verdict: 'invalid', valid: true, charge: { id: charge.id } });
    expect(res.body.message).toMatch(/says R\$ 0,01 but charge .* is for R\$ 10,00/);
  });

  // Malformed codes: each names what is wrong. `code` gets a code of this sandbox (a pending charge of 25.90).
  test.each<[string, (code: string) => string, string[], RegExp]>([
    ['bad CRC', (c) => c.slice(0, -4) + (c.slice(-4) === '0000' ? '0001' : '0000'), ['crc'], /CRC mismatch: the code says 0000 but the text before it gives [0-9A-F]{4}/],
    ['a changed amount (CRC no longer matches)', (c) => c.replace('540525.90', '540525.00'), ['crc'], /CRC mismatch/],
    ['truncated', (c) => c.slice(0, 60), ['tlv', 'crc'], /Not a sequence of TLV fields.*declares \d+ characters but only \d+ remain/],
    ['missing field 26 (merchant account)', (c) => without(c, '26'), ['merchantAccount'], /Field 26 \(PIX merchant account\) is missing/],
    ['missing field 54 (amount)', (c) => without(c, '54'), ['amount'], /Field 54 \(amount\) is missing: a charge states its amount/],
    ['missing field 59 (merchant name)', (c) => without(c, '59'), ['merchantName'], /Field 59 \(merchant name\) is missing/],
    ['missing field 60 (merchant city)', (c) => without(c, '60'), ['merchantCity'], /Field 60 \(merchant city\) is missing/],
    ['missing field 63 (CRC)', (c) => without(c, '63'), ['crc'], /Field 63 \(CRC\) is missing: .* they would be 6304[0-9A-F]{4}/],
    ['missing field 00 (payload format first)', (c) => without(c, '00'), ['payloadFormat'], /Field 00 \(payload format indicator\) must come first/],
    ['not TLV at all', () => 'hello, this is not a BR Code', ['tlv', 'crc'], /Not a sequence of TLV fields/],
    ['empty', () => '', ['length', 'crc'], /The code is empty/],
    ['longer than 512 characters', (c) => c + '9'.repeat(520), ['length', 'tlv', 'crc'], /characters; a BR Code holds at most 512/],
    ['a line break inside', (c) => `${c.slice(0, 40)}\n${c.slice(40)}`, ['characters', 'tlv', 'crc'], /is not printable ASCII/],
  ])('%s: invalid, names the failing checks and says what is wrong', async (_name, mangle, failing, message) => {
    const h = await startHarness();
    const charge = await newCharge(h);
    const code = mangle(charge.pixCopyPaste);
    const res = await decode(h, code);
    expect(res.status, res.text).toBe(200);
    expect(res.body.valid, res.text).toBe(false);
    expect(res.body.verdict, res.text).toBe('invalid');
    expect(failedChecks(res.body), res.text).toEqual(failing);
    expect(res.body.message, res.text).toMatch(/^Not a valid BR Code: /);
    expect(res.body.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { message: string }) => c.message).join(' | '), res.text).toMatch(message);
  });

  test('a field 26 with another GUI is named', async () => {
    const h = await startHarness();
    const body =
      encodeTlv('00', '01') + encodeTlv('26', encodeTlv('00', 'br.gov.bcb.pax') + encodeTlv('25', 'pix.example.com/qr/1')) + encodeTlv('52', '0000') + encodeTlv('53', '986') +
      encodeTlv('54', '1.00') + encodeTlv('58', 'BR') + encodeTlv('59', 'X') + encodeTlv('60', 'Y') + '6304';
    const res = await decode(h, body + crc16CcittFalse(body));
    expect(failedChecks(res.body), res.text).toEqual(['merchantAccount']);
    expect(res.body.message).toMatch(/holds "br\.gov\.bcb\.pax"; a PIX code holds the GUI "br\.gov\.bcb\.pix"/);
  });

  test.each([
    ['no code', {}, 'code'],
    ['a number', { code: 123 }, 'code'],
    ['far too long', { code: 'x'.repeat(3000) }, 'code'],
  ])('a body with %s is a 400 naming the field', async (_name, body, field) => {
    const h = await startHarness();
    const res = await h.control('POST', '/brcodes/decode', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.code, res.text).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields.map((f: { field: string }) => f.field), res.text).toEqual([field]);
  });

  test('with SANDBOX_ADMIN_TOKEN set, decoding needs X-Sandbox-Token like every control call', async () => {
    const h = await startHarness({ adminToken: 'workshop-token' });
    const charge = await newCharge(h);
    const denied = await h.api('POST', '/_sandbox/brcodes/decode', { body: { code: charge.pixCopyPaste } });
    expect(denied.status, denied.text).toBe(401);
    const ok = await h.api('POST', '/_sandbox/brcodes/decode', { body: { code: charge.pixCopyPaste }, headers: { 'x-sandbox-token': 'workshop-token' } });
    expect(ok.body.verdict, ok.text).toBe('payable');
  });
});

describe('paying what a decoded code points at, through the route the pages use', () => {
  test('POST the payPath with a payer name and document: the charge is completed with that payer, and the code is no longer payable', async () => {
    const h = await startHarness();
    const charge = await newCharge(h);
    const decoded = (await decode(h, charge.pixCopyPaste)).body;
    const paid = await h.api('POST', decoded.charge.payPath, { body: { payerName: 'Maria Silva', payerDocument: '52998224725' } });
    expect(paid.status, paid.text).toBe(200);
    const tx = await h.v2('GET', `/transactions/${charge.id}`);
    expect(tx.body, tx.text).toMatchObject({ status: 'completed' });
    expect(JSON.stringify(tx.body)).toContain('Maria Silva');
    expect((await decode(h, charge.pixCopyPaste)).body.verdict).toBe('not_payable');
    const again = await h.api('POST', decoded.charge.payPath, { body: {} });
    expect(again.status, again.text).toBe(409);
    expect(again.body.details.code).toBe('INVALID_STATE_TRANSITION');
  });
});
