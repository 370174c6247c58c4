// The workshop room, joining (sandbox.md 5.2): /join makes a tenant per attendee from the template, shows its
// credentials, and gives the same browser the same tenant; a closed workshop, a full room and a bad name are refused
// and change nothing. /_sandbox/workshop opens, closes and ends it behind the admin token.
import { describe, expect, test } from 'vitest';
import { startHarness, T0, type Harness } from '../helpers/harness';

/** Joins with the running room's code (what the projector's join URL carries). */
async function join(h: Harness, name: string, cookie?: string) {
  const res = await h.sb.app.request('/join', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ code: h.sb.deps.workshop.code ?? '', name }).toString(),
  });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { status: res.status, html: await res.text(), cookie: setCookie.split(';')[0] || cookie };
}
async function accountCount(h: Harness): Promise<number> {
  const { body } = await h.control('GET', '/accounts');
  expect(Array.isArray(body.items)).toBe(true);
  return body.items.length;
}
const field = (html: string, id: string) => html.match(new RegExp(`id="${id}">([^<]*)<`))?.[1];

describe('joining a workshop', () => {
  test('an attendee gets a tenant of their own with a clock of its own, and the page shows its credentials filled in', async () => {
    const h = await startHarness({ workshop: true });
    const before = await accountCount(h);
    const { status, html, cookie } = await join(h, 'Ana');
    expect(status).toBe(200);
    expect(cookie).toMatch(/^pix_sandbox_attendee=/);
    const accountId = field(html, 'account-id')!;
    const clientId = field(html, 'client-id')!;
    const clientSecret = field(html, 'client-secret')!;
    expect(await accountCount(h)).toBe(before + 1);
    for (const id of ['api-key', 'webhook-secret', 'base-v2']) expect(field(html, id)).toBeTruthy();
    expect(html).toContain(clientId);
    for (const snippet of ['snippet-curl', 'snippet-node', 'snippet-python', 'snippet-php']) expect(html).toContain(`id="${snippet}"`);
    // The credentials work, on the attendee's own tenant.
    const token = await h.token(clientId, clientSecret);
    const account = await h.api('GET', '/v2/account', { token });
    expect(account.status).toBe(200);
    const tenant = await h.control('GET', `/accounts/${accountId}`);
    expect(tenant.body.name).toBe('Ana');
    // A clock of its own: moving it moves nobody else's.
    expect((await h.control('POST', `/accounts/${accountId}/clock/advance`, { seconds: 3600 })).status).toBe(200);
    expect((await h.control('GET', '/clock')).body.now).toBe(T0);
    // The room lists them.
    const room = await h.control('GET', '/workshop');
    expect(room.body).toMatchObject({ started: true, open: true, max: 200, attendees: [{ name: 'Ana', accountId }] });
    expect(room.body.attendees[0].consoleUrl).toMatch(/\/\?attendee=/);
  });

  test('the same browser joining again gets the same tenant, and nothing new is made', async () => {
    const h = await startHarness({ workshop: true });
    const first = await join(h, 'Bia');
    const count = await accountCount(h);
    const again = await join(h, 'Bia again', first.cookie);
    expect(field(again.html, 'account-id')).toBe(field(first.html, 'account-id'));
    expect(await accountCount(h)).toBe(count);
    const shown = await h.sb.app.request('/join', { headers: { cookie: first.cookie! } });
    expect(field(await shown.text(), 'account-id')).toBe(field(first.html, 'account-id'));
  });

  test('a name is text everywhere: markup in it is escaped', async () => {
    const h = await startHarness({ workshop: true });
    const { html } = await join(h, '<script>alert(1)</script>');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test.each([
    ['an empty name', '', 400],
    ['only spaces', '   ', 400],
    ['61 characters', 'x'.repeat(61), 400],
  ])('%s is refused with the form again, and nothing changes', async (_what, name, status) => {
    const h = await startHarness({ workshop: true });
    const before = await accountCount(h);
    const res = await join(h, name);
    expect(res.status).toBe(status);
    expect(res.html).toContain('1 to 60 characters');
    expect(await accountCount(h)).toBe(before);
    expect((await h.control('GET', '/workshop')).body.attendees).toEqual([]);
  });

  test('60 characters are taken', async () => {
    const h = await startHarness({ workshop: true });
    expect((await join(h, 'é'.repeat(60))).status).toBe(200);
  });

  test('no workshop, or joining closed: the page says so and nothing changes', async () => {
    const h = await startHarness();
    const before = await accountCount(h);
    const page = await h.sb.app.request('/join');
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('No workshop is running');
    expect((await join(h, 'Caio')).status).toBe(403);
    expect((await h.control('POST', '/workshop')).body.open).toBe(true);
    expect((await h.control('PATCH', '/workshop', { open: false })).body.open).toBe(false);
    const closed = await join(h, 'Caio');
    expect(closed.status).toBe(403);
    expect(closed.html).toContain('closed');
    expect(await accountCount(h)).toBe(before);
    expect((await h.control('PATCH', '/workshop', { open: true })).body.open).toBe(true);
    expect((await join(h, 'Caio')).status).toBe(200);
  });

  test('a full room tells the next attendee so, and nothing changes', async () => {
    const h = await startHarness({ workshop: true, workshopMax: 2 });
    await join(h, 'A');
    await join(h, 'B');
    const before = await accountCount(h);
    const third = await join(h, 'C');
    expect(third.status).toBe(409);
    expect(third.html).toContain('full');
    expect((await h.sb.app.request('/join')).status).toBe(409);
    expect(await accountCount(h)).toBe(before);
  });

  test("ending deletes the attendees' tenants, and ending twice is a 409 that deletes nothing", async () => {
    const h = await startHarness({ workshop: true });
    const a = field((await join(h, 'A')).html, 'account-id');
    const b = field((await join(h, 'B')).html, 'account-id');
    const ended = await h.control('DELETE', '/workshop');
    expect(ended.body).toEqual({ ended: true, deleted: 2 });
    for (const id of [a, b]) expect((await h.control('GET', `/accounts/${id}`)).status).toBe(404);
    const count = await accountCount(h);
    const twice = await h.control('DELETE', '/workshop');
    expect(twice.status).toBe(409);
    expect(twice.body.error?.code ?? JSON.stringify(twice.body)).toContain('WORKSHOP_NOT_STARTED');
    expect(await accountCount(h)).toBe(count);
    expect((await join(h, 'late')).status).toBe(403);
  });

  test('the workshop routes need the admin token when one is set', async () => {
    const h = await startHarness({ adminToken: 'room-secret' });
    expect((await h.control('POST', '/workshop')).status).toBe(401);
    const opened = await h.api('POST', '/_sandbox/workshop', { headers: { 'x-sandbox-token': 'room-secret' } });
    expect(opened.status).toBe(200);
    // Joining itself needs no token: it is the attendee's door.
    expect((await join(h, 'Dani')).status).toBe(200);
  });
});
