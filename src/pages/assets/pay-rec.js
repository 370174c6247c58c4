// Payer page, Pix Automático: a decoded code that points at a recurrence (field 80: its own QR, or a QR Composto with a
// cob or cobv) shows the recurrence and asks the payer to authorise or decline it, as a bank app does. Authorising a
// QR Composto pays its charge in the same request. pay.js tells this script of each decode ('payer:decoded').
(() => {
  const $ = (id) => document.getElementById(id);
  const section = $('qr-recurrence');
  const details = $('qr-rec-details');
  const authorise = $('qr-rec-authorise');
  const decline = $('qr-rec-decline');
  const out = $('qr-rec-result');
  let rec = null;
  let charge = null;

  // The rule every page and the server write amounts by (R$ 1.234,50: src/lib/brl.ts, window.sandbox.brl).
  const brl = (reais) => window.sandbox.brl(reais);
  const PERIOD = { SEMANAL: 'weekly', MENSAL: 'monthly', TRIMESTRAL: 'quarterly', SEMESTRAL: 'every six months', ANUAL: 'yearly' };

  function row(term, value) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    details.append(dt, dd);
  }

  document.addEventListener('payer:decoded', (e) => {
    const result = e.detail;
    rec = result.recurrence;
    charge = result.verdict === 'payable' ? result.charge : null;
    section.hidden = !rec;
    if (!rec) return;
    details.replaceChildren();
    row('Receiver', rec.receiver);
    row('What', rec.objeto ? `${rec.objeto} (contract ${rec.contrato})` : `Contract ${rec.contrato}`);
    row('Value', rec.valorRec !== null ? `${brl(rec.valorRec)} each time` : rec.valorMinimoRecebedor !== null ? `from ${brl(rec.valorMinimoRecebedor)}, as charged` : 'as charged');
    row('How often', `${PERIOD[rec.periodicidade] ?? rec.periodicidade}, from ${rec.dataInicial}${rec.dataFinal ? ` to ${rec.dataFinal}` : ''}`);
    row('Debtor', rec.debtorName);
    if (charge) row('Paid now', `${brl(charge.amount)}${charge.description ? ` (${charge.description})` : ''}`);
    const open = rec.status === 'CRIADA';
    $('qr-rec-actions').hidden = !open;
    authorise.disabled = decline.disabled = false;
    authorise.textContent = charge ? `Authorise and pay ${brl(charge.amount)}` : 'Authorise';
    if (!open && !out.dataset.answered) out.textContent = `This recurrence is ${rec.status}: nothing to authorise.`;
    if (open) {
      out.textContent = '';
      delete out.dataset.answered;
    }
  });

  function answer(path, body) {
    authorise.disabled = decline.disabled = true;
    out.textContent = 'Sending your answer…';
    window.sandbox.ready(() =>
      window.sandbox.api('POST', path, body).then((res) => {
        if (!res.ok) {
          out.textContent = window.sandbox.errorText(res);
          authorise.disabled = decline.disabled = false;
          return;
        }
        out.dataset.answered = 'true';
        $('qr-rec-actions').hidden = true;
        out.textContent =
          res.data.status === 'APROVADA'
            ? `Authorised${charge ? ` and paid ${brl(charge.amount)}` : ''}: ${rec.receiver} will debit it on its dates (the recurrence is APROVADA).`
            : `Declined: the recurrence is ${res.data.status}.`;
      }),
    );
  }
  authorise.addEventListener('click', () => answer(rec.authorisePath, charge && rec.txid ? { txid: rec.txid } : undefined));
  decline.addEventListener('click', () => answer(rec.declinePath));
})();
