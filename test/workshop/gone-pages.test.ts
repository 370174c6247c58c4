// An attendee link (?attendee=) whose token opens nothing now, on every page an attendee opens (sandbox.md 5.2): the
// page says why in words (410 for a workshop that ended or a reset, 401 for a token nobody here held), asks for no
// token, and nothing changes (a form post with it pays nothing).
import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';

const ADMIN = 'presenter-secret';

describe('an attendee link that opens nothing now', () => {
  let h: Harness; // each test's listener is closed after the file (helpers/harness.ts)

  async function room() {
    h = await startHarness({ workshop: true, adminToken: ADMIN });
    const added = await ctl('POST', '/workshop/attendees', { names: ['Ana'] });
    expect(added.status, added.text).toBe(201);
    const ana = added.body.attendees[0];
    const token = new URL(ana.consoleUrl).searchParams.get('attendee')!;
    const presenterLink = await h.api('POST', '/v1/charges', { body: { projectId: DEFAULT.projectId, name: 'Demo', amount: 10, paymentMethods: ['credit_card'] }, headers: { 'x-api-key': DEFAULT.apiKey } });
    expect(presenterLink.status, presenterLink.text).toBe(201);
    return { token, viewToken: new URL(ana.viewUrl).searchParams.get('attendee')!, presenterSlug: presenterLink.body.slug as string };
  }

  const ctl = (method: string, path: string, body?: unknown) => h.api(method, `/_sandbox${path}`, { ...(body === undefined ? {} : { body }), headers: { 'x-sandbox-token': ADMIN } });
  const page = (path: string) => h.api('GET', path, { headers: { accept: 'text/html' } });
  const payForm = (slug: string, token: string) => h.api('POST', `/c/${slug}/pay`, { raw: `paymentMethod=credit_card&attendee=${encodeURIComponent(token)}`, contentType: 'application/x-www-form-urlencoded', headers: { accept: 'text/html' } });

  test.each([
    ['ended', 'console token', 410, 'The workshop has ended'],
    ['ended', 'view token', 410, 'The workshop has ended'],
    ['reset', 'console token', 410, 'The sandbox was reset'],
    ['forged', 'console token', 401, 'This attendee link is not valid here'],
  ])('%s, %s: each page says so in words, asks for no token, and a form post with it pays nothing', async (how, which, status, words) => {
    const r = await room();
    let token = which === 'view token' ? r.viewToken : r.token;
    if (how === 'ended') expect((await ctl('DELETE', '/workshop')).status).toBe(200);
    if (how === 'reset') expect((await ctl('POST', '/reset', {})).status).toBe(200);
    if (how === 'forged') token = 'forged-token-of-nobody';
    const before = JSON.stringify(h.sb.deps.store.raw.accounts);
    const q = `?attendee=${encodeURIComponent(token)}`;
    const asked: Array<[string, () => ReturnType<typeof page>]> = [
      ...[`/${q}`, `/pay${q}`, `/pix/qr/nothing-here${q}`, `/c/${r.presenterSlug}${q}`].map((path): [string, () => ReturnType<typeof page>] => [path, () => page(path)]),
      [`POST /c/${r.presenterSlug}/pay`, () => payForm(r.presenterSlug, token)],
    ];
    for (const [path, call] of asked) {
      const res = await call();
      const html = res.text;
      expect(res.status, `${path}: ${html.slice(0, 300)}`).toBe(status);
      expect(html, path).toContain(`<h1>${words}</h1>`);
      expect(html, path).not.toContain('token-form');
      expect(html, path).not.toContain('type="password"');
    }
    expect(JSON.stringify(h.sb.deps.store.raw.accounts)).toBe(before);
  });
});
