// Whose record a control route acts on (sandbox.md 5.2, 11), over a real port: every route an attendee's console token
// can call that addresses a record by id alone is refused (403 OUTSIDE_ATTENDEE_TENANT, nothing changed) for a record
// of any kind another tenant holds, and lets the tenant's own attendee through; under /accounts/{own}/ another
// tenant's credential or txid is not found. Paths named like object built-ins are a 4xx everywhere, and a stream
// filtered to one account carries that account's requests only.
import { onTestFinished, describe, expect, test } from 'vitest';
import { DEFAULT, type Harness } from '../helpers/harness';
import { withReceiver } from '../helpers/webhooks';
import { joinAs } from '../helpers/workshop';
import { approvedRec, cobrBody, createRec, sendSolicRec } from '../helpers/api-pix-rec';
import { apiPix, pixToken, putCob, TXID } from '../helpers/api-pix';
import { newLink, v1ok } from '../helpers/v1-calls';

/** One record of every kind the control API addresses, all held by the default account. */
interface Records {
  charge: string;
  paid: string;
  staticQr: string;
  paymentLink: string;
  balanceBlock: string;
  webhook: string;
  delivery: string;
  cob: string;
  rec: string;
  solicRec: string;
  cobr: string;
}

interface World {
  h: Harness;
  url: string;
  records: Records;
  /** The console token of an attendee whose tenant is the default account: the records' owner. */
  owner: string;
  /** The console token of an attendee with a tenant of their own: another tenant. */
  other: string;
  otherAccount: string;
}

const DAY = 86_400;

async function world(): Promise<World> {
  const { h } = await withReceiver({ workshop: true });
  // The cobr first: its recurrence's window opens 12 days on; the rest is made then, so nothing has expired.
  const approved = await approvedRec(h);
  await h.advance(12 * DAY);
  const cobr = 'assinatura202604owners00000001';
  expect((await apiPix(h, 'PUT', `/cobr/${cobr}`, { body: cobrBody(approved, '2026-04-01') })).status).toBe(201);
  const charge = (await h.v2('POST', '/pix', { body: { amount: 10, description: 'owned' } })).body.id as string;
  const paid = (await h.v2('POST', '/pix', { body: { amount: 10, description: 'paid' } })).body.id as string;
  await h.control('POST', `/transactions/${paid}/pay`);
  await h.sb.settle();
  const delivery = (await h.control('GET', `/accounts/${DEFAULT.accountId}/deliveries`)).body.items[0].id as string;
  const paidTwice = (await h.v2('POST', '/pix', { body: { amount: 10, description: 'blocked' } })).body.id as string;
  await h.control('POST', `/transactions/${paidTwice}/pay`);
  const balanceBlock = (await h.control('POST', `/transactions/${paidTwice}/block`, { amount: 1 })).body.id as string;
  const staticQr = (await v1ok(h, '/pix/qrcode-static', { amount: 10, description: 'static' })).id as string;
  const paymentLink = (await newLink(h)).id as string;
  await putCob(h);
  const rec = await createRec(h);
  const solicRec = await sendSolicRec(h, rec, { calendario: { dataExpiracaoSolicitacao: '2026-03-30T12:00:00Z' } });
  // The fixtures' account has a maker for every kind; an attendee of it holds them (the room's record pointed there).
  const ana = await joinAs(h, 'Ana');
  const owner = await joinAs(h, 'Owner');
  h.sb.deps.workshop.attendees.find((a) => a.accountId === owner.accountId)!.accountId = DEFAULT.accountId;
  const url = await h.sb.listen({ port: 0, host: '127.0.0.1' });
  return {
    h,
    url,
    records: { charge, paid, staticQr, paymentLink, balanceBlock, webhook: DEFAULT.webhookId, delivery, cob: TXID, rec, solicRec, cobr },
    owner: owner.consoleToken,
    other: ana.consoleToken,
    otherAccount: ana.accountId,
  };
}

