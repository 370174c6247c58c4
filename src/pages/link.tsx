// The payment link page (sandbox.md 12): GET /c/{slug} shows a link and pays it with any of its methods. PIX makes a
// pending charge of the core and opens its checkout page (BR Code, QR, /pay); card and boleto are simulated and pay
// at once. Plain forms: the page works without JavaScript; /assets/link.js only keeps it live where the page may follow
// the link's account (its attendee's own link, or a sandbox without an admin token). The routes call the payment-link
// verbs, the same ones POST /_sandbox/charges/{id}/pay calls.
import { timingSafeEqual } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Deps } from '../deps';
import { SandboxError, validationError } from '../domain/errors';
import { linkStatusAt } from '../domain/payment-links';
import { PAYMENT_METHODS, type Account, type PaymentLink, type PaymentMethod } from '../domain/types';
import type { Env } from '../wire/env';
import { locationPath } from '../services/charges';
import { findLinkBySlug, payPaymentLink, startLinkCharge } from '../services/payment-links';
import { brl } from './format';
import { Layout, renderPage } from './layout';
import { inRequestUnit } from '../wire/request-unit';
import { nowOf } from '../services/clocks';
import { attendeeByToken } from '../services/workshop';
import { isGone, pageAttendee, type PageAttendee, type PageGone } from './attendee';
import { goneBy } from '../services/workshop';
import { gonePage } from './gone';
import { payRefusal } from './checkout';

const METHOD_LABEL: Record<PaymentMethod, string> = { pix: 'PIX', credit_card: 'Credit card (simulated)', boleto: 'Boleto (simulated)' };
const STATUS_TEXT = { active: 'Open for payment', paid: 'Paid', expired: 'Expired', disabled: 'Disabled' } as const;
const STATUS_CLASS = { active: 'pending', paid: 'paid', expired: 'expired', disabled: 'cancelled' } as const;

function LinkPage({ account, link, now, paidId, tokenRequired, attendee }: { account: Account; link: PaymentLink; now: number; paidId?: string | undefined; tokenRequired: boolean; attendee?: PageAttendee | undefined }) {
  const status = linkStatusAt(link, now);
  const refusal = attendee && payRefusal(attendee, account.id);
  const open = status === 'active' && !refusal;
  // The stream takes the attendee's token (their tenant only) or, without an admin token, none.
  const follows = attendee ? attendee.scope.accountId === account.id : !tokenRequired;
  return (
    <Layout title={`${link.name}: ${brl(link.amount)}`} attendee={attendee} follows={follows} scripts={follows ? ['/assets/link.js'] : []}>
      <section class="card checkout-main" aria-labelledby="link-name" id="payment-link" data-link-id={link.id} data-account-id={account.id} data-status={status}>
        <p class="muted kicker">Payment link of {account.name}</p>
        <h1 id="link-name">{link.name}</h1>
        <p class="amount" id="amount">{brl(link.amount)}</p>
        {link.description ? <p id="description">{link.description}</p> : null}
        <p id="status" class={`status status-${STATUS_CLASS[status]}`} role="status">
          {STATUS_TEXT[status]}
        </p>
        {paidId ? (
          <p id="paid" role="alert">
            Payment received: transaction <code>{paidId}</code>.
          </p>
        ) : null}
        <p class="muted" id="counters">
          {link.paymentsCount} payment{link.paymentsCount === 1 ? '' : 's'}, {brl(link.totalCollected)} collected
          {link.expiresAt !== undefined ? `; expires ${new Date(link.expiresAt).toISOString().replace('T', ' ').slice(0, 19)} UTC (sandbox clock)` : ''}
          {link.customerId !== undefined ? '; single use' : ''}
        </p>
      </section>
      {refusal ? (
        <p class="card notice" id="pay-refused">
          {refusal}
        </p>
      ) : null}
      {open ? (
        <section class="card link-pay" aria-labelledby="pay-title" id="link-pay">
          <h2 id="pay-title">Pay</h2>
          {link.paymentMethods.map((method) => (
            <form method="post" action={`/c/${link.slug}/${method === 'pix' ? 'pix' : 'pay'}`} class="stack">
              <input type="hidden" name="paymentMethod" value={method} />
              {attendee ? (
                <input type="hidden" name="attendee" value={attendee.token} />
              ) : tokenRequired ? (
                <>
                  <label for={`token-${method}`}>Admin token</label>
                  <input id={`token-${method}`} name="token" type="password" autocomplete="off" required />
                </>
              ) : null}
              {method === 'pix' ? null : (
                <>
                  <label for={`payer-${method}`}>Payer name (optional)</label>
                  <input id={`payer-${method}`} name="payerName" maxlength={255} />
                </>
              )}
              <button type="submit" id={`pay-${method}`}>
                {method === 'pix' ? 'Pay with PIX (BR Code)' : `Pay with ${METHOD_LABEL[method]}`}
              </button>
            </form>
          ))}
        </section>
      ) : null}
    </Layout>
  );
}

