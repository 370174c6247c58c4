// The frame of every page: language, viewport, the one stylesheet, the nav, the live state of a page that follows the
// stream, and the admin-token form (shown by /assets/sandbox.js when SANDBOX_ADMIN_TOKEN is set and the browser has no
// token yet), inside the one main landmark. Pages pass their content and their scripts; nothing here reads state.
import type { Child } from 'hono/jsx';
import type { Context } from 'hono';
import type { PageAttendee } from './attendee';

export type NavItem = 'console' | 'pay' | 'docs';

const NAV: Array<{ id: NavItem; href: string; label: string }> = [
  { id: 'console', href: '/', label: 'Console' },
  { id: 'pay', href: '/pay', label: 'Pay' },
  { id: 'docs', href: '/docs', label: 'API docs' },
];

export interface LayoutProps {
  title: string;
  active?: NavItem;
  /** True when SANDBOX_ADMIN_TOKEN is set: the page asks for the token once and sends it on every call. */
  needsToken?: boolean;
  /** Extra scripts of this page, after /assets/sandbox.js (which every page loads). */
  scripts?: string[];
  /** The address phones on the same network should open (--host 0.0.0.0), shown in the header. */
  phoneUrl?: string;
  /** A workshop attendee the page is for (pages/attendee.ts): the scripts send their token instead of asking for the admin token. */
  attendee?: PageAttendee | undefined;
  /** The page follows the live stream: the header then says whether it is live (a page that does not shows no state). */
  follows?: boolean;
  children?: Child;
}

export function Layout({ title, active, needsToken, scripts = [], phoneUrl, attendee, follows = false, children }: LayoutProps) {
  const attendeeToken = attendee?.token;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title === 'pix-sandbox' ? title : `${title} · pix-sandbox`}</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/site.css" />
        <script src="/assets/sandbox.js" defer></script>
        {scripts.map((src) => (
          <script src={src} defer></script>
        ))}
      </head>
      <body
        data-needs-token={needsToken && !attendeeToken ? 'true' : 'false'}
        data-attendee-token={attendeeToken}
        data-attendee-account={attendee?.scope.accountId}
        data-attendee-name={attendee?.scope.name}
        data-attendee-read-only={attendee ? String(attendee.scope.readOnly) : undefined}
      >
        <header class="top">
          <a class="brand" href="/">
            pix-sandbox
          </a>
          <nav aria-label="Pages">
            <ul>
              {NAV.map((n) => (
                <li>
                  <a href={n.href} aria-current={n.id === active ? 'page' : undefined}>
                    {n.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="top-tools">
            {phoneUrl ? (
              <span class="phone-url" id="phone-url">
                Phones: <a href={phoneUrl}>{phoneUrl.replace(/^https?:\/\//, '')}</a>
              </span>
            ) : null}
            {follows ? (
              <span id="conn" class="conn" data-state="connecting" role="status">
                connecting…
              </span>
            ) : null}
            <button type="button" id="projector-toggle" class="ghost" aria-pressed="false">
              Projector mode
            </button>
          </div>
        </header>
        <main id="main">
          {needsToken && !attendeeToken && (
            <form id="token-form" class="card token-form" hidden aria-labelledby="token-form-h">
              <h2 id="token-form-h">Admin token</h2>
              <p>This sandbox runs with SANDBOX_ADMIN_TOKEN set. Enter its value once; this tab keeps it until it is closed.</p>
              <label for="token-input">Token</label>
              <input id="token-input" name="token" type="password" autocomplete="off" required />
              <button type="submit">Use token</button>
              <p class="error" role="alert" id="token-error"></p>
            </form>
          )}
          {children}
        </main>
      </body>
    </html>
  );
}

/** Answers a page: the doctype, then the rendered component. */
export function renderPage(c: Context, page: Child) {
  return c.html(`<!doctype html>${String(page)}`);
}