async function call(w: World, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${w.url}/_sandbox${path}`, { method, headers: { 'x-sandbox-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

const held = (w: World) => JSON.stringify(w.h.sb.deps.store.raw.accounts[DEFAULT.accountId]);

// [route, method, path of a record id, body, the kind it acts on, the status its owner's attendee gets]
type Route = [string, string, (id: string) => string, unknown, keyof Records, number];
const routes: Route[] = [
  ['pay a transaction', 'POST', (id) => `/transactions/${id}/pay`, undefined, 'charge', 200],
  ['pay a static QR through /transactions', 'POST', (id) => `/transactions/${id}/pay`, undefined, 'staticQr', 200],
  ['cancel a transaction', 'POST', (id) => `/transactions/${id}/cancel`, undefined, 'charge', 200],
  ['block a payment', 'POST', (id) => `/transactions/${id}/block`, { amount: 1 }, 'paid', 200],
  ['defend a balance block', 'POST', (id) => `/balance-blocks/${id}/defend`, { reason: 'mine' }, 'balanceBlock', 200],
  ['pay a payment link', 'POST', (id) => `/charges/${id}/pay`, undefined, 'paymentLink', 200],
  ['expire a payment link', 'POST', (id) => `/charges/${id}/expire`, undefined, 'paymentLink', 200],
  ['read a delivery', 'GET', (id) => `/deliveries/${id}`, undefined, 'delivery', 200],
  ['replay a delivery', 'POST', (id) => `/deliveries/${id}/replay`, undefined, 'delivery', 201],
  ['delete a webhook endpoint', 'DELETE', (id) => `/webhooks/${id}`, undefined, 'webhook', 200],
  ['pay a cob by txid', 'POST', (id) => `/api-pix/cob/${id}/pay`, undefined, 'cob', 200],
  ['accept a confirmation request', 'POST', (id) => `/api-pix/solicrec/${id}/accept`, undefined, 'solicRec', 200],
  ['cancel a recurrence', 'POST', (id) => `/api-pix/rec/${id}/cancel`, undefined, 'rec', 200],
  ['fail a cobr', 'POST', (id) => `/api-pix/cobr/${id}/fail`, undefined, 'cobr', 200],
];
const KINDS = ['charge', 'paid', 'staticQr', 'paymentLink', 'balanceBlock', 'webhook', 'delivery', 'cob', 'rec', 'solicRec', 'cobr'] as const;

describe("a route that addresses a record by id alone, with an attendee's console token", () => {
  test.each(routes)("%s: a record of any kind another tenant holds is 403 OUTSIDE_ATTENDEE_TENANT and changes nothing", async (_what, method, path, body) => {
    const w = await world();
    onTestFinished(() => w.h.sb.close());
    for (const kind of KINDS) {
      const before = held(w);
      const res = await call(w, w.other, method, path(w.records[kind]), body);
      expect(res.status, `${kind}: ${res.text}`).toBe(403);
      expect(res.body.details.code, res.text).toBe('OUTSIDE_ATTENDEE_TENANT');
      expect(held(w), kind).toBe(before);
    }
  });

  test.each(routes)('%s: the attendee whose tenant holds it gets through', async (_what, method, path, body, kind, status) => {
    const w = await world();
    onTestFinished(() => w.h.sb.close());
    const res = await call(w, w.owner, method, path(w.records[kind]), body);
    expect(res.status, res.text).toBe(status);
  });
});

describe('under /accounts/{own}/, a record of another tenant is not found', () => {
  test.each([
    ["another tenant's credential", (w: World) => `/accounts/${w.otherAccount}/credentials/${DEFAULT.pixOnly.id}/expire-tokens`, 'CREDENTIAL_NOT_FOUND'],
    ["another tenant's cob", (w: World) => `/accounts/${w.otherAccount}/api-pix/cob/${TXID}/pay`, 'COB_NOT_FOUND'],
  ])('%s: 404 and nothing changes', async (_what, path, code) => {
    const w = await world();
    onTestFinished(() => w.h.sb.close());
    const before = held(w);
    const res = await call(w, w.other, 'POST', path(w));
    expect(res.status, res.text).toBe(404);
    expect(res.body.details.code, res.text).toBe(code);
    expect(held(w)).toBe(before);
  });
});

describe('a path segment named like an object built-in', () => {
  const NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];
  // [method, path with N where the name goes]
  const PATHS: Array<[string, string]> = [
    ['GET', '/_sandbox/N/x'],
    ['POST', '/_sandbox/N/x/pay'],
    ['POST', '/_sandbox/transactions/N/pay'],
    ['POST', '/_sandbox/transactions/x/N'],
    ['POST', '/_sandbox/balance-blocks/N/defend'],
    ['POST', '/_sandbox/charges/N/pay'],
    ['GET', '/_sandbox/deliveries/N'],
    ['DELETE', '/_sandbox/webhooks/N'],
    ['GET', '/_sandbox/requests/N'],
    ['POST', '/_sandbox/stories/N'],
    ['POST', '/_sandbox/api-pix/N/x/pay'],
    ['POST', '/_sandbox/api-pix/cob/N/pay'],
    ['POST', '/_sandbox/api-pix/rec/N/cancel'],
    ['GET', '/_sandbox/accounts/N'],
    ['POST', '/_sandbox/accounts/OWN/credentials/N/expire-tokens'],
    ['POST', '/_sandbox/accounts/OWN/api-pix/cob/N/pay'],
    ['GET', '/v2/transactions/N'],
    ['POST', '/v2/transactions/N/refund'],
    ['GET', '/v1/charges/N'],
    ['GET', '/v1/pix/qrcode-static/N'],
    ['GET', '/api-pix/v2/cob/N'],
    ['GET', '/api-pix/v2/rec/N'],
  ];

  test.each(PATHS)('%s %s answers a 4xx in its face\'s envelope, for the presenter and an attendee', async (method, template) => {
    const { h } = await withReceiver({ workshop: true });
    const ana = await joinAs(h, 'Ana');
    const url = await h.sb.listen({ port: 0, host: '127.0.0.1' });
    const bearer = template.startsWith('/v2') ? await h.token(ana.clientId, ana.clientSecret) : template.startsWith('/api-pix') ? await pixToken(h, undefined, ana) : undefined;
    const before = JSON.stringify(h.sb.deps.store.raw.accounts);
    for (const name of NAMES) {
      for (const [who, headers] of [
        ['presenter', {}],
        ['Ana', { 'x-sandbox-token': ana.consoleToken }],
      ] as const) {
        const path = template.replace('N', encodeURIComponent(name)).replace('OWN', ana.accountId);
        const auth: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : template.startsWith('/v1') ? { 'x-api-key': h.sb.deps.store.raw.accounts[ana.accountId]!.apiKeys[0]!.key } : {};
        const res = await fetch(`${url}${path}`, { method, headers: { ...headers, ...auth, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) }, body: method === 'GET' ? undefined : '{}' });
        const text = await res.text();
        expect(res.status, `${who} ${method} ${path}: ${text}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${who} ${method} ${path}: ${text}`).toBeLessThan(500);
        const body = JSON.parse(text);
        if (path.startsWith('/api-pix/')) expect(body, text).toMatchObject({ type: expect.any(String), title: expect.any(String), status: res.status });
        else expect(body, text).toMatchObject({ statusCode: res.status, message: expect.any(String), traceId: expect.any(String), details: { code: expect.any(String) } });
      }
    }
    expect(JSON.stringify(h.sb.deps.store.raw.accounts)).toBe(before);
  });
});

describe('a stream filtered to one account', () => {
  test('carries the control requests about its records and none about another tenant\'s', async () => {
    const { h } = await withReceiver({ workshop: true });
    const ana = await joinAs(h, 'Ana');
    const url = await h.sb.listen({ port: 0, host: '127.0.0.1' });
    const charge = async (token: string) => (await h.api('POST', '/v2/pix', { token, body: { amount: 10, description: 'stream' } })).body.id as string;
    const theirs = await charge(await h.token());
    const mine = await charge(await h.token(ana.clientId, ana.clientSecret));
    const controller = new AbortController();
    onTestFinished(() => controller.abort());
    const res = await fetch(`${url}/_sandbox/stream?accountId=${ana.accountId}`, { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(': connected')) text += decoder.decode((await reader.read()).value, { stream: true });
    // The presenter acts on the other tenant's charge first, then on Ana's: the stream must skip the first.
    expect((await fetch(`${url}/_sandbox/transactions/${theirs}/pay`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${url}/_sandbox/transactions/${mine}/pay`, { method: 'POST' })).status).toBe(200);
    while (!text.includes(`"path":"/_sandbox/transactions/${mine}/pay"`)) text += decoder.decode((await reader.read()).value, { stream: true });
    const messages = text.split('\n\n').filter((m) => m.startsWith('event:'));
    const requests = messages.filter((m) => m.startsWith('event: request'));
    // (Ana's own /v2 requests made before it opened may come in its first batch: they are hers.)
    expect(requests.map((m) => JSON.parse(m.split('\ndata: ')[1]!).path).filter((p: string) => p.startsWith('/_sandbox/'))).toEqual([`/_sandbox/transactions/${mine}/pay`]);
    expect(text).not.toContain(theirs);
    expect(text).not.toContain(DEFAULT.accountId);
    for (const m of messages.filter((m) => !m.startsWith('event: clock'))) expect(m).toContain(`"accountId":"${ana.accountId}"`);
  });
});
