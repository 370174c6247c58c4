// Shared by every page of the sandbox: the admin token (asked once, kept in sessionStorage for this tab), calls to
// the same /_sandbox routes curl uses, the live stream (GET /_sandbox/stream) with an honest connection state in the
// header ("live" only while the stream is open), times in the browser's zone with the offset (ISO on hover), copy
// buttons, and projector mode (remembered in localStorage). Plain script, no build step, no inline code (CSP).
// window.sandbox = { api(method, url, body), stream(onMessage, accountId), ready(fn), errorText(result), localize(root, clockFrom), needsToken(), brl(reais) }
(function () {
  'use strict';
  var KEY = 'pix-sandbox-token';
  var PROJECTOR_KEY = 'pix-sandbox-projector';
  // Read when needed: the script may run before <body> exists (loaded without defer).
  function needsToken() { return !!document.body && document.body.dataset.needsToken === 'true'; }
  var waiting = [];
  var EVENT_NAMES = ['transaction', 'request', 'delivery', 'clock', 'reset', 'story', 'payment_completed', 'payment_expired', 'refund_completed', 'withdrawal_completed',
    'withdrawal_failed', 'withdrawal_reversed', 'balance_block_created', 'balance_block_approved', 'balance_block_rejected', 'pix', 'workshop'];

  // A workshop attendee's page carries their console token: it is sent in place of the admin token.
  function attendeeToken() { return (document.body && document.body.dataset.attendeeToken) || ''; }
  function token() {
    if (attendeeToken()) return attendeeToken();
    try { return sessionStorage.getItem(KEY) || ''; } catch (e) { return ''; }
  }
  function hasToken() { return !needsToken() || token() !== ''; }

  function askToken(message) {
    var form = document.getElementById('token-form');
    if (!form) return;
    form.hidden = false;
    // Nothing is followed until the token is given: the header says so rather than "connecting…".
    var conn = document.getElementById('conn');
    if (conn) { conn.dataset.state = 'not-followed'; conn.textContent = 'waiting for the admin token'; }
    document.getElementById('token-error').textContent = message || '';
    document.getElementById('token-input').focus();
  }

  /** Runs fn now if the page can call the control API, else once the token is entered. */
  function ready(fn) {
    if (hasToken()) fn(); else { waiting.push(fn); askToken(); }
  }

  function headers(body) {
    var h = { Accept: 'application/json' };
    if (body !== undefined) h['Content-Type'] = 'application/json';
    if (needsToken() || attendeeToken()) h['X-Sandbox-Token'] = token();
    return h;
  }

  /** fetch with the token; resolves {ok, status, data, text}, never rejects (a network failure is status 0). */
  function api(method, url, body) {
    return fetch(url, { method: method, headers: headers(body), body: body === undefined ? undefined : JSON.stringify(body) }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
        if (res.status === 401 && needsToken()) {
          try { sessionStorage.removeItem(KEY); } catch (e) { /* private mode */ }
          askToken('The sandbox refused that token; enter it again.');
        }
        return { ok: res.ok, status: res.status, data: data, text: text };
      });
    }, function () {
      return { ok: false, status: 0, data: null, text: 'The sandbox did not answer: is it still running? (The header says when it is back.)' };
    });
  }

  /**
   * The message of an error answer, once: the envelope's message already names each invalid field, so a field is
   * added only when the message does not say it already.
   */
  function errorText(result) {
    var d = result.data;
    if (d && typeof d === 'object' && d.message) {
      var extra = (d.details && d.details.fields ? d.details.fields : []).filter(function (f) {
        return d.message.indexOf(f.message) === -1;
      }).map(function (f) { return f.field + ' ' + f.message; });
      return extra.length ? d.message + ' (' + extra.join('; ') + ')' : d.message;
    }
    return result.text || 'HTTP ' + result.status;
  }

  /**
   * Says on an attendee's page that their tenant is gone ('ended': the workshop ended; 'reset': the sandbox was reset),
   * at the top of the page, in the words a reload of it answers (pages/gone.tsx: what happened, and joining again
   * while the room takes joins), and that what the page shows stays to read.
   */
  function tellGone(why) {
    var el = document.getElementById('conn');
    document.body.dataset.live = 'false';
    document.body.dataset.gone = why;
    if (el) { el.dataset.state = 'ended'; el.textContent = why === 'reset' ? 'sandbox reset' : 'workshop ended'; }
    var main = document.getElementById('main');
    main.querySelectorAll('button:not([data-copy]), input, select, textarea').forEach(function (b) { b.disabled = true; });
    var kept = document.createElement('p');
    kept.textContent = 'What this page shows stays here for you to read (its buttons no longer work).';
    fetch(location.href, { headers: { Accept: 'text/html' } }).then(function (res) { return res.text(); }).then(function (text) {
      return new DOMParser().parseFromString(text, 'text/html').getElementById('attendee-gone');
    }, function () { return null; }).then(function (note) {
      if (!note) { // the sandbox went away meanwhile: the reason alone
        note = document.createElement('div');
        note.className = 'card notice';
        note.id = 'attendee-gone';
        note.setAttribute('role', 'alert');
        note.append(Object.assign(document.createElement('p'), { textContent: why === 'reset' ? 'The sandbox was reset.' : 'The workshop has ended.' }));
      }
      note = document.adoptNode(note);
      note.firstElementChild.after(kept);
      main.prepend(note);
    });
  }

  // Connection state, in the header of every page that follows the stream.
  function setConnection(state) {
    var el = document.getElementById('conn');
    document.body.dataset.live = state === 'live' ? 'true' : 'false';
    if (!el) return;
    el.dataset.state = state;
    el.textContent = state === 'live' ? 'live' : state === 'offline' ? 'offline, reconnecting…' : 'connecting…';
  }

  /**
   * Follows the live stream; onMessage({kind, data}) for each message, and {kind: 'reconnected'} when the stream
   * comes back after a break (the page should then re-read everything: it may have missed changes). EventSource
   * retries by itself while the server is away; when it gives up (an answer that is not a stream), a new one is
   * opened a moment later, so the page comes back without a reload either way.
   */
  function stream(onMessage, accountId) {
    var q = [];
    if (accountId) q.push('accountId=' + encodeURIComponent(accountId));
    if (needsToken() || attendeeToken()) q.push('token=' + encodeURIComponent(token()));
    var url = '/_sandbox/stream' + (q.length ? '?' + q.join('&') : '');
    var broken = false;
    var source = null;
    function open() {
      source = new EventSource(url);
      EVENT_NAMES.forEach(function (name) {
        source.addEventListener(name, function (e) {
          var data = null;
          try { data = JSON.parse(e.data); } catch (err) { data = null; }
          // An attendee's tenant goes with the workshop's end and with a reset: the page stops following (its token
          // opens nothing now), keeps what it shows to read, and says so; nothing re-reads it into an error.
          if (attendeeToken() && (name === 'reset' || (name === 'workshop' && data && data.change === 'ended'))) {
            source.close();
            source = null;
            tellGone(name === 'reset' ? 'reset' : 'ended');
            return;
          }
          onMessage({ kind: name, data: data });
        });
      });
      source.addEventListener('error', function () {
        if (!source) return;
        broken = true;
        setConnection('offline');
        if (source.readyState === 2) setTimeout(open, 1500);
      });
      source.addEventListener('open', function () {
        setConnection('live');
        if (broken) { broken = false; onMessage({ kind: 'reconnected', data: null }); }
      });
    }
    open();
    return { close: function () { if (source) source.close(); } };
  }

  // Times: "2026-03-10 09:00:00 −03:00" in the browser's zone; relative ones as "3 min ago" on the sandbox clock.
  function pad(n) { return String(n).padStart(2, '0'); }
  function localText(d) {
    var off = -d.getTimezoneOffset();
    var sign = off >= 0 ? '+' : '−';
    var a = Math.abs(off);
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' + pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds()) + ' ' + sign + pad(Math.floor(a / 60)) + ':' + pad(a % 60);
  }
  /** The clock the page shows: in `from` (a fresh console not yet in the page) first, else in the page; else real time. */
  function sandboxNow(from) {
    var clock = (from && from.querySelector && from.querySelector('#clock-now')) || document.getElementById('clock-now');
    var t = clock ? Date.parse(clock.getAttribute('datetime')) : NaN;
    return isNaN(t) ? Date.now() : t;
  }
  function relativeText(ms, now) {
    var s = Math.round((now - ms) / 1000);
    var future = s < 0;
    s = Math.abs(s);
    var text = s < 45 ? 'just now' : s < 3600 ? Math.round(s / 60) + ' min' : s < 86400 ? Math.round(s / 3600) + ' h' : Math.round(s / 86400) + ' d';
    return text === 'just now' ? text : future ? 'in ' + text : text + ' ago';
  }
  function localize(root, clockFrom) {
    var now = sandboxNow(clockFrom || root);
    (root || document).querySelectorAll('time[data-local]').forEach(function (el) {
      var ms = Date.parse(el.getAttribute('datetime'));
      if (isNaN(ms)) return;
      var text = localText(new Date(ms));
      el.textContent = el.dataset.local === 'relative' ? relativeText(ms, now) : el.dataset.local === 'time' ? text.slice(11) : el.dataset.local === 'date' ? text.slice(0, 10) : el.dataset.local === 'hm' ? text.slice(11, 16) + text.slice(19) : text;
    });
  }

  function setProjector(on) {
    document.documentElement.classList.toggle('projector', on);
    var button = document.getElementById('projector-toggle');
    if (button) button.setAttribute('aria-pressed', String(on));
    try { localStorage.setItem(PROJECTOR_KEY, on ? '1' : '0'); } catch (e) { /* private mode: not remembered */ }
  }
  function projectorRemembered() {
    try { return localStorage.getItem(PROJECTOR_KEY) === '1'; } catch (e) { return false; }
  }

  function copy(text, button) {
    var done = function (ok) {
      var before = button.textContent;
      button.textContent = ok ? 'Copied' : 'Select it';
      setTimeout(function () { button.textContent = before; }, 1200);
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
    else {
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.className = 'visually-hidden';
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      area.remove();
      done(ok);
    }
  }

  // An attendee who opened their console from its link (no join cookie in this browser) keeps their token on every
  // page they open from it: links to the sandbox's pages carry ?attendee=, as the console's own address does.
  var ATTENDEE_PAGES = /^\/(pay|pix\/qr\/[^/]+|c\/[^/]+)?$/;
  function carryToken(root) {
    var t = attendeeToken();
    if (!t) return;
    (root.querySelectorAll ? root : document).querySelectorAll('a[href]').forEach(function (a) {
      var url = new URL(a.href, location.href);
      if (url.origin !== location.origin || !ATTENDEE_PAGES.test(url.pathname) || url.searchParams.has('attendee')) return;
      url.searchParams.set('attendee', t);
      a.href = url.pathname + url.search + url.hash;
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    carryToken(document);
    if (attendeeToken()) new MutationObserver(function () { carryToken(document); }).observe(document.body, { childList: true, subtree: true });
    setProjector(projectorRemembered());
    localize(document);
    var toggle = document.getElementById('projector-toggle');
    if (toggle) toggle.addEventListener('click', function () { setProjector(!document.documentElement.classList.contains('projector')); });
    document.addEventListener('click', function (e) {
      var button = e.target.closest && e.target.closest('button[data-copy]');
      if (button) copy(button.dataset.copy, button);
    });
    var form = document.getElementById('token-form');
    if (!form) return;
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var value = document.getElementById('token-input').value;
      try { sessionStorage.setItem(KEY, value); } catch (err) { /* private mode: asked again next time */ }
      api('GET', '/_sandbox/health').then(function (r) {
        if (!r.ok) return;
        form.hidden = true;
        var run = waiting; waiting = [];
        run.forEach(function (fn) { fn(); });
      });
    });
  });

  // An amount of reais (a number, as the API answers it) as every page shows amounts: the rule of src/lib/brl.ts,
  // "R$ 1.019,50", so what the browser writes and what the server rendered never differ.
  function brl(reais) {
    var cents = Math.round(reais * 100);
    var abs = Math.abs(cents);
    var whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
    var rest = String(abs % 100);
    return (cents < 0 ? '-' : '') + 'R$ ' + whole + ',' + (rest.length < 2 ? '0' + rest : rest);
  }

  window.sandbox = { api: api, stream: stream, ready: ready, errorText: errorText, needsToken: needsToken, localize: localize, localText: localText, brl: brl };
})();
