// Payer page: reads a BR Code (pasted, from an image file, from the camera through jsQR), asks the sandbox to check
// it (POST /_sandbox/brcodes/decode holds every rule) and pays the charge it points at (POST /_sandbox/transactions/{id}/pay).
(() => {
  const $ = (id) => document.getElementById(id);
  const textarea = $('brcode');
  const readResult = $('read-result');
  const resultSection = $('result');
  const paySection = $('pay-section');
  const verdictEl = $('verdict');
  const payButton = $('pay');
  const payResult = $('pay-result');
  let current = null;
  let paidId = null;

  const CHECK_LABEL = {
    characters: 'Characters',
    length: 'Length',
    tlv: 'TLV structure',
    payloadFormat: 'Payload format',
    merchantAccount: 'PIX merchant account',
    location: 'Location (URL)',
    recurrence: 'Recurrence (Pix Automático)',
    categoryCode: 'Merchant category',
    currency: 'Currency',
    amount: 'Amount',
    country: 'Country',
    merchantName: 'Merchant name',
    merchantCity: 'Merchant city',
    crc: 'CRC',
  };
  const VERDICT_CLASS = { payable: 'ok', not_payable: 'warn', not_ours: 'warn', invalid: 'bad', authorise: 'ok' };

  function cell(row, label, content) {
    const el = document.createElement('td');
    el.dataset.label = label;
    if (content instanceof Node) el.append(content);
    else el.textContent = content ?? '';
    row.append(el);
    return el;
  }

  function mono(text) {
    const code = document.createElement('code');
    code.textContent = text;
    return code;
  }

  function render(result) {
    current = result;
    document.dispatchEvent(new CustomEvent('payer:decoded', { detail: result })); // pay-rec.js: a recurrence to authorise
    resultSection.hidden = false;
    verdictEl.textContent = result.message;
    verdictEl.className = `verdict ${VERDICT_CLASS[result.verdict] ?? ''}`;
    verdictEl.dataset.verdict = result.verdict;
    const body = document.querySelector('#checks tbody');
    body.replaceChildren();
    for (const c of result.checks) {
      const row = document.createElement('tr');
      row.dataset.check = c.check;
      row.dataset.ok = String(c.ok);
      const name = document.createElement('strong');
      name.textContent = CHECK_LABEL[c.check] ?? c.check;
      cell(row, 'Check', name);
      cell(row, 'Field', c.field ?? '—');
      const found = c.check === 'crc' ? `found ${c.found ?? 'none'}, expected ${c.expected}` : c.found === null ? (c.field === null ? '—' : '(absent)') : c.found;
      cell(row, 'Found', mono(found));
      const verdict = document.createElement('span');
      verdict.className = c.ok ? 'ok' : 'bad';
      verdict.textContent = `${c.ok ? '✓ valid' : '✗ invalid'}: ${c.message}`;
      cell(row, 'Result', verdict);
      body.append(row);
    }
    const fields = document.querySelector('#fields tbody');
    fields.replaceChildren();
    for (const f of result.fields) {
      for (const [id, name, value] of [[f.id, f.name, f.subfields ? '' : f.value], ...(f.subfields ?? []).map((s) => [`${f.id}-${s.id}`, s.name, s.value])]) {
        const row = document.createElement('tr');
        cell(row, 'ID', id);
        cell(row, 'Name', name);
        cell(row, 'Value', mono(value));
        fields.append(row);
      }
    }
    const charge = result.charge;
    paySection.hidden = !charge;
    // The success screen stays up for the charge it is about (the stream re-checks that charge after it is paid).
    const showPaid = !!charge && charge.id === paidId;
    $('paid-screen').hidden = !showPaid;
    $('pay-form').hidden = showPaid;
    // Success is said once, by the success screen (the outcome stays for screen readers in the alert).
    verdictEl.hidden = showPaid;
    $('charge-summary').hidden = showPaid;
    payResult.classList.toggle('visually-hidden', showPaid);
    if (!showPaid) payResult.textContent = '';
    if (charge) {
      const summary = $('charge-summary');
      summary.replaceChildren();
      const link = document.createElement('a');
      link.href = charge.checkoutPath;
      link.textContent = 'checkout page';
      summary.append(`${charge.merchantName}: ${window.sandbox.brl(charge.amount)}${charge.description ? ` (${charge.description})` : ''}, ${charge.status}. Open its `, link, '.');
      payButton.disabled = result.verdict !== 'payable';
      payButton.textContent = `Pay ${window.sandbox.brl(charge.amount)}`;
    }
    // What stops this page paying it is said where the Pay button would be, before anyone presses it.
    const blocked = charge && !showPaid ? blockedBecause(charge, result) : '';
    $('pay-blocked').textContent = blocked;
    $('pay-blocked').hidden = !blocked;
    if (blocked) $('pay-form').hidden = true;
    if (blocked && result.verdict === 'payable') {
      verdictEl.textContent = 'A valid code of a pending charge, but not one this page pays: see below.';
      verdictEl.className = `verdict ${VERDICT_CLASS.not_payable}`;
    }
  }

  const STATUS_WORDS = { paid: 'is paid already', expired: 'expired', cancelled: 'was cancelled', failed: 'failed' };
  /** Why this page cannot pay `charge`, in words ('' when it can): it ended, or it is another tenant's than the attendee's. */
  function blockedBecause(charge, result) {
    const me = document.body.dataset;
    if (me.attendeeAccount && charge.accountId !== me.attendeeAccount)
      return `This charge belongs to another tenant (${charge.merchantName}), not ${me.attendeeName}'s: your token pays only your own tenant's charges. Pay one you created from your console.`;
    if (charge.status !== 'pending') return `Nothing to pay: this charge ${STATUS_WORDS[charge.status] ?? charge.status}.`;
    if (me.attendeeReadOnly === 'true') return `This is ${me.attendeeName}'s read-only view: it pays nothing.`;
    return result.verdict === 'payable' ? '' : result.message;
  }

  // `show`: a code just came in (pasted, typed, read from a QR, Check pressed), so what it says, and Pay when it can
  // be paid, are brought into view (on a phone they are below the box); a re-check from the stream moves nothing.
  async function decode(code, show = false) {
    lastChecked = code.trim();
    readResult.textContent = 'Checking…';
    const res = await window.sandbox.api('POST', '/_sandbox/brcodes/decode', { code });
    if (code !== textarea.value) return; // the box changed while this was checked: its own check follows
    if (!res.ok) {
      readResult.textContent = window.sandbox.errorText(res);
      return;
    }
    readResult.textContent = '';
    render(res.data);
    const wrong = res.data.verdict !== 'payable';
    textarea.setAttribute('aria-invalid', String(res.data.verdict === 'invalid'));
    if (show) {
      if (wrong || paySection.hidden) verdictEl.scrollIntoView({ block: 'nearest' });
      else payButton.scrollIntoView({ block: 'nearest' });
    }
  }
  let lastChecked = null;

  $('decode-form').addEventListener('submit', (e) => {
    e.preventDefault();
    window.sandbox.ready(() => decode(textarea.value, true));
  });

  // A code is checked as it comes in: at once when pasted or dropped, after a pause in typing otherwise.
  let typing = 0;
  textarea.addEventListener('input', (e) => {
    clearTimeout(typing);
    const text = textarea.value.trim();
    if (!text || text === lastChecked) return;
    const now = e.inputType === 'insertFromPaste' || e.inputType === 'insertFromDrop';
    typing = setTimeout(() => window.sandbox.ready(() => decode(textarea.value, true)), now ? 0 : 600);
  });

  // A QR found in pixels (an image file or a camera frame) becomes the pasted text, then goes through the same check.
  function readPixels(source, width, height) {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(source, 0, 0, width, height);
    const { data } = ctx.getImageData(0, 0, width, height);
    return window.jsQR(data, width, height, { inversionAttempts: 'attemptBoth' });
  }

  function found(text, where) {
    textarea.value = text;
    window.sandbox.ready(async () => {
      await decode(text, true);
      if (!readResult.textContent) readResult.textContent = `Read a QR code from ${where}.`;
    });
  }

  $('qr-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    readResult.textContent = `Reading ${file.name}…`;
    try {
      const bitmap = await createImageBitmap(file);
      // Large photos are scaled down: jsQR is quick on a phone-sized frame and needs no more.
      const scale = Math.min(1, 1200 / Math.max(bitmap.width, bitmap.height));
      const qr = readPixels(bitmap, Math.round(bitmap.width * scale), Math.round(bitmap.height * scale));
      if (qr) found(qr.data, file.name);
      else readResult.textContent = `No QR code found in ${file.name}; try a sharper or closer picture.`;
    } catch {
      readResult.textContent = `${file.name} is not an image this browser can read.`;
    }
    e.target.value = '';
  });

  const video = $('camera');
  let stream = null;
  function stopCamera() {
    stream?.getTracks().forEach((t) => t.stop());
    stream = null;
    video.hidden = true;
    $('camera-stop').hidden = true;
    $('camera-start').hidden = false;
  }
  $('camera-stop').addEventListener('click', stopCamera);
  $('camera-start').addEventListener('click', async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      readResult.textContent = 'This browser gives no camera here: browsers allow it on https or localhost only. Take a photo and use "Read a QR image" instead.';
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    } catch (err) {
      readResult.textContent = `No camera: ${err.message}. Use "Read a QR image" instead.`;
      return;
    }
    video.srcObject = stream;
    video.hidden = false;
    $('camera-stop').hidden = false;
    $('camera-start').hidden = true;
    await video.play();
    readResult.textContent = 'Hold the QR code in front of the camera.';
    const scan = () => {
      if (!stream) return;
      if (video.readyState >= 2 && video.videoWidth > 0) {
        const qr = readPixels(video, video.videoWidth, video.videoHeight);
        if (qr) {
          stopCamera();
          found(qr.data, 'the camera');
          return;
        }
      }
      requestAnimationFrame(scan);
    };
    requestAnimationFrame(scan);
  });

  const form = $('pay-form');
  window.payerForm(form, async (body) => {
    if (!current?.charge) return;
    payResult.textContent = 'Paying…';
    const { charge } = current;
    const res = await window.sandbox.api('POST', charge.payPath, body);
    await decode(textarea.value);
    payResult.textContent = res.ok ? `Paid: ${charge.merchantName} received ${window.sandbox.brl(charge.amount)}.` : window.sandbox.errorText(res);
    payResult.dataset.paid = String(res.ok);
    if (res.ok) {
      paidId = charge.id;
      // The success screen in place of the form: what a banking app shows after a PIX.
      $('pay-form').hidden = true;
      verdictEl.hidden = true;
      $('charge-summary').hidden = true;
      payResult.classList.add('visually-hidden');
      $('paid-title').textContent = `Paid ${window.sandbox.brl(charge.amount)}`;
      $('paid-detail').textContent = `to ${charge.merchantName}${charge.description ? ` (${charge.description})` : ''}${res.data?.e2eId ? `. End-to-end id ${res.data.e2eId}` : ''}.`;
      $('paid-screen').hidden = false;
      $('paid-screen').focus?.();
    }
  });

  $('pay-another').addEventListener('click', () => {
    paidId = null;
    textarea.value = '';
    resultSection.hidden = true;
    textarea.focus();
  });

  // Paste: the clipboard where the browser allows it (https or localhost), else say how.
  $('paste').addEventListener('click', async () => {
    try {
      const text = (await navigator.clipboard.readText()).trim();
      if (!text) {
        readResult.textContent = 'The clipboard is empty: copy the PIX code first.';
        return;
      }
      textarea.value = text;
      window.sandbox.ready(() => decode(text, true));
    } catch {
      textarea.focus();
      readResult.textContent = 'This browser does not let the page read the clipboard here: long-press the box and choose Paste.';
    }
  });

  // The connection state in the header, and a decoded charge that moves elsewhere (paid from the console) is re-checked.
  window.sandbox.ready(() =>
    window.sandbox.stream((msg) => {
      if (msg.kind === 'transaction' && current?.charge && msg.data?.id === current.charge.id) decode(textarea.value);
    }, null),
  );
  // Pix Automático: the payer authorises or refuses a recurrence (POST /_sandbox/api-pix/solicrec/{id}/accept|reject).
  document.querySelectorAll('button.rec-answer').forEach((button) => {
    button.addEventListener('click', () => {
      const row = button.closest('tr');
      const out = row.querySelector('.rec-result');
      window.sandbox.ready(() => {
        row.querySelectorAll('button').forEach((b) => (b.disabled = true));
        window.sandbox.api('POST', `/_sandbox/api-pix/solicrec/${encodeURIComponent(button.dataset.solicrec)}/${button.dataset.answer}`).then((result) => {
          if (result.ok) out.textContent = ` ${result.data.status === 'ACEITA' ? 'Authorised' : 'Refused'}: the recurrence is ${result.data.rec.status}.`;
          else {
            out.textContent = ` ${window.sandbox.errorText(result)}`;
            row.querySelectorAll('button').forEach((b) => (b.disabled = false));
          }
        });
      });
    });
  });
})();
