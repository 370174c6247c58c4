// A workshop room in a test: attendees joined through /join as a browser would, with what their page shows (tenant,
// credentials, console token), their read-only view token from the room, and a wait for a step on the change bus.
import { expect } from 'vitest';
import type { Harness } from './harness';

export interface Joined {
  name: string;
  accountId: string;
  clientId: string;
  clientSecret: string;
  /** The token of their console link. */
  consoleToken: string;
  /** The token of the read-only view the presenter opens. */
  viewToken: string;
  /** The join cookie of the browser they joined from. */
  cookie: string;
}

const field = (html: string, id: string) => html.match(new RegExp(`id="${id}">([^<]*)<`))?.[1];

/** Joins `name` with the running room's code, as the form of the projector's join URL sends it. */
export async function joinAs(h: Harness, name: string): Promise<Joined> {
  const body = new URLSearchParams({ code: h.sb.deps.workshop.code ?? '', name }).toString();
  const res = await h.sb.app.request('/join', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const html = await res.text();
  expect(res.status, html).toBe(200);
  const accountId = field(html, 'account-id')!;
  const consoleToken = html.match(/id="console-link" href="[^"]*\?attendee=([^"]+)"/)?.[1];
  expect(consoleToken, html).toBeTruthy();
  const room = h.sb.deps.workshop.attendees.find((a) => a.accountId === accountId)!;
  return { name, accountId, clientId: field(html, 'client-id')!, clientSecret: field(html, 'client-secret')!, consoleToken: consoleToken!, viewToken: room.viewToken, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
}

/** Resolves once the room shows that `accountId` reached `step` (told on the bus within a batch of the change). */
export function stepReached(h: Harness, accountId: string, step: string): Promise<string> {
  const reached = () => h.sb.deps.workshop.attendees.find((a) => a.accountId === accountId)?.steps[step];
  return new Promise((resolve) => {
    const now = reached();
    if (now) return resolve(now);
    const stop = h.sb.deps.bus.subscribe(() => {
      const at = reached();
      if (at) {
        stop();
        resolve(at);
      }
    });
  });
}

/** A call to the control API with a token in X-Sandbox-Token. */
export const withToken = (h: Harness, token: string, method: string, path: string, body?: unknown) =>
  h.api(method, `/_sandbox${path}`, { headers: { 'x-sandbox-token': token }, ...(body === undefined ? {} : { body }) });
