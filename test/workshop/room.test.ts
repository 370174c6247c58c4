// The presenter's room (sandbox.md 5.2): each attendee's steps read from what their tenant did (a token, a charge, a
// payment, a webhook delivered 2xx, a refund, a withdrawal), told on the change bus within a batch of the change;
// counts per step; the room as CSV; the Room panel in the presenter's console; closing and ending the workshop.
import { expect, test } from 'vitest';
import { withReceiver } from '../helpers/webhooks';
import { startHarness, type Harness } from '../helpers/harness';
import { joinAs, stepReached, withToken, type Joined } from '../helpers/workshop';

const W = { pixKeyType: 'email', pixKey: 'fulano@example.com', holderName: 'Fulano de Tal', holderDocument: '12345678909', holderDocumentType: 'cpf', amount: 5 };

async function charge(h: Harness, who: Joined, token: string): Promise<string> {
  const res = await h.api('POST', '/v2/pix', { token, body: { amount: 10, description: 'room step' } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

test("each step is reached by what the attendee's tenant did, once, and nobody else's", async () => {
  const { h, receiver } = await withReceiver({ workshop: true });
  const ana = await joinAs(h, 'Ana');
  const bia = await joinAs(h, 'Bia');
  const token = await h.token(ana.clientId, ana.clientSecret);
  const firstToken = await stepReached(h, ana.accountId, 'token');
  const id = await charge(h, ana, token);
  await stepReached(h, ana.accountId, 'charge');
  expect((await withToken(h, ana.consoleToken, 'POST', `/transactions/${id}/pay`)).status).toBe(200);
  await stepReached(h, ana.accountId, 'payment');
  await h.control('POST', '/settle');
  expect(receiver.requests.length).toBeGreaterThan(0);
  await stepReached(h, ana.accountId, 'webhook');
  expect((await withToken(h, ana.consoleToken, 'POST', `/transactions/${id}/refund`, { reason: 'step' })).status).toBe(200);
  await stepReached(h, ana.accountId, 'refund');
  const w = await withToken(h, ana.consoleToken, 'POST', `/accounts/${ana.accountId}/withdrawals`, W);
  expect(w.status, w.text).toBe(201);
  await stepReached(h, ana.accountId, 'withdrawal');
  // A second token keeps the first one's time.
  await h.advance(60);
  await h.token(ana.clientId, ana.clientSecret);
  await charge(h, ana, token); // a later change: its batch comes after the second token's
  await stepReached(h, ana.accountId, 'charge');
  const room = await h.control('GET', '/workshop');
  const [a, b] = room.body.attendees;
  expect(Object.keys(a.steps).sort()).toEqual(['charge', 'payment', 'refund', 'token', 'webhook', 'withdrawal']);
  expect(a.steps.token).toBe(firstToken);
  expect(b.steps, JSON.stringify(b)).toEqual({});
  expect(room.body.steps.map((s: { id: string; reached: number }) => [s.id, s.reached])).toEqual([
    ['token', 1], ['charge', 1], ['payment', 1], ['webhook', 1], ['refund', 1], ['withdrawal', 1],
  ]);
  expect(b.viewUrl).toMatch(new RegExp(`/\\?attendee=${bia.viewToken}$`));
  // The CSV: a header, one row each, the times of the steps reached.
  const csv = (await h.control('GET', '/workshop/room.csv')).text.split('\r\n');
  expect(csv[0]).toBe('name,accountId,joinedAt,token,charge,payment,webhook,refund,withdrawal');
  expect(csv[1]).toContain(`Ana,${ana.accountId},`);
  expect(csv[1]!.split(',')[3]).toBe(firstToken);
  expect(csv[2]).toMatch(new RegExp(`^Bia,${bia.accountId},[^,]+,,,,,,$`));
});

test('a template may name its own steps: the room lists and counts those', async () => {
  const h = await startHarness({ workshop: true });
  h.sb.deps.workshop.steps = [{ id: 'paid', label: 'Paid a charge', on: 'payment' }];
  const ana = await joinAs(h, 'Ana');
  const id = await charge(h, ana, await h.token(ana.clientId, ana.clientSecret));
  await withToken(h, ana.consoleToken, 'POST', `/transactions/${id}/pay`);
  await stepReached(h, ana.accountId, 'paid');
  const room = await h.control('GET', '/workshop');
  expect(room.body.steps).toEqual([{ id: 'paid', label: 'Paid a charge', reached: 1 }]);
  expect(room.body.attendees[0].steps).toEqual({ paid: expect.any(String) });
  const panel = await (await h.sb.app.request('/')).text();
  expect(panel).toContain('Paid a charge');
  expect(panel).not.toContain('First withdrawal');
});

test('the Room panel: join URL, counts, attendees with read-only links; closing, and ending after asking', async () => {
  const h = await startHarness({ workshop: true });
  h.sb.deps.settings.lanUrls = ['http://192.168.0.7:8080/']; // as listening on 0.0.0.0 sets it
  const ana = await joinAs(h, 'Ana');
  let html = await (await h.sb.app.request('/')).text();
  expect(html).toContain('id="room-h"');
  expect(html).toContain('192.168.0.7:8080/join');
  expect(html).toMatch(/<img class="room-qr" src="data:image\/png;base64,/);
  expect(html).toContain(`href="/?attendee=${ana.viewToken}"`);
  expect(html).toContain('Close joining');
  expect(html).toContain('id="end-workshop-menu"'); // ending asks first: a confirm menu, then its button
  expect((await h.control('PATCH', '/workshop', { open: false })).body.open).toBe(false);
  html = await (await h.sb.app.request('/')).text();
  expect(html).toContain('Reopen joining');
  expect(html).toContain('joining closed');
  const ended = await h.control('DELETE', '/workshop');
  expect(ended.body).toEqual({ ended: true, deleted: 1 });
  html = await (await h.sb.app.request('/')).text();
  // Ended: the panel offers to open a room again, and shows no attendee.
  expect(html).toContain('id="open-room-menu"');
  expect(html).not.toContain('data-attendee=');
  const twice = await h.control('DELETE', '/workshop');
  expect(twice.status).toBe(409);
  expect(twice.body.details?.code).toBe('WORKSHOP_NOT_STARTED');
});

test('opening a room takes a name, a cap and whether joining opens; a bare POST opens one with the defaults', async () => {
  const h = await startHarness();
  const opened = await h.control('POST', '/workshop', { name: '  Pix na prática ', max: 30, open: false });
  expect(opened.status, opened.text).toBe(200);
  expect(opened.body).toMatchObject({ started: true, open: false, name: 'Pix na prática', max: 30 });
  const html = await (await h.sb.app.request('/')).text();
  expect(html).toContain('Pix na prática');
  expect(html).toContain('joining closed');
  // On a running room: it keeps its code and takes the new cap; joining opens (a bare POST).
  const again = await h.control('POST', '/workshop');
  expect(again.body).toMatchObject({ open: true, name: 'Pix na prática', max: 30, code: opened.body.code });
  await h.control('DELETE', '/workshop');
  const bare = await h.control('POST', '/workshop');
  expect(bare.body).toMatchObject({ open: true, name: null, max: 30 });
});

test.each([
  ['a cap of 0', { max: 0 }, 'max', /at least 1 attendee/],
  ['a cap that is not a whole number', { max: 2.5 }, 'max', /whole number of attendees/],
  ['a cap over 10,000', { max: 10_001 }, 'max', /at most 10000/],
  ['an empty name', { name: '   ' }, 'name', /1 to 60 characters .*got none/],
  ['a name of 61 characters', { name: 'x'.repeat(61) }, 'name', /got 61/],
  ['open that is not a boolean', { open: 'yes' }, 'open', /true .* or false/],
  ['a field the route does not take', { capacity: 30 }, '', /capacity/],
])('opening a room with %s is a 400 that says what to send, and nothing opens', async (_what, body, field, message) => {
  const h = await startHarness();
  const res = await h.control('POST', '/workshop', body);
  expect(res.status, res.text).toBe(400);
  expect(res.body.message).toMatch(message);
  if (field) expect(res.body.message).toContain(field);
  expect((await h.control('GET', '/workshop')).body).toMatchObject({ started: false, open: false, code: null, name: null, max: 200 });
});

test('a running room cannot be capped below the attendees already in it; nothing changes', async () => {
  const h = await startHarness({ workshop: true });
  await h.control('POST', '/workshop/attendees', { count: 3 });
  const res = await h.control('POST', '/workshop', { max: 2, name: 'Smaller' });
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/at least 3, the attendees already in this room/);
  expect((await h.control('GET', '/workshop')).body).toMatchObject({ max: 200, name: null, open: true });
});
