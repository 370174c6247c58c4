// The doors of joining a workshop room (sandbox.md 5.2), on a real port: joining takes the room's code, which the
// projector's join URL carries; one address joins at a bounded rate (429 with Retry-After past it) while the presenter
// adds attendees in bulk through the control API; the join cookie's value is always the sandbox's. No sleeps: the
// join rate's refill is shown by moving Date (the bucket reads real time, not the sandbox clock).
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness';
import { killLeftovers, startCli } from '../foundation/process';
import { addressKey } from '../../src/lib/token-bucket';
import { JOIN_BURST } from '../../src/pages/join';
import type { SandboxOptions } from '../../src/config';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

interface Room {
  h: Harness;
  url: string;
  code: string;
  get(path: string, cookie?: string): Promise<Answer>;
  join(form: Record<string, string>, cookie?: string): Promise<Answer>;
  control(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  attendees(): number;
  accounts(): number;
}

const open: Harness[] = [];
afterEach(async () => {
  vi.useRealTimers();
  killLeftovers();
  for (const h of open.splice(0)) await h.sb.close();
});

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

async function room(options: SandboxOptions = {}): Promise<Room> {
  const h = await startHarness({ workshop: true, ...options });
  open.push(h);
  const url = await h.sb.listen({ port: 0 });
  const cookieHeader = (cookie?: string): Record<string, string> => (cookie ? { cookie } : {});
  return {
    h,
    url,
    code: h.sb.deps.workshop.code!,
    get: async (path, cookie) => answer(await fetch(`${url}${path}`, { headers: cookieHeader(cookie) })),
    join: async (form, cookie) =>
      answer(await fetch(`${url}/join`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...cookieHeader(cookie) }, body: new URLSearchParams(form).toString() })),
    control: async (method, path, body, headers = {}) =>
      answer(await fetch(`${url}/_sandbox${path}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })),
    attendees: () => h.sb.deps.workshop.attendees.length,
    accounts: () => Object.keys(h.sb.deps.store.raw.accounts).length,
  };
}

/** A page's text with JSX's escapes of quotes undone, to look for sentences in it. */
const shown = (html: string) => html.replaceAll('&#39;', "'").replaceAll('&quot;', '"');
const field = (html: string, id: string) => html.match(new RegExp(`id="${id}">([^<]*)<`))?.[1];
/** The join cookie an answer sets, as `name=value`. */
const setCookieOf = (res: Answer) => (res.headers.get('set-cookie') ?? '').split(';')[0]!;

describe("joining takes the room's code", () => {
  test('the room shows its code, and its join URL carries it', async () => {
    const r = await room();
    expect(r.code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    const shown = await r.control('GET', '/workshop');
    expect(shown.body.code).toBe(r.code);
    expect(shown.body.joinUrl).toBe(`${r.url}/join?code=${r.code}`);
    const panel = await r.get('/');
    expect(panel.text).toMatch(new RegExp(`href="[^"]*/join\\?code=${r.code}"`)); // this machine's address on loopback
  });

  test("--workshop: the banner's workshop line is the join URL with the room's code", async () => {
    const cli = await startCli(['--port', '0', '--workshop']);
    try {
      const line = cli.stdout().match(/^ {2}workshop {4}join at (\S+) {2}\(room code ([A-Z0-9]{6})\)$/m);
      expect(line, cli.stdout()).not.toBeNull();
      const opened = (await fetch(`${cli.url}/_sandbox/workshop`).then((res) => res.json())) as { code: string };
      expect(line![1]).toBe(`${cli.url}/join?code=${opened.code}`);
      expect(line![2]).toBe(opened.code);
    } finally {
      await cli.stop();
    }
  });

  test.each([
    ['no code', 200, '', undefined],
    ['a wrong code', 403, '?code=WRONG2', "not this room's code"],
  ])('GET /join with %s answers %i: a page that says where the code is, with a field to type it', async (_what, status, query, message) => {
    const r = await room();
    const page = await r.get(`/join${query}`);
    expect(page.status, page.text).toBe(status);
    expect(shown(page.text)).toContain("Joining takes the room's code");
    expect(shown(page.text)).toContain("presenter's screen");
    expect(page.text).toContain('ask the presenter');
    expect(page.text).toContain('id="join-code"');
    if (message) expect(shown(page.text)).toContain(message);
    expect(r.attendees()).toBe(0);
  });

  test.each([
    ['as the QR carries it', (code: string) => code],
    ['typed in lower case with a space and a dash', (code: string) => ` ${code.slice(0, 3).toLowerCase()}-${code.slice(3)} `],
  ])('GET /join with the code %s is the name form, the code carried along', async (_what, typed) => {
    const r = await room();
    const page = await r.get(`/join?code=${encodeURIComponent(typed(r.code))}`);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('id="join-name"');
    expect(page.text).not.toContain('id="join-code"');
    const joined = await r.join({ code: typed(r.code), name: 'Ana' });
    expect(joined.status, joined.text).toBe(200);
    expect(field(joined.text, 'attendee-name')).toBe('Ana');
  });

  test.each([
    ['no code field', (_code: string) => ({ name: 'Ana' }), "Type the room's code"],
    ['an empty code', (_code: string) => ({ code: '', name: 'Ana' }), "Type the room's code"],
    ['a wrong code', (_code: string) => ({ code: 'ZZZZZZ', name: 'Ana' }), "not this room's code"],
    ['the code with a character more', (code: string) => ({ code: `${code}X`, name: 'Ana' }), "not this room's code"],
    ['six characters, one of them of two bytes', (_code: string) => ({ code: 'ÄBCDEF', name: 'Ana' }), "not this room's code"],
  ])('POST /join with %s is 403 with the form and where the code is, and nothing is made', async (_what, form, message) => {
    const r = await room();
    const accounts = r.accounts();
    const res = await r.join(form(r.code));
    expect(res.status, res.text).toBe(403);
    expect(shown(res.text)).toContain(message);
    expect(res.text).toContain('id="join-code"');
    expect(res.text).not.toContain('id="client-id"');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(r.attendees()).toBe(0);
    expect(r.accounts()).toBe(accounts);
  });

  test("an ended workshop's code opens nothing; the next workshop has a code of its own", async () => {
    const r = await room();
    expect((await r.control('DELETE', '/workshop')).status).toBe(200);
    expect((await r.control('GET', '/workshop')).body).toMatchObject({ code: null, joinUrl: `${r.url}/join` });
    const reopened = await r.control('POST', '/workshop');
    expect(reopened.body.code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    // Opening again while it runs keeps the code the projector shows.
    expect((await r.control('POST', '/workshop')).body.code).toBe(reopened.body.code);
    if (reopened.body.code !== r.code) expect((await r.join({ code: r.code, name: 'Late' })).status).toBe(403);
    expect((await r.join({ code: reopened.body.code, name: 'Ana' })).status).toBe(200);
  });
});

