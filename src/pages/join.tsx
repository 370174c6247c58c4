// /join (sandbox.md 5.2): an attendee of a workshop gives the room's code (the projector's join URL and QR carry it)
// and a name, and gets a tenant of their own (services/workshop.ts); this page then shows its credentials, base URLs
// and snippets filled in. The browser keeps a cookie whose value the sandbox made, so joining again from it shows the
// same tenant. Each address joins at a bounded rate. Names are text everywhere (JSX escapes them).
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { Env } from '../wire/env';
import { SandboxError } from '../domain/errors';
import { inRequestUnit } from '../wire/request-unit';
import { addressKey, createBuckets } from '../lib/token-bucket';
import { baseOf, CODE_LENGTH, isRoomCode, joinWorkshop, NAME_MAX, returning } from '../services/workshop';
import type { Attendee } from '../domain/workshop';
import type { Account } from '../domain/types';
import { Layout, renderPage } from './layout';
import { BROWSER_COOKIE } from './attendee';

const page = { 200: { description: 'The join page', content: { 'text/html': { schema: z.string() } } } };
const getRoute = createRoute({ method: 'get', path: '/join', operationId: 'showJoinPage', tags: ['Pages'], security: [], hide: true, summary: 'Join a workshop room', responses: page });
const postRoute = createRoute({ method: 'post', path: '/join', operationId: 'joinWorkshop', tags: ['Pages'], security: [], hide: true, summary: 'Join a workshop room with a name', responses: page });
const forgetRoute = createRoute({
  method: 'post',
  path: '/join/forget',
  operationId: 'forgetJoinCookie',
  tags: ['Pages'],
  security: [],
  hide: true,
  summary: "Forget that this browser joined a workshop (its join cookie), so it opens the presenter's pages again",
  responses: { 303: { description: 'To the console' } },
});

const WRONG_CODE = "That is not this room's code: type the one the presenter shows.";
const WHERE_THE_CODE_IS = "It is in the join address on the presenter's screen (…/join?code=…) and under its QR code; or ask the presenter.";

/** The form: the name, and the room's code as a field to type unless the address carried the right one. */
function JoinForm({ message, name, code, codeKnown }: { message?: string; name?: string; code?: string; codeKnown: boolean }) {
  return (
    <Layout title="Join the workshop">
      <div class="join">
        <h1>Join the workshop</h1>
        {message ? (
          <p class="notice" role="alert" id="join-message">
            {message}
          </p>
        ) : null}
        {codeKnown ? null : (
          <p id="join-code-help">
            Joining takes the room's code. {WHERE_THE_CODE_IS}
          </p>
        )}
        <form method="post" action="/join" class="stack">
          {codeKnown ? (
            <input type="hidden" name="code" value={code ?? ''} />
          ) : (
            <>
              <label for="join-code">Room code</label>
              <input id="join-code" name="code" required maxlength={CODE_LENGTH + 4} autocomplete="off" autocapitalize="characters" spellcheck={false} aria-describedby="join-code-help" value={code ?? ''} />
            </>
          )}
          <label for="join-name">Your name</label>
          <input id="join-name" name="name" required maxlength={NAME_MAX} autocomplete="nickname" value={name ?? ''} />
          <button type="submit">Join</button>
        </form>
      </div>
    </Layout>
  );
}

function Closed({ message }: { message: string }) {
  return (
    <Layout title="Join the workshop">
      <div class="join">
        <h1>Join the workshop</h1>
        <p class="notice" role="alert" id="join-message">
          {message}
        </p>
      </div>
    </Layout>
  );
}

