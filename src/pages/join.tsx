// /join (sandbox.md 5.2): an attendee of a workshop gives a name and gets a tenant of their own (services/workshop.ts),
// then this page shows its credentials, base URLs and snippets filled in. The browser keeps a cookie, so joining again
// from it shows the same tenant. Names are text everywhere (JSX escapes them).
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { Env } from '../wire/env';
import { SandboxError } from '../domain/errors';
import { inRequestUnit } from '../lib/request-unit';
import { attendeeOf, joinWorkshop, NAME_MAX } from '../services/workshop';
import type { Attendee } from '../domain/workshop';
import type { Account } from '../domain/types';
import { Layout, renderPage } from './layout';

export const BROWSER_COOKIE = 'pix_sandbox_attendee';

const page = { 200: { description: 'The join page', content: { 'text/html': { schema: z.string() } } } };
const getRoute = createRoute({ method: 'get', path: '/join', operationId: 'showJoinPage', tags: ['Pages'], security: [], hide: true, summary: 'Join a workshop room', responses: page });
const postRoute = createRoute({ method: 'post', path: '/join', operationId: 'joinWorkshop', tags: ['Pages'], security: [], hide: true, summary: 'Join a workshop room with a name', responses: page });

function JoinForm({ message, name }: { message?: string; name?: string }) {
  return (
    <Layout title="Join the workshop">
      <main class="join">
        <h1>Join the workshop</h1>
        {message ? (
          <p class="notice" role="alert" id="join-message">
            {message}
          </p>
        ) : null}
        <form method="post" action="/join">
          <label for="join-name">Your name</label>
          <input id="join-name" name="name" required maxlength={NAME_MAX} autocomplete="nickname" value={name ?? ''} />
          <button type="submit">Join</button>
        </form>
      </main>
    </Layout>
  );
}

function Closed({ message }: { message: string }) {
  return (
    <Layout title="Join the workshop">
      <main class="join">
        <h1>Join the workshop</h1>
        <p class="notice" role="alert" id="join-message">
          {message}
        </p>
      </main>
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
      <main class="join">
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
      </main>
    </Layout>
  );
}

const baseOf = (deps: Deps, c: Context) => deps.settings.lanUrls?.[0]?.replace(/\/$/, '') ?? new URL(c.req.url).origin;

export function registerJoinPage(app: OpenAPIHono<Env>, deps: Deps) {
  const room = deps.workshop;
  app.openapi(getRoute, (c) => {
    const known = attendeeOf(room, getCookie(c, BROWSER_COOKIE));
    const account = known && deps.store.findAccount(known.accountId);
    if (known && account) return renderPage(c, <Credentials attendee={known} account={account} base={baseOf(deps, c)} />) as never;
    if (!room.open)
      return c.html(`<!doctype html>${String(<Closed message={room.started ? 'Joining this workshop is closed: ask the presenter to reopen it.' : 'No workshop is running here: ask the presenter to start one.'} />)}`, 403) as never;
    if (room.attendees.length >= room.max) return c.html(`<!doctype html>${String(<Closed message={`This room is full: it takes ${room.max} attendees. Ask the presenter to make room, or pair with someone.`} />)}`, 409) as never;
    return renderPage(c, <JoinForm />) as never;
  });
  app.openapi(postRoute, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const name = typeof form.name === 'string' ? form.name : '';
    try {
      const { attendee, account } = inRequestUnit(c, () => joinWorkshop(deps, room, name, getCookie(c, BROWSER_COOKIE)));
      setCookie(c, BROWSER_COOKIE, attendee.browser, { httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 7 * 86400 });
      return renderPage(c, <Credentials attendee={attendee} account={account} base={baseOf(deps, c)} />) as never;
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      const status = err.code === 'VALIDATION_ERROR' ? 400 : err.code === 'WORKSHOP_CLOSED' ? 403 : 409;
      const message = err.code === 'VALIDATION_ERROR' ? `Give a name of 1 to ${NAME_MAX} characters (a first name is enough).` : err.message;
      const html = err.code === 'VALIDATION_ERROR' ? <JoinForm message={message} /> : <Closed message={message} />;
      return c.html(`<!doctype html>${String(html)}`, status) as never;
    }
  });
}
