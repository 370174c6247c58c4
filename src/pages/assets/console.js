// The console's live part. Every form with data-action is sent as JSON to that /_sandbox route (the same call curl
// makes); a refusal (409 and co.) shows in the form's <output>. Every message of GET /_sandbox/stream marks the page
// stale; shortly after, the sections are fetched again from GET /_sandbox/console (same query as the page) and swapped
// in, keeping open <details> open and leaving alone a section whose field is being typed in (until it loses focus).
(function () {
  'use strict';
  var root = document.getElementById('console');
  if (!root) return;
  var query = root.dataset.query || '';
  var inFlight = false;
  var again = false;
  var timer = null;

  function editing(section) {
    var el = document.activeElement;
    return !!el && section.contains(el) && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.type !== 'hidden';
  }

  function swap(current, next) {
    current.querySelectorAll('details[open][id]').forEach(function (d) {
      var same = next.querySelector('#' + CSS.escape(d.id));
      if (same) same.open = true;
    });
    // Keep a refusal shown next to its button until the next action.
    current.querySelectorAll('form[data-action] output').forEach(function (o) {
      if (!o.textContent) return;
      var form = o.closest('form');
      var twin = next.querySelector('form[data-action="' + CSS.escape(form.dataset.action) + '"] output');
      if (twin) twin.textContent = o.textContent;
    });
    current.replaceWith(next);
  }

  function apply(html) {
    var tpl = document.createElement('template');
    tpl.innerHTML = html;
    var fresh = tpl.content;
    var sections = fresh.querySelectorAll('[data-section]');
    var accountNow = root.firstElementChild && root.firstElementChild.dataset.account;
    var accountNext = fresh.firstElementChild && fresh.firstElementChild.dataset && fresh.firstElementChild.dataset.account;
    if (!root.querySelector('[data-section]') || accountNow !== accountNext) {
      root.replaceChildren(fresh); // first load, or the account is gone (reset): the whole console
      return false;
    }
    var deferred = false;
    sections.forEach(function (next) {
      var current = document.getElementById(next.id);
      if (!current) return;
      if (editing(current)) { deferred = true; return; }
      swap(current, next);
    });
    return deferred;
  }

  function refresh() {
    timer = null;
    if (inFlight) { again = true; return; }
    inFlight = true;
    window.sandbox.api('GET', '/_sandbox/console' + query).then(function (r) {
      inFlight = false;
      if (r.status === 404) {
        // What this console shows is gone (a reset, a deleted account or sub-account): to the account list, with a note.
        window.location.assign('/?gone=1');
        return;
      }
      if (r.ok) {
        var deferred = apply(r.text);
        document.body.dataset.refreshed = String(Date.now());
        if (deferred) document.addEventListener('focusout', soon, { once: true });
      }
      if (again) { again = false; soon(); }
    });
  }

  function soon() {
    if (timer === null) timer = setTimeout(refresh, 30);
  }

  function valueOf(el) {
    var t = el.dataset.type;
    if (t === 'null') return null;
    if (t === 'boolean') return el.value === 'true';
    if (t === 'number') {
      var n = Number(String(el.value).replace(',', '.'));
      return el.value === '' || isNaN(n) ? el.value : n;
    }
    return el.value;
  }

  document.addEventListener('submit', function (e) {
    var form = e.target.closest('form[data-action]');
    if (!form) return;
    e.preventDefault();
    var body = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || (el.value === '' && el.dataset.type !== 'null')) return; // empty optional fields are not sent
      body[el.name] = valueOf(el);
    });
    var out = form.querySelector('output');
    var button = form.querySelector('button[type=submit]');
    if (out) out.textContent = '';
    button.disabled = true;
    window.sandbox.api(form.dataset.method || 'POST', form.dataset.action, body).then(function (r) {
      button.disabled = false;
      if (!r.ok) {
        if (out) out.textContent = window.sandbox.errorText(r);
        return;
      }
      if (form.dataset.then === 'checkout' && r.data && r.data.checkoutUrl) {
        window.location.assign(r.data.checkoutUrl);
        return;
      }
      soon(); // the stream will say so too; this makes the answer show even if the stream is down
    });
  });

  window.sandbox.ready(function () {
    var loaded = !!root.querySelector('[data-section]');
    if (!loaded) refresh();
    window.sandbox.stream(function (m) {
      if (m.kind === 'clock' && m.data) {
        var now = document.getElementById('clock-now');
        if (now) now.textContent = m.data.now.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
      }
      soon();
    }, null);
  });
})();
