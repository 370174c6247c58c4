// Payment links (sandbox.md 12): a domain object whose payments are ordinary charges of the core. Paid from a test
// (POST /_sandbox/charges/{id}/pay) and from its page (/c/{slug}); counters, single use, expiry on the sandbox clock.
import { describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, startHarness, T0 } from '../helpers/harness';
import { eventsOf } from '../helpers/money';
import { newCustomer, newLink, v1call } from '../helpers/v1-calls';

const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

describe('paying a link from a test', () => {
  test.each(['pix', 'credit_card', 'boleto'] as const)('pay by %s: a completed payment of the link\'s project, its id in the metadata, counters up, payment_completed', async (method) => {
    const h = await startHarness();
    const link = await newLink(h);
    const paid = await h.control('POST', `/charges/${link.id}/pay`, { paymentMethod: method, payerName: 'Maria Silva' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ id: link.id, status: 'active', paymentsCount: 1, totalCollected: 99.9 });
    // The payment is a transaction of the core: v1 and v2 see the same record.
    const v1tx = await v1call(h, 'GET', `/transactions/${paid.body.paymentId}`);
    expect(v1tx.body).toMatchObject({ type: 'payment', status: 'completed', paymentMethod: method, amount: 99.9, projectId: DEFAULT.projectId, metadata: { paymentLinkId: link.id } });
    const v2tx = await h.v2('GET', `/transactions/${paid.body.paymentId}`);
    expect(v2tx.body).toMatchObject({ id: paid.body.paymentId, status: 'completed', counterpartName: 'Maria Silva' });
    const events = await eventsOf(h, 'payment_completed');
    expect(events.map((e) => e.payload.data)).toEqual([expect.objectContaining({ transactionId: paid.body.paymentId, paymentMethod: method, amount: 99.9, metadata: { paymentLinkId: link.id } })]);
    expect((await v1call(h, 'GET', `/charges/${link.id}`)).body).toMatchObject({ paymentsCount: 1, totalCollected: 99.9 });
    expectLedgerBalanced(h.sb);
  });

  test('a link without customerId takes any number of payments', async () => {
    const h = await startHarness();
    const link = await newLink(h, { amount: 10 });
    for (let i = 0; i < 3; i++) expect((await h.control('POST', `/charges/${link.id}/pay`)).status).toBe(200);
    expect((await v1call(h, 'GET', `/charges/${link.id}`)).body).toMatchObject({ status: 'active', paymentsCount: 3, totalCollected: 30 });
  });

  test('a link with customerId is single-use: paid after its payment, a second payment is 409 and moves nothing', async () => {
    const h = await startHarness();
    const customer = await newCustomer(h);
    const link = await newLink(h, { customerId: customer.id });
    const first = await h.control('POST', `/charges/${link.id}/pay`);
    expect(first.body).toMatchObject({ status: 'paid', paymentsCount: 1 });
    expect((await v1call(h, 'GET', `/transactions/${first.body.paymentId}`)).body.customerId).toBe(customer.id);
    const txCount = Object.keys(h.sb.deps.store.account(DEFAULT.accountId).transactions).length;
    const second = await h.control('POST', `/charges/${link.id}/pay`);
    expect(second.status, second.text).toBe(409);
    expect(second.body.details).toMatchObject({ code: 'PAYMENT_LINK_NOT_PAYABLE', status: 'paid' });
    expect(Object.keys(h.sb.deps.store.account(DEFAULT.accountId).transactions)).toHaveLength(txCount);
  });

  test('expiresAt passes on the sandbox clock: the link reads expired and refuses payments', async () => {
    const h = await startHarness();
    const link = await newLink(h, { expiresAt: at(3600) });
    expect(link.expiresAt).toBe(at(3600));
    await h.advance(3599);
    expect((await v1call(h, 'GET', `/charges/${link.id}`)).body.status).toBe('active');
    await h.advance(1);
    expect((await v1call(h, 'GET', `/charges/${link.id}`)).body.status).toBe('expired');
    expect((await v1call(h, 'GET', '/charges?status=expired')).body.total).toBe(1);
    expect((await h.control('POST', `/charges/${link.id}/pay`)).status).toBe(409);
  });

  test.each(['expire', 'disable'] as const)('%s ends an active link; then it refuses payments and a second %s is 409', async (action) => {
    const h = await startHarness();
    const link = await newLink(h);
    const res = await h.control('POST', `/charges/${link.id}/${action}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe(action === 'expire' ? 'expired' : 'disabled');
    expect((await h.control('POST', `/charges/${link.id}/pay`)).status).toBe(409);
    expect((await h.control('POST', `/charges/${link.id}/${action}`)).status).toBe(409);
  });

  test('a method the link does not take is a 400 naming paymentMethod; an unknown link is 404', async () => {
    const h = await startHarness();
    const link = await newLink(h, { paymentMethods: ['pix'] });
    const res = await h.control('POST', `/charges/${link.id}/pay`, { paymentMethod: 'boleto' });
    expect(res.status).toBe(400);
    expect(res.body.details.fields).toEqual([{ field: 'paymentMethod', message: "must be one of this link's payment methods: pix" }]);
    expect((await h.control('POST', '/charges/no-such-link/pay')).status).toBe(404);
  });

  test('the list filters by search, status and projectId, newest first, a page at a time', async () => {
    const h = await startHarness();
    const a = await newLink(h, { name: 'Curso de Violão' });
    const b = await newLink(h, { name: 'Ebook' });
    await h.control('POST', `/charges/${b.id}/disable`);
    expect((await v1call(h, 'GET', '/charges')).body.items.map((l: any) => l.id)).toEqual([b.id, a.id]);
    expect((await v1call(h, 'GET', '/charges?search=viol')).body.items.map((l: any) => l.id)).toEqual([a.id]);
    expect((await v1call(h, 'GET', '/charges?status=disabled')).body.items.map((l: any) => l.id)).toEqual([b.id]);
    expect((await v1call(h, 'GET', `/charges?projectId=${DEFAULT.projectId}&limit=1&page=2`)).body).toMatchObject({ items: [{ id: a.id }], total: 2, page: 2, limit: 1, totalPages: 2 });
  });
});

describe('the link page /c/{slug}', () => {
  test('url is the sandbox page of the link; it shows the link and a form per method, with no inline script or style', async () => {
    const h = await startHarness();
    const link = await newLink(h, { description: 'Acesso anual' });
    expect(link.url).toBe(`${h.url ?? 'http://localhost'}/c/${link.slug}`); // the address the request came to
    const page = await h.api('GET', `/c/${link.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Produto Premium');
    expect(page.text).toContain('R$ 99,90');
    for (const m of ['pix', 'credit_card', 'boleto']) expect(page.text).toContain(`id="pay-${m}"`);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.text).not.toMatch(/\sstyle=|<style/);
    expect((await h.api('GET', '/c/no-such-slug')).status).toBe(404);
  });

  test('card from the page pays at once and shows the payment', async () => {
    const h = await startHarness();
    const link = await newLink(h);
    const res = await h.api('POST', `/c/${link.slug}/pay`, { raw: 'paymentMethod=credit_card&payerName=Ana', contentType: 'application/x-www-form-urlencoded' });
    expect(res.status, res.text).toBe(303);
    const paymentId = new URL(res.headers.get('location')!, 'http://x').searchParams.get('paid')!;
    expect((await v1call(h, 'GET', `/transactions/${paymentId}`)).body).toMatchObject({ status: 'completed', paymentMethod: 'credit_card' });
    const page = await h.api('GET', res.headers.get('location')!);
    expect(page.text).toContain(paymentId);
    expect(page.text).toContain('1 payment, R$ 99,90 collected');
  });

  test('PIX from the page makes a pending charge and opens its checkout; paying its BR Code raises the link\'s counters', async () => {
    const h = await startHarness();
    const link = await newLink(h);
    const res = await h.api('POST', `/c/${link.slug}/pix`, { raw: 'paymentMethod=pix', contentType: 'application/x-www-form-urlencoded' });
    expect(res.status, res.text).toBe(303);
    const chargeId = res.headers.get('location')!.replace('/pix/qr/', '');
    expect((await h.v2('GET', `/transactions/${chargeId}`)).body).toMatchObject({ status: 'pending', amount: 99.9, metadata: { paymentLinkId: link.id } });
    expect((await v1call(h, 'GET', `/charges/${link.id}`)).body.paymentsCount).toBe(0);
    expect((await h.control('POST', `/transactions/${chargeId}/pay`)).status).toBe(200);
    expect((await v1call(h, 'GET', `/charges/${link.id}`)).body).toMatchObject({ paymentsCount: 1, totalCollected: 99.9 });
  });

  test('with an admin token, a form without it pays nothing (401)', async () => {
    const h = await startHarness({ adminToken: 'sekret-token' });
    const link = (await h.api('POST', '/v1/charges', { body: { projectId: DEFAULT.projectId, name: 'X', amount: 5, paymentMethods: ['boleto'] }, headers: { 'x-api-key': DEFAULT.apiKey } })).body;
    expect((await h.api('POST', `/c/${link.slug}/pay`, { raw: 'paymentMethod=boleto', contentType: 'application/x-www-form-urlencoded' })).status).toBe(401);
    expect((await h.api('POST', `/c/${link.slug}/pay`, { raw: 'paymentMethod=boleto&token=sekret-token', contentType: 'application/x-www-form-urlencoded' })).status).toBe(303);
  });
});

test('the console lists payment links and static QR codes with their counters, pages and control actions', async () => {
  const h = await startHarness();
  const link = await newLink(h, { name: 'Curso de Violão' });
  await h.control('POST', `/charges/${link.id}/pay`);
  const qr = (await v1call(h, 'POST', '/pix/qrcode-static', { amount: 25, description: 'Doação' })).body;
  const page = await h.api('GET', '/');
  expect(page.status).toBe(200);
  expect(page.text).toContain('Payment links and static QR codes');
  expect(page.text).toContain(`href="/c/${link.slug}"`);
  expect(page.text).toContain('Curso de Violão');
  expect(page.text).toContain('1 paid, R$ 99,90');
  for (const a of ['pay', 'expire', 'disable']) expect(page.text).toContain(`data-action="/_sandbox/charges/${link.id}/${a}"`);
  expect(page.text).toContain(`data-action="/_sandbox/transactions/${qr.id}/pay"`);
});