/** The snippets of the credentials page, filled in with the tenant's values. */
export function snippets(base: string, clientId: string, clientSecret: string) {
  const body = JSON.stringify({ client_id: clientId, client_secret: clientSecret });
  return {
    curl: `B=${base}\nTOKEN=$(curl -s -X POST $B/v2/auth -H 'Content-Type: application/json' \\\n  -d '${body}' | jq -r .access_token)\ncurl -s $B/v2/account -H "Authorization: Bearer $TOKEN"`,
    node: `const B = '${base}';\nconst auth = await fetch(\`\${B}/v2/auth\`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(${body}) });\nconst { access_token } = await auth.json();\nconst account = await fetch(\`\${B}/v2/account\`, { headers: { Authorization: \`Bearer \${access_token}\` } });\nconsole.log(await account.json());`,
    python: `import requests\nB = "${base}"\ntoken = requests.post(f"{B}/v2/auth", json=${body}).json()["access_token"]\nprint(requests.get(f"{B}/v2/account", headers={"Authorization": f"Bearer {token}"}).json())`,
    php: `<?php\n$B = '${base}';\n$ctx = stream_context_create(['http' => ['method' => 'POST', 'header' => "Content-Type: application/json", 'content' => '${body}']]);\n$token = json_decode(file_get_contents("$B/v2/auth", false, $ctx), true)['access_token'];\n$ctx = stream_context_create(['http' => ['header' => "Authorization: Bearer $token"]]);\necho file_get_contents("$B/v2/account", false, $ctx);`,
  };
}

function Credentials({ attendee, account, base }: { attendee: Attendee; account: Account; base: string }) {
  const credential = account.credentials[0]!;
  const s = snippets(base, credential.clientId, credential.clientSecret);
  const rows: [string, string, string][] = [
    ['Client id', 'client-id', credential.clientId],
    ['Client secret', 'client-secret', credential.clientSecret],
    ['API key', 'api-key', account.apiKeys[0]?.key ?? ''],
    ['Webhook secret', 'webhook-secret', account.webhooks[0]?.secret ?? ''],
    ['Base URL (v2)', 'base-v2', `${base}/v2`],
    ['Base URL (v1)', 'base-v1', `${base}/v1`],
    ['Base URL (API Pix)', 'base-api-pix', `${base}/api-pix/v2`],
  ];
  return (
    <Layout title="Your sandbox">
      <div class="join">
        <h1>
          Welcome, <span id="attendee-name">{attendee.name}</span>
        </h1>
        <p>
          This tenant is yours (id <code id="account-id">{account.id}</code>), with its own clock. Your console:{' '}
          <a id="console-link" href={`${base}/?attendee=${attendee.consoleToken}`}>
            open it
          </a>
          .
        </p>
        <dl class="credentials">
          {rows.map(([label, id, value]) => (
            <>
              <dt>{label}</dt>
              <dd>
                <code id={id}>{value}</code>
              </dd>
            </>
          ))}
        </dl>
        {(
          [
            ['curl', s.curl],
            ['Node', s.node],
            ['Python', s.python],
            ['PHP', s.php],
          ] as const
        ).map(([label, text]) => (
          <section>
            <h2>{label}</h2>
            <pre class="wrap" tabindex={0} aria-label={`${label} snippet`}>
              <code id={`snippet-${label.toLowerCase()}`}>{text}</code>
            </pre>
          </section>
        ))}
      </div>
    </Layout>
  );
}

// One address joins at most JOIN_BURST times at once, then one a second (a token bucket per address, IPv6 by its /64).
// A room's phones on one Wi-Fi may all reach the sandbox from one NAT address: 60 at once and 60 a minute after that
// is more than a room scanning a QR does, while one client needs minutes to fill a room of 200 (and the code first).
// A wrong code costs a token too, so guessing codes is as slow. A browser that joined already (its cookie) costs none.
export const JOIN_BURST = 60;
export const JOIN_PER_SECOND = 1;