function located(deps: Deps, slug: string) {
  const found = findLinkBySlug(deps, slug);
  if (!found) throw new SandboxError('PAYMENT_LINK_NOT_FOUND', `No payment link '${slug}' in this sandbox. A link's url is in its answer of POST /v1/charges.`, { resource: 'charge', id: slug });
  return found;
}

/**
 * Form posts carry the admin token (when the sandbox has one) in a field: a form cannot send X-Sandbox-Token. A
 * workshop attendee's page carries their console token instead (field attendee), which pays their own links only;
 * the routes answer a token nobody holds (goneOf) before they read the form.
 */
async function form(deps: Deps, c: Context<Env>, account: Account) {
  const body = await c.req.parseBody();
  const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
  const expected = deps.settings.adminToken;
  const attendee = field('attendee');
  if (attendee !== undefined) {
    const found = attendeeByToken(deps.workshop, attendee)!; // goneOf answered a token nobody holds
    const refusal = payRefusal({ scope: found.principal, token: attendee }, account.id);
    if (refusal) throw new SandboxError('OUTSIDE_ATTENDEE_TENANT', refusal, { accountId: found.principal.accountId });
  } else if (expected) {
    const given = Buffer.from(field('token') ?? '');
    const want = Buffer.from(expected);
    if (given.length !== want.length || !timingSafeEqual(given, want)) throw new SandboxError('UNAUTHORIZED', 'This sandbox has an admin token (SANDBOX_ADMIN_TOKEN): enter it in the form to pay.');
  }
  const method = field('paymentMethod') ?? 'pix';
  if (!(PAYMENT_METHODS as readonly string[]).includes(method)) throw validationError([{ field: 'paymentMethod', message: `must be one of ${PAYMENT_METHODS.join(', ')}` }]);
  const payerName = field('payerName')?.trim().slice(0, 255);
  return { method: method as PaymentMethod, ...(payerName ? { payerName } : {}) };
}

/** A form post of an attendee's page whose token opens nothing now: answered with the page that says so, nothing paid. */
async function goneOf(deps: Deps, c: Context<Env>): Promise<PageGone | undefined> {
  const token = (await c.req.parseBody()).attendee;
  if (typeof token !== 'string' || attendeeByToken(deps.workshop, token)) return undefined;
  return { gone: goneBy(deps.workshop, token) ?? 'unknown', by: 'link' };
}

/** The attendee's token of a form post, as the next page's ?attendee= (a browser without the join cookie keeps it). */
async function carried(c: Context<Env>): Promise<string> {
  const token = (await c.req.parseBody()).attendee; // hono keeps the parsed body: read again, not twice
  return typeof token === 'string' ? `?attendee=${encodeURIComponent(token)}` : '';
}

export function registerLinkPages(app: OpenAPIHono<Env>, deps: Deps) {
  // Pages for people, not API operations: left out of /openapi.json like the console and /pay.
  app.get('/c/:slug', (c) => {
    // An attendee whose tenant is gone is told so first (their link went with it).
    const attendee = pageAttendee(c, deps);
    if (isGone(attendee)) return gonePage(c, deps, attendee);
    const { account, link } = located(deps, c.req.param('slug'));
    return renderPage(c, <LinkPage account={account} link={link} now={nowOf(deps, account)} paidId={c.req.query('paid')} tokenRequired={Boolean(deps.settings.adminToken)} attendee={attendee} />);
  });
  // PIX: a pending charge of the link, shown by its checkout page (BR Code, QR, the /pay flow).
  app.post('/c/:slug/pix', async (c) => {
    const gone = await goneOf(deps, c);
    if (gone) return gonePage(c, deps, gone);
    const { account, link } = located(deps, c.req.param('slug'));
    await form(deps, c, account);
    const tx = inRequestUnit(c, () => startLinkCharge(deps, account, link, 'pix'));
    return c.redirect(locationPath(tx.id) + (await carried(c)), 303);
  });
  // Card and boleto: simulated, paid at once.
  app.post('/c/:slug/pay', async (c) => {
    const gone = await goneOf(deps, c);
    if (gone) return gonePage(c, deps, gone);
    const { account, link } = located(deps, c.req.param('slug'));
    const { method, ...payer } = await form(deps, c, account);
    const tx = inRequestUnit(c, () => payPaymentLink(deps, account, link.id, { paymentMethod: method, ...payer }));
    return c.redirect(`/c/${link.slug}?paid=${tx.id}${(await carried(c)).replace('?', '&')}`, 303);
  });
}
