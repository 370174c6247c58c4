// The checkout page: what a customer sees at a charge's location (GET /pix/qr/{id} from a browser). Server-rendered
// from the located charge; /assets/checkout.js counts down on the sandbox clock, follows the live stream and pays
// through POST /_sandbox/transactions/{id}/pay, the route curl uses. Shows only what the location serves publicly.
import type { LocatedCharge } from '../services/checkout';
import { qrPngDataUrl } from '../pix';
import { Layout } from './layout';
import { PAY_FORM_SCRIPT, PayForm } from './pay-form';
import { brl, STATUS_LABEL } from './format';
import type { PageAttendee } from './attendee';

export interface CheckoutProps {
  charge: LocatedCharge;
  /** Sandbox clock, so the page counts down from the server's now, not the device's. */
  now: number;
  frozen: boolean;
  /** Whether the charge's account has a clock of its own (the page then follows its moves, not the sandbox clock's). */
  ownClock?: boolean;
  tokenRequired: boolean;
  phoneUrl?: string;
  /** The workshop attendee the page is opened for: their token follows and pays, and only their own charge is theirs to pay. */
  attendee?: PageAttendee | undefined;
}

/** The large state that takes the QR's place once a charge is no longer payable (the page script keeps it current). */
export const FINAL_STATE: Record<string, { mark: string; detail: string }> = {
  pending: { mark: '', detail: '' },
  paid: { mark: '✓', detail: 'The payment arrived. Nothing more to pay.' },
  expired: { mark: '⌛', detail: 'This charge expired before it was paid. Ask for a new one.' },
  failed: { mark: '✕', detail: 'This charge failed. Ask for a new one.' },
  cancelled: { mark: '✕', detail: 'This charge was cancelled. Ask for a new one.' },
};

export function checkoutPage({ charge, now, frozen, ownClock = false, tokenRequired, phoneUrl, attendee }: CheckoutProps) {
  const { tx, merchantName, status, account } = charge;
  const refusal = attendee && payRefusal(attendee, account.id);
  const code = tx.charge!.pixCopyPaste;
  const expiresAt = tx.charge!.expiresAt;
  return (
    <Layout title={`Pay ${brl(tx.amount)} to ${merchantName}`} scripts={[PAY_FORM_SCRIPT, '/assets/checkout.js']} follows needsToken={tokenRequired} phoneUrl={phoneUrl} attendee={attendee}>
      <div
        id="checkout"
        class="checkout"
        data-charge-id={tx.id}
        data-account-id={account.id}
        data-expires-at={String(expiresAt)}
        data-now={String(now)}
        data-frozen={String(frozen)}
        data-own-clock={String(ownClock)}
        data-status={status}
      >
        <section class="card checkout-main" aria-labelledby="merchant">
          <p class="muted kicker">PIX charge from</p>
          <h1 id="merchant">{merchantName}</h1>
          <p class="amount" id="amount">{brl(tx.amount)}</p>
          {tx.description ? <p id="description">{tx.description}</p> : null}
          <p id="status" class={`status status-${status}`} role="status" aria-live="polite" data-status={status}>
            {STATUS_LABEL[status]}
          </p>
          <div class="final-state" id="final-state">
            <span class="mark" id="final-mark" aria-hidden="true">
              {FINAL_STATE[status]!.mark}
            </span>
            <strong id="final-title">{STATUS_LABEL[status]}</strong>
            <p id="final-detail">{FINAL_STATE[status]!.detail}</p>
          </div>
          <div class="pending-only">
            <p class="countdown">
              <span id="countdown-label">Expires in</span>{' '}
              <strong id="countdown" data-status={status}>
                {status === 'pending' ? formatLeft(expiresAt - now) : '00:00:00'}
              </strong>{' '}
              <span class="muted">
                (at <time datetime={new Date(expiresAt).toISOString()} title={new Date(expiresAt).toISOString()} data-local="local">{new Date(expiresAt).toISOString().replace('T', ' ').slice(0, 19)} UTC</time>, {ownClock ? 'the account\'s clock' : 'sandbox clock'}{frozen ? ', frozen' : ''})
              </span>
            </p>
            <img id="qr" class="qr" src={qrPngDataUrl(code)} width={264} height={264} alt={`QR code of the PIX charge of ${brl(tx.amount)} to ${merchantName}`} />
            <p class="row">
              <button type="button" id="qr-size" class="secondary" aria-pressed="false">
                Enlarge QR
              </button>
            </p>
            <label for="code">PIX copia e cola</label>
            <textarea id="code" class="code" readonly rows={5}>
              {code}
            </textarea>
            <p class="row">
              <button type="button" id="copy">Copy code</button> <span id="copy-result" role="status" aria-live="polite"></span>
            </p>
          </div>
        </section>
        <aside class="card checkout-side" aria-labelledby="pay-title">
          <h2 id="pay-title">Pay as the customer</h2>
          <p class="muted">
            Settles the charge as if a bank paid it: <code>POST /_sandbox/transactions/{tx.id}/pay</code>, the same route curl uses.
          </p>
          {refusal ? (
            <p class="notice" id="pay-refused">
              {refusal}
            </p>
          ) : (
            <PayForm disabled={status !== 'pending'}>Pay {brl(tx.amount)}</PayForm>
          )}
          <p id="pay-result" role="alert"></p>
          <p class="muted">
            <a href="/pay">Payer page</a> · <a href="/">Console</a>
          </p>
        </aside>
      </div>
    </Layout>
  );
}

/** Why an attendee's token cannot pay a charge of `accountId` (the control API would refuse it), in words; none when it can. */
export function payRefusal(attendee: PageAttendee, accountId: string): string | undefined {
  if (attendee.scope.accountId !== accountId) return `This charge belongs to another tenant, not ${attendee.scope.name}'s: only its own merchant's customers pay it here. Pay a charge of your own tenant (create one from your console).`;
  if (attendee.scope.readOnly) return `This is ${attendee.scope.name}'s read-only view: it shows the charge and pays nothing. The attendee pays it from their own console.`;
  return undefined;
}

export function checkoutNotFoundPage(id: string) {
  return (
    <Layout title="Charge not found">
      <div class="checkout">
        <section class="card">
          <h1>Charge not found</h1>
          <p>
            This sandbox has no PIX charge <code>{id}</code>. It may belong to another sandbox, or the sandbox was reset since the code was made.
          </p>
          <p>
            Create a charge from the <a href="/">console</a> (or <code>POST /v2/pix</code>), or check a code on the <a href="/pay">payer page</a>.
          </p>
        </section>
      </div>
    </Layout>
  );
}

/** "23:59:58", or "2 d 03:04:05" past a day; the page script uses the same shape. */
export function formatLeft(ms: number): string {
  if (ms <= 0) return '00:00:00';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hms = [Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return d > 0 ? `${d} d ${hms}` : hms;
}