describe('one address joins at a bounded rate', () => {
  // Real time stands still unless a test moves it: the bound's refill must not depend on how fast the machine is.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  });

  test(`a burst from one address past ${JOIN_BURST} is 429 with Retry-After, and the room is not filled`, async () => {
    const r = await room();
    for (let i = 0; i < JOIN_BURST; i++) {
      const res = await r.join({ code: r.code, name: `Bot ${i}` });
      expect(res.status, `join #${i + 1}: ${res.text.slice(0, 300)}`).toBe(200);
    }
    const accounts = r.accounts();
    const past = await r.join({ code: r.code, name: 'Bot past' });
    expect(past.status, past.text).toBe(429);
    expect(past.headers.get('retry-after')).toBe('1');
    expect(past.text).toContain('press Join again in 1 second');
    expect(past.headers.get('set-cookie')).toBeNull();
    expect(r.attendees()).toBe(JOIN_BURST);
    expect(r.accounts()).toBe(accounts);
    expect(r.attendees()).toBeLessThan(r.h.sb.deps.workshop.max);
    // A wrong code in the address costs a token too: no free guesses.
    expect((await r.get('/join?code=ZZZZZZ')).status).toBe(429);
    // A second later there is one join more, and then none again.
    vi.setSystemTime(Date.now() + 1000);
    expect((await r.join({ code: r.code, name: 'One more' })).status).toBe(200);
    expect((await r.join({ code: r.code, name: 'Two more' })).status).toBe(429);
    expect(r.attendees()).toBe(JOIN_BURST + 1);
  });

  test('wrong codes spend the same bound: past it, even the right code waits', async () => {
    const r = await room();
    for (let i = 0; i < JOIN_BURST; i++) expect((await r.join({ code: `GUESS${i}`, name: 'Bot' })).status).toBe(403);
    const right = await r.join({ code: r.code, name: 'Bot' });
    expect(right.status, right.text).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.attendees()).toBe(0);
  });

  test('a browser that joined already is never held back: it gets its tenant again', async () => {
    const r = await room();
    const first = await r.join({ code: r.code, name: 'Ana' });
    const cookie = setCookieOf(first);
    for (let i = 1; i < JOIN_BURST; i++) await r.join({ code: 'WRONG', name: 'Bot' });
    expect((await r.join({ code: r.code, name: 'Bot' })).status).toBe(429);
    const again = await r.join({ name: 'Ana again' }, cookie);
    expect(again.status, again.text).toBe(200);
    expect(field(again.text, 'account-id')).toBe(field(first.text, 'account-id'));
  });

  test.skipIf(process.platform !== 'linux')('another address is not held back by the first one', async () => {
    const r = await room();
    for (let i = 0; i < JOIN_BURST; i++) await r.join({ code: 'WRONG', name: 'Bot' });
    expect((await r.join({ code: r.code, name: 'Bot' })).status).toBe(429);
    // Linux routes all of 127.0.0.0/8 to the loopback: this is another client address.
    const { port } = new URL(r.url);
    const status = await new Promise<number>((resolve, reject) => {
      const body = new URLSearchParams({ code: r.code, name: 'Neighbour' }).toString();
      const req = request({ host: '127.0.0.1', port, localAddress: '127.0.0.2', method: 'POST', path: '/join', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    expect(r.attendees()).toBe(1);
  });

  test.each([
    ['an IPv4 address', '127.0.0.1', '127.0.0.1'],
    ['an IPv4-mapped IPv6 address', '::ffff:192.168.0.7', '192.168.0.7'],
    ['the IPv6 loopback', '::1', '0:0:0:0::/64'],
    ['an IPv6 address, by its /64', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['another address of the same /64', '2001:0db8:0001:0002::9', '2001:db8:1:2::/64'],
    ['a link-local address with its zone', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('the join rate is kept per address: %s (%s) is %s', (_what, address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});

describe('the presenter adds attendees in bulk', () => {
  test('the same burst as a bulk add fills the room, with each attendee\'s console link and credentials', async () => {
    const max = JOIN_BURST + 10;
    const r = await room({ workshopMax: max, adminToken: 'presenter-secret' });
    const admin = { 'x-sandbox-token': 'presenter-secret' };
    expect((await r.control('POST', '/workshop/attendees', { count: max })).status).toBe(401);
    expect(r.attendees()).toBe(0);
    const added = await r.control('POST', '/workshop/attendees', { count: max }, admin);
    expect(added.status, added.text.slice(0, 300)).toBe(201);
    expect(added.body.attendees).toHaveLength(max);
    const [first] = added.body.attendees;
    expect(first).toMatchObject({ name: 'Attendee 1', consoleUrl: expect.stringMatching(/\/\?attendee=/), viewUrl: expect.stringMatching(/\/\?attendee=/), apiKey: expect.any(String), webhookSecret: expect.any(String) });
    expect(r.attendees()).toBe(max);
    // Their credentials and console link work.
    const token = await r.h.token(first.clientId, first.clientSecret);
    expect((await r.h.api('GET', '/v2/account', { token })).status).toBe(200);
    const console = await r.get(new URL(first.consoleUrl).pathname + new URL(first.consoleUrl).search);
    expect(console.status).toBe(200);
    expect(console.text).toContain('Your tenant, Attendee 1');
    // The room is full: the next attendee is told so.
    const next = await r.join({ code: r.code, name: 'Late' });
    expect(next.status, next.text).toBe(409);
    expect(next.text).toContain('full');
  });

  test('names, whether joining is open or not; numbered ones follow the attendees there are', async () => {
    const r = await room();
    expect((await r.control('PATCH', '/workshop', { open: false })).status).toBe(200);
    const named = await r.control('POST', '/workshop/attendees', { names: [' Ana ', 'Bruno'] });
    expect(named.status, named.text).toBe(201);
    expect(named.body.attendees.map((a: { name: string }) => a.name)).toEqual(['Ana', 'Bruno']);
    const counted = await r.control('POST', '/workshop/attendees', { count: 1 });
    expect(counted.body.attendees[0].name).toBe('Attendee 3');
    const shown = await r.control('GET', '/workshop');
    expect(shown.body.attendees.map((a: { name: string }) => a.name)).toEqual(['Ana', 'Bruno', 'Attendee 3']);
  });

  test.each([
    ['an empty body', 400, 'VALIDATION_ERROR', {}, 'names or count, exactly one of the two'],
    ['both names and count', 400, 'VALIDATION_ERROR', { names: ['Ana'], count: 1 }, 'one of the two'],
    ['an empty list', 400, 'VALIDATION_ERROR', { names: [] }, 'names'],
    ['a name of spaces', 400, 'VALIDATION_ERROR', { names: ['Ana', '  '] }, 'names[1]'],
    ['a count of 0', 400, 'VALIDATION_ERROR', { count: 0 }, 'count'],
    ['a count as text', 400, 'VALIDATION_ERROR', { count: '3' }, 'count'],
    ['more than the places left', 409, 'WORKSHOP_FULL', { count: 4 }, '3 places left'],
  ])('%s is %i %s in the envelope, and no attendee is added', async (_what, status, code, body, message) => {
    const r = await room({ workshopMax: 3 });
    const accounts = r.accounts();
    const res = await r.control('POST', '/workshop/attendees', body);
    expect(res.status, res.text).toBe(status);
    expect(res.body).toMatchObject({ statusCode: status, details: { code } });
    expect(res.body.message, res.text).toContain(message);
    expect(r.attendees()).toBe(0);
    expect(r.accounts()).toBe(accounts);
  });

  test('no workshop running: 409 WORKSHOP_NOT_STARTED, and nothing is made', async () => {
    const r = await room({ workshop: false });
    const accounts = r.accounts();
    const res = await r.control('POST', '/workshop/attendees', { count: 2 });
    expect(res.status, res.text).toBe(409);
    expect(res.body.details.code).toBe('WORKSHOP_NOT_STARTED');
    expect(r.accounts()).toBe(accounts);
  });
});

describe("the join cookie's value is always the sandbox's", () => {
  test('a cookie chosen by the client is replaced, holds no tenant, and opens nothing later', async () => {
    const r = await room();
    const chosen = 'pix_sandbox_attendee=chosen-0001';
    const res = await r.join({ code: r.code, name: 'Mallory' }, chosen);
    expect(res.status, res.text).toBe(200);
    const made = setCookieOf(res);
    expect(made).toMatch(/^pix_sandbox_attendee=[A-Za-z0-9_-]{24}$/);
    expect(made).not.toBe(chosen);
    expect(r.h.sb.deps.workshop.attendees.map((a) => a.browser)).not.toContain('chosen-0001');
    // Whoever later sends the chosen value gets no credentials and no console of anyone's.
    const later = await r.get('/join', chosen);
    expect(later.text).not.toContain('id="client-id"');
    expect(later.text).toContain('id="join-code"');
    expect((await r.get('/pay', chosen)).text).not.toContain('data-attendee-token');
    // The sandbox's value is the one that brings the tenant back.
    const mine = await r.get('/join', made);
    expect(field(mine.text, 'account-id')).toBe(field(res.text, 'account-id'));
  });

  test('the same browser rejoining keeps its tenant, and nothing new is made', async () => {
    const r = await room();
    const first = await r.join({ code: r.code, name: 'Bia' });
    const cookie = setCookieOf(first);
    const accounts = r.accounts();
    const again = await r.join({ code: r.code, name: 'Bia again' }, cookie);
    expect(again.status, again.text).toBe(200);
    expect(field(again.text, 'account-id')).toBe(field(first.text, 'account-id'));
    expect(r.accounts()).toBe(accounts);
    expect(r.attendees()).toBe(1);
  });

  test("a browser whose tenant a reset took joins anew under a new value, and that value brings the new tenant", async () => {
    const r = await room();
    const first = await r.join({ code: r.code, name: 'Caio' });
    expect((await r.control('POST', '/reset')).status).toBe(200);
    const again = await r.join({ code: r.code, name: 'Caio' }, setCookieOf(first));
    expect(again.status, again.text).toBe(200);
    const renewed = setCookieOf(again);
    expect(renewed).not.toBe(setCookieOf(first));
    expect(field((await r.get('/join', renewed)).text, 'account-id')).toBe(field(again.text, 'account-id'));
  });
});
