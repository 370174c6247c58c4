// The Room panel's CSV export: a plain link cannot send the admin token (or an attendee's), so the file is fetched
// with it through window.sandbox.api and saved from a blob. Plain script, no inline code (CSP).
(function () {
  'use strict';
  document.addEventListener('click', function (e) {
    var button = e.target.closest && e.target.closest('button[data-download]');
    if (!button) return;
    window.sandbox.api('GET', button.dataset.download).then(function (r) {
      if (!r.ok) { button.title = window.sandbox.errorText(r); return; }
      var a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([r.text], { type: 'text/csv' }));
      a.download = button.dataset.filename || 'download.csv';
      document.body.appendChild(a);
      a.click();
      setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    });
  });
})();
