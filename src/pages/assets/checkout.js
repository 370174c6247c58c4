// Checkout page: countdown on the sandbox clock, live status from /_sandbox/stream, copy button, and the side panel
// that pays through POST /_sandbox/transactions/{id}/pay. State comes from data-* attributes the server rendered.
(() => {
  const main = document.getElementById('checkout');
  const chargeId = main.dataset.chargeId;
  const accountId = main.dataset.accountId;
  const expiresAt = Number(main.dataset.expiresAt);
  const LABEL = { pending: 'Waiting for payment', paid: 'Paid', expired: 'Expired', failed: 'Failed', cancelled: 'Cancelled' };
  // The large state in place of the QR (pages/checkout.tsx FINAL_STATE says the same).
  const FINAL = {
    paid: ['✓', 'The payment arrived. Nothing more to pay.'],
    expired: ['⌛', 'This charge expired before it was paid. Ask for a new one.'],
    failed: ['✕', 'This charge failed. Ask for a new one.'],
    cancelled: ['✕', 'This charge was cancelled. Ask for a new one.'],
  };

  // The sandbox clock as last heard from the server: frozen, it stands still until a clock event moves it.
  let clock = { now: Number(main.dataset.now), frozen: main.dataset.frozen === 'true', at: performance.now() };
  const sandboxNow = () => (clock.frozen ? clock.now : clock.now + (performance.now() - clock.at));

  function formatLeft(ms) {
    if (ms <= 0) return '00:00:00';
    const s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400);
    const hms = [Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
    return d > 0 ? `${d} d ${hms}` : hms;
  }

  const statusEl = document.getElementById('status');
  const countdownEl = document.getElementById('countdown');
  const countdownLabel = document.getElementById('countdown-label');
  const payButton = document.getElementById('pay');

  function showStatus(status) {
    main.dataset.status = status;
    statusEl.dataset.status = status;
    statusEl.className = `status status-${status}`;
    statusEl.textContent = LABEL[status] ?? status;
    if (payButton) payButton.disabled = status !== 'pending'; // none when the page's attendee may not pay it (#pay-refused says why)
    const [mark, detail] = FINAL[status] ?? ['', ''];
    document.getElementById('final-mark').textContent = mark;
    document.getElementById('final-title').textContent = LABEL[status] ?? status;
    document.getElementById('final-detail').textContent = detail;
    tick();
  }

  function tick() {
    const pending = main.dataset.status === 'pending';
    const left = expiresAt - sandboxNow();
    countdownLabel.textContent = 'Expires in';
    countdownEl.textContent = pending ? formatLeft(left) : '00:00:00';
    countdownEl.dataset.status = main.dataset.status;
  }
  setInterval(tick, 250);

  // The page's own HTML is the one source of the status (an expired charge is `cancelled` in the stream's message).
  async function refresh() {
    let res;
    try {
      res = await fetch(location.pathname, { headers: { accept: 'text/html' } });
    } catch {
      return; // the sandbox is away; the stream's reconnect calls refresh again
    }
    if (res.status === 404) {
      showStatus('cancelled');
      statusEl.textContent = 'This charge no longer exists (the sandbox was reset).';
      return;
    }
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const fresh = doc.getElementById('checkout');
    if (!fresh) return;
    clock = { now: Number(fresh.dataset.now), frozen: fresh.dataset.frozen === 'true', at: performance.now() };
    showStatus(fresh.dataset.status);
  }

  // Live: transaction moves of this charge's account and the clock. With an admin token the stream needs it, so the
  // page asks for it once (window.sandbox.ready) before following.
  // An attendee's token follows their own tenant only: another tenant's charge is shown as rendered, and said so.
  const attendeeAccount = document.body.dataset.attendeeAccount;
  if (attendeeAccount && attendeeAccount !== accountId) {
    const conn = document.getElementById('conn');
    conn.dataset.state = 'not-followed';
    conn.textContent = 'not followed: another tenant’s charge';
  } else window.sandbox.ready(() =>
    window.sandbox.stream((msg) => {
      if (msg.kind === 'transaction' && msg.data?.id === chargeId) refresh();
      // The clock the account runs on: its own (moves naming it) or the sandbox clock (moves naming no account).
      else if (msg.kind === 'clock' && msg.data && (main.dataset.ownClock === 'true' ? msg.data.accountId === accountId : msg.data.accountId === undefined)) {
        clock = { now: Date.parse(msg.data.now), frozen: msg.data.frozen, at: performance.now() };
        tick();
      } else if (msg.kind === 'reset' || msg.kind === 'reconnected') refresh();
    }, accountId),
  );

  // A bigger QR for a phone across the room (a projector, a screen share).
  const sizeButton = document.getElementById('qr-size');
  sizeButton.addEventListener('click', () => {
    const large = main.classList.toggle('qr-large');
    sizeButton.setAttribute('aria-pressed', String(large));
    sizeButton.textContent = large ? 'Smaller QR' : 'Enlarge QR';
  });

  // Copy: the clipboard API where the page is a secure context, else select the text so the person can copy it.
  const codeEl = document.getElementById('code');
  const copyResult = document.getElementById('copy-result');
  document.getElementById('copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(codeEl.value);
      copyResult.textContent = 'Copied.';
    } catch {
      codeEl.focus();
      codeEl.select();
      copyResult.textContent = 'Selected: press Ctrl+C (or long-press and Copy) to copy it.';
    }
  });

  // Pay as the customer.
  const form = document.getElementById('pay-form');
  if (!form) return;
  const payResult = document.getElementById('pay-result');
  window.payerForm(form, async (body) => {
    payResult.textContent = 'Paying…';
    const res = await window.sandbox.api('POST', `/_sandbox/transactions/${chargeId}/pay`, body);
    if (res.ok) {
      payResult.textContent = `Paid${res.data?.counterpartName ? ` by ${res.data.counterpartName}` : ''}.`;
      showStatus('paid');
    } else {
      payResult.textContent = window.sandbox.errorText(res);
      refresh();
    }
  });
})();