/** The client's address as the socket says (a header could say anything); in process (app.request), one for all. */
const addressOf = (c: Context) => addressKey((c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress ?? 'in-process');

const html = (c: Context, page: unknown, status: 400 | 403 | 409 | 429, headers: Record<string, string> = {}) => c.html(`<!doctype html>${String(page)}`, status, headers) as never;

export function registerJoinPage(app: OpenAPIHono<Env>, deps: Deps) {
  const room = deps.workshop;
  const joins = createBuckets({ burst: JOIN_BURST, perSecond: JOIN_PER_SECOND, now: deps.clock.realMs });
  const credentials = (c: Context, { attendee, account }: { attendee: Attendee; account: Account }) => renderPage(c, <Credentials attendee={attendee} account={account} base={baseOf(deps, new URL(c.req.url).origin)} />) as never;
  /** The 429 page past the address's bound, or undefined when it may go on. */
  const tooFast = (c: Context, form: { name?: string; code?: string; codeKnown: boolean }) => {
    const wait = joins.take(addressOf(c));
    if (wait === 0) return undefined;
    const message = `Many joins came from your network just now: press Join again in ${wait} second${wait === 1 ? '' : 's'}.`;
    return html(c, <JoinForm message={message} {...form} />, 429, { 'Retry-After': String(wait) });
  };
  const closedMessage = () => (room.started ? 'Joining this workshop is closed: ask the presenter to reopen it.' : 'No workshop is running here: ask the presenter to start one.');
  const fullMessage = () => `This room is full: it takes ${room.max} attendees. Ask the presenter to make room, or pair with someone.`;

  app.openapi(getRoute, (c) => {
    const known = returning(deps, room, getCookie(c, BROWSER_COOKIE));
    if (known) return credentials(c, known);
    if (!room.open) return html(c, <Closed message={closedMessage()} />, 403);
    if (room.attendees.length >= room.max) return html(c, <Closed message={fullMessage()} />, 409);
    const code = c.req.query('code');
    if (code === undefined || code === '') return renderPage(c, <JoinForm codeKnown={false} />) as never;
    if (isRoomCode(room, code)) return renderPage(c, <JoinForm code={code} codeKnown />) as never;
    // A wrong code in the address costs a token, as a POST's would: the page must not be a free way to try codes.
    return tooFast(c, { code, codeKnown: false }) ?? html(c, <JoinForm code={code} codeKnown={false} message={WRONG_CODE} />, 403);
  });
  // From the page of an attendee whose tenant is gone (pages/gone.tsx): only this browser's cookie changes.
  app.openapi(forgetRoute, (c) => {
    deleteCookie(c, BROWSER_COOKIE, { path: '/' });
    return c.redirect('/', 303);
  });
  app.openapi(postRoute, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const name = typeof form.name === 'string' ? form.name : '';
    const code = typeof form.code === 'string' ? form.code : '';
    const known = returning(deps, room, getCookie(c, BROWSER_COOKIE));
    if (known) return credentials(c, known);
    const codeKnown = isRoomCode(room, code);
    const limited = tooFast(c, { name, code, codeKnown });
    if (limited) return limited;
    try {
      const joined = inRequestUnit(c, () => joinWorkshop(deps, room, { name, code }));
      // Always the sandbox's own value: a cookie the browser came with is replaced, never adopted.
      setCookie(c, BROWSER_COOKIE, joined.attendee.browser!, { httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 7 * 86400 });
      return credentials(c, joined);
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      switch (err.code) {
        case 'VALIDATION_ERROR':
          return html(c, <JoinForm message={`Give a name of 1 to ${NAME_MAX} characters (a first name is enough).`} name={name} code={code} codeKnown={codeKnown} />, 400);
        case 'WORKSHOP_CODE_WRONG':
          return html(c, <JoinForm message={code.trim() ? WRONG_CODE : "Type the room's code."} name={name} code={code} codeKnown={false} />, 403);
        case 'WORKSHOP_CLOSED':
          return html(c, <Closed message={err.message} />, 403);
        case 'WORKSHOP_FULL':
          return html(c, <Closed message={err.message} />, 409);
        default:
          throw err;
      }
    }
  });
}
