// Payment link page: follows the link's account on the live stream and reads the page again when one of its
// transactions moves or its clock does (a payment of the link from this page, curl or the API; an expiry), so the
// status, counters and pay forms are current without a reload. A form being filled in is kept while the link stays open.
(() => {
  const section = document.getElementById('payment-link');
  const accountId = section.dataset.accountId;

  async function refresh() {
    let res;
    try {
      res = await fetch(location.pathname + location.search, { headers: { accept: 'text/html' } });
    } catch {
      return; // the sandbox is away; the stream's reconnect calls refresh again
    }
    if (!res.ok) return; // the link or the attendee's tenant is gone: the stream's own notice says so
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const fresh = doc.getElementById('payment-link');
    if (!fresh) return;
    document.getElementById('payment-link').replaceWith(document.adoptNode(fresh));
    window.sandbox.localize(fresh);
    // The pay forms: gone once the link is no longer open; put back if it opens again (a clock moved back).
    const pay = document.getElementById('link-pay');
    const freshPay = doc.getElementById('link-pay');
    if (pay && !freshPay) pay.remove();
    else if (!pay && freshPay) fresh.after(document.adoptNode(freshPay));
  }

  window.sandbox.stream((msg) => {
    if (msg.kind === 'transaction' || msg.kind === 'clock' || msg.kind === 'reconnected') refresh();
  }, accountId);
})();
