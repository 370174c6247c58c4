// The doors of a workshop room (sandbox.md 5.2): an attendee's console token reaches their own tenant only, on the
// control API, the stream, the pages and the request log; a read-only view token only looks; a forged token, another
// attendee's and one whose workshop ended are refused, and a refused call changes nothing. Names are text everywhere.
import { describe, expect, test } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness';
import { joinAs, withToken, type Joined } from '../helpers/workshop';

interface Room {
  h: Harness;
  ana: Joined;
  bia: Joined;
  /** A pending charge of each. */
  charges: { ana: string; bia: string };
  /** A logged request of each (their charge's POST). */
  requests: { ana: string; bia: string };
}

async function chargeOf(h: Harness, who: Joined): Promise<string> {
  const token = await h.token(who.clientId, who.clientSecret);
  const res = await h.api('POST', '/v2/pix', { token, body: { amount: 10, description: `charge of ${who.name}` } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function room(options: { adminToken?: string } = {}): Promise<Room> {
  const h = await startHarness({ workshop: true, ...options });
  const ana = await joinAs(h, 'Ana');
  const bia = await joinAs(h, 'Bia');
  const charges = { ana: await chargeOf(h, ana), bia: await chargeOf(h, bia) };
  const logged = (who: Joined) => h.sb.deps.requestLog.list(who.accountId, {}, { limit: 50 }).items.find((e) => e.method === 'POST' && e.path === '/v2/pix')!.id;
  return { h, ana, bia, charges, requests: { ana: logged(ana), bia: logged(bia) } };
}

/** What a refused call must have left alone: every tenant, the room, Bia's charge. */
async function snapshot(r: Room) {
  const state = r.h.sb.deps.store.raw;
  return JSON.stringify({ accounts: Object.keys(state.accounts).sort(), bia: state.accounts[r.bia.accountId]!.transactions[r.charges.bia]!.status, attendees: r.h.sb.deps.workshop.attendees.length, faults: (await r.h.control('GET', '/faults')).body });
}

describe("an attendee's console token", () => {
  // [what, method, status for Ana's token, path (on Ana's tenant or Bia's), body]
  const cases: Array<[string, string, number, (r: Room) => string, ((r: Room) => unknown)?]> = [
    ['their account', 'GET', 200, (r) => `/accounts/${r.ana.accountId}`],
    ["another tenant's account", 'GET', 403, (r) => `/accounts/${r.bia.accountId}`],
    ['their transactions', 'GET', 200, (r) => `/accounts/${r.ana.accountId}/transactions`],
    ["another tenant's transactions", 'GET', 403, (r) => `/accounts/${r.bia.accountId}/transactions`],
    ['their deliveries', 'GET', 200, (r) => `/accounts/${r.ana.accountId}/deliveries`],
    ["another tenant's deliveries", 'GET', 403, (r) => `/accounts/${r.bia.accountId}/deliveries`],
    ['their request log', 'GET', 200, (r) => `/accounts/${r.ana.accountId}/requests`],
    ["another tenant's request log", 'GET', 403, (r) => `/accounts/${r.bia.accountId}/requests`],
    ['a request of theirs', 'GET', 200, (r) => `/requests/${r.requests.ana}`],
    ["another tenant's request", 'GET', 403, (r) => `/requests/${r.requests.bia}`],
    ['the sandbox-wide request log', 'GET', 403, () => '/requests'],
    ['their clock', 'POST', 200, (r) => `/accounts/${r.ana.accountId}/clock/advance`, () => ({ seconds: 60 })],
    ["another tenant's clock", 'POST', 403, (r) => `/accounts/${r.bia.accountId}/clock/advance`, () => ({ seconds: 60 })],
    ['paying their charge', 'POST', 200, (r) => `/transactions/${r.charges.ana}/pay`],
    ["paying another tenant's charge", 'POST', 403, (r) => `/transactions/${r.charges.bia}/pay`],
    ['a story on their tenant', 'POST', 200, () => '/stories/paid-charge', (r) => ({ accountId: r.ana.accountId, stepDelayMs: 0 })],
    ["a story on another tenant's", 'POST', 403, () => '/stories/paid-charge', (r) => ({ accountId: r.bia.accountId, stepDelayMs: 0 })],
    ['a story naming no tenant', 'POST', 403, () => '/stories/paid-charge', () => ({ stepDelayMs: 0 })],
    ['their console', 'GET', 200, () => '/console'],
    ["another tenant's console", 'GET', 403, (r) => `/console?account=${r.bia.accountId}`],
    ['deleting their own tenant', 'DELETE', 403, (r) => `/accounts/${r.ana.accountId}`],
    ['the account list', 'GET', 403, () => '/accounts'],
    ['a new account', 'POST', 403, () => '/accounts', () => ({ name: 'mine' })],
    ['a reset', 'POST', 403, () => '/reset'],
    ['API faults', 'PUT', 403, () => '/faults', () => ({ rules: [{ method: 'POST', path: '/v2/pix', status: 503 }] })],
    ['the sandbox clock', 'POST', 403, () => '/clock/advance', () => ({ seconds: 60 })],
    ['the room', 'GET', 403, () => '/workshop'],
    ['the room as CSV', 'GET', 403, () => '/workshop/room.csv'],
    ['closing joining', 'PATCH', 403, () => '/workshop', () => ({ open: false })],
    ['ending the workshop', 'DELETE', 403, () => '/workshop'],
    ['health', 'GET', 403, () => '/health'],
    ['an account id that does not percent-decode', 'GET', 403, () => '/accounts/%E0%A4%A'],
    ['a request id that does not percent-decode', 'GET', 404, () => '/requests/%'],
  ];

  test.each(cases)('%s: %s answers %i (a 403 is OUTSIDE_ATTENDEE_TENANT and changes nothing)', async (_what, method, status, path, body) => {
    const r = await room();
    const before = await snapshot(r);
    const res = await withToken(r.h, r.ana.consoleToken, method, path(r), body?.(r));
    expect(res.status, res.text).toBe(status);
    if (status === 403) {
      expect(res.body.details?.code, res.text).toBe('OUTSIDE_ATTENDEE_TENANT');
      expect(res.text).toContain('Ana');
      expect(await snapshot(r)).toBe(before);
    }
  });

  test("another attendee's token is refused on the first one's tenant, and the admin still reaches both", async () => {
    const r = await room({ adminToken: 'presenter-secret' });
    expect((await withToken(r.h, r.bia.consoleToken, 'POST', `/transactions/${r.charges.ana}/pay`)).status).toBe(403);
    expect((await withToken(r.h, r.bia.consoleToken, 'GET', `/accounts/${r.ana.accountId}/transactions`)).status).toBe(403);
    expect((await withToken(r.h, 'presenter-secret', 'GET', `/accounts/${r.ana.accountId}/transactions`)).status).toBe(200);
    // With an admin token set, an attendee pays their own charge (what /pay does) with their console token alone.
    const paid = await withToken(r.h, r.ana.consoleToken, 'POST', `/transactions/${r.charges.ana}/pay`);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.status).toBe('completed');
    expect((await withToken(r.h, r.ana.consoleToken, 'POST', '/brcodes/decode', { code: 'not a code' })).status).toBe(200); // /pay checks a code first
  });

  test.each([
    ['a forged token', 401, 'not valid here', async (_r: Room) => 'forged-token-of-nobody'],
    ['a token of a workshop that ended', 410, 'The workshop has ended', async (r: Room) => {
      expect((await r.h.control('DELETE', '/workshop')).status).toBe(200);
      return r.ana.consoleToken;
    }],
  ])('%s is 401 on the control API and the stream; the console page says why (%i)', async (_what, pageStatus, words, tokenOf) => {
    const r = await room();
    const token = await tokenOf(r);
    const accounts = Object.keys(r.h.sb.deps.store.raw.accounts).length;
    for (const [method, path] of [['GET', `/accounts/${r.ana.accountId}`], ['POST', `/transactions/${r.charges.ana}/pay`], ['GET', '/console']] as const) {
      const res = await withToken(r.h, token, method, path);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(401);
      expect(res.body.details?.code).toBe('UNAUTHORIZED');
    }
    expect((await r.h.api('GET', `/_sandbox/stream?token=${token}`)).status).toBe(401);
    const page = await r.h.sb.app.request(`/?attendee=${token}`);
    expect(page.status).toBe(pageStatus);
    expect(await page.text()).toContain(words);
    expect(Object.keys(r.h.sb.deps.store.raw.accounts).length).toBe(accounts);
  });

  test('a read-only view token looks at the tenant (GETs) and changes nothing', async () => {
    const r = await room();
    expect((await withToken(r.h, r.ana.viewToken, 'GET', `/accounts/${r.ana.accountId}/transactions`)).status).toBe(200);
    expect((await withToken(r.h, r.ana.viewToken, 'GET', `/accounts/${r.bia.accountId}/transactions`)).status).toBe(403);
    const pay = await withToken(r.h, r.ana.viewToken, 'POST', `/transactions/${r.charges.ana}/pay`);
    expect(pay.status, pay.text).toBe(403);
    expect(pay.body.details?.code).toBe('READ_ONLY_CONSOLE');
    expect(r.h.sb.deps.store.raw.accounts[r.ana.accountId]!.transactions[r.charges.ana]!.status).toBe('pending');
    const page = await r.h.sb.app.request(`/?attendee=${r.ana.viewToken}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Ana&#39;s console (read-only)");
    expect(html).toContain('data-attendee-console="read-only"');
  });
});

describe("an attendee's stream", () => {
  test("carries their tenant's changes only, their logged requests included, whatever account it asks for", async () => {
    const r = await room();
    const stream = await r.h.sb.app.request(`/_sandbox/stream?token=${r.ana.consoleToken}`);
    expect(stream.status).toBe(200);
    expect((await withToken(r.h, r.ana.consoleToken, 'GET', `/stream?accountId=${r.bia.accountId}`)).status).toBe(403);
    const reader = stream.body!.getReader();
    // Bia's changes first, then Ana's: the stream must skip the first and bring the second.
    await chargeOf(r.h, r.bia);
    const anaCharge = await chargeOf(r.h, r.ana);
    let text = '';
    const decoder = new TextDecoder();
    while (!(text.includes(anaCharge) && text.includes('event: request'))) text += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    expect(text).toContain(r.ana.accountId);
    expect(text).not.toContain(r.bia.accountId);
    const requests = text.split('\n\n').filter((m) => m.startsWith('event: request'));
    expect(requests.length).toBeGreaterThan(0);
    for (const m of requests) expect(m).toContain(`"accountId":"${r.ana.accountId}"`);
  });
});

describe("an attendee's pages", () => {
  test('their console link shows their tenant only: no other tenant, no account picker, no reset, no API faults', async () => {
    const r = await room({ adminToken: 'presenter-secret' });
    const res = await r.h.sb.app.request(`/?attendee=${r.ana.consoleToken}`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain(r.ana.accountId);
    expect(html).toContain('Your tenant, Ana');
    for (const absent of [r.bia.accountId, '11111111-1111-4111-8111-111111111111', 'id="pick-account"', 'id="reset-menu"', '/_sandbox/faults', 'id="room"', 'id="token-form"'])
      expect(html, absent).not.toContain(absent);
    expect(html).toContain(`data-attendee-token="${r.ana.consoleToken}"`);
    expect((await r.h.sb.app.request(`/?attendee=${r.ana.consoleToken}&account=${r.bia.accountId}`)).status).toBe(403);
  });

  test('the browser they joined from opens their console at / and their /pay with their token', async () => {
    const r = await room();
    const page = await (await r.h.sb.app.request('/', { headers: { cookie: r.bia.cookie } })).text();
    expect(page).toContain('Your tenant, Bia');
    expect(page).not.toContain(r.ana.accountId);
    const pay = await (await r.h.sb.app.request('/pay', { headers: { cookie: r.bia.cookie } })).text();
    expect(pay).toContain(`data-attendee-token="${r.bia.consoleToken}"`);
    // The presenter's browser (no cookie) keeps the whole console, with the room.
    const presenter = await (await r.h.sb.app.request('/')).text();
    expect(presenter).toContain('id="pick-account"');
    expect(presenter).toContain('id="room-h"');
  });
});

describe('a name of up to 60 characters is text everywhere', () => {
  const names = [
    ['markup', '<img src=x onerror=alert(1)>"&\'</td>'],
    ['a spreadsheet formula', '=HYPERLINK("http://evil.example","click")'],
    ['a plus', '+1+1'],
    ['a minus', '-2+3'],
    ['an at', '@SUM(A1:A2)'],
    ['60 characters', `<b>${'x'.repeat(53)}</b>`],
  ];
  test.each(names)('%s: the room panel, the CSV and their console escape it', async (_what, name) => {
    const h = await startHarness({ workshop: true });
    const who = await joinAs(h, name);
    const escaped = name.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
    const presenter = await (await h.sb.app.request('/')).text();
    const own = await (await h.sb.app.request(`/?attendee=${who.consoleToken}`)).text();
    for (const html of [presenter, own]) {
      if (/[<>]/.test(name)) expect(html).not.toContain(name);
      expect(html).toContain(escaped);
    }
    const csv = await h.control('GET', '/workshop/room.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const row = csv.text.split('\r\n')[1]!;
    const cell = /^[=+\-@]/.test(name) ? `"'${name.replaceAll('"', '""')}"` : /[",']/.test(name) ? `"${name.replaceAll('"', '""')}"` : name;
    expect(row.startsWith(`${cell},${who.accountId},`), row).toBe(true);
  });
});

test("a console link whose tenant a reset took says so; the browser's / too, until it forgets it joined", async () => {
  const h = await startHarness({ workshop: true });
  const ana = await joinAs(h, 'Ana');
  expect((await h.control('POST', '/reset')).status).toBe(200);
  for (const page of [await h.sb.app.request(`/?attendee=${ana.consoleToken}`), await h.sb.app.request('/', { headers: { cookie: ana.cookie } })]) {
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('<h1>The sandbox was reset</h1>');
  }
  // The presenter who tried joining from their own browser gets the whole console back.
  const forget = await h.sb.app.request('/join/forget', { method: 'POST', headers: { cookie: ana.cookie } });
  expect(forget.status).toBe(303);
  expect(forget.headers.get('set-cookie')).toMatch(/^pix_sandbox_attendee=;.*Max-Age=0/);
  expect((await h.sb.app.request('/')).status).toBe(200);
  // The reset took Ana off the room with her tenant: her token names no one now.
  expect((await withToken(h, ana.consoleToken, 'GET', `/accounts/${ana.accountId}`)).status).toBe(401);
  expect((await h.control('GET', '/workshop')).body.attendees).toEqual([]);
});
