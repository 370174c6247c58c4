// Shared by every page of the sandbox: the admin token (asked once, kept in sessionStorage for this tab), calls to
// the same /_sandbox routes curl uses, and the live stream (GET /_sandbox/stream). Plain script, no build step.
// window.sandbox = { api(method, url, body), stream(onMessage, accountId), ready(fn), errorText(result) }
(function () {
  'use strict';
  var KEY = 'pix-sandbox-token';
  // Read when needed: the script may run before <body> exists (loaded without defer).
  function needsToken() { return !!document.body && document.body.dataset.needsToken === 'true'; }
  var waiting = [];
  var EVENT_NAMES = ['transaction', 'delivery', 'clock', 'reset', 'payment_completed', 'payment_expired', 'refund_completed', 'withdrawal_completed',
    'withdrawal_failed', 'withdrawal_reversed', 'balance_block_created', 'balance_block_approved', 'balance_block_rejected', 'pix'];

  function token() {
    try { return sessionStorage.getItem(KEY) || ''; } catch (e) { return ''; }
  }
  function hasToken() { return !needsToken() || token() !== ''; }

  function askToken(message) {
    var form = document.getElementById('token-form');
    if (!form) return;
    form.hidden = false;
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
    if (needsToken()) h['X-Sandbox-Token'] = token();
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
    }, function (err) {
      return { ok: false, status: 0, data: null, text: 'The sandbox did not answer (' + err.message + '). Is it still running?' };
    });
  }

  /** The message of an error answer (the envelope's message), for showing next to the control that caused it. */
  function errorText(result) {
    var d = result.data;
    if (d && typeof d === 'object' && d.message) {
      var fields = d.details && d.details.fields ? ' (' + d.details.fields.map(function (f) { return f.field + ' ' + f.message; }).join('; ') + ')' : '';
      return d.message + fields;
    }
    return result.text || 'HTTP ' + result.status;
  }

  /**
   * Follows the live stream; onMessage({kind, data}) for each message, and {kind: 'reconnected'} when the stream
   * comes back after a break (the page should then re-read everything: it may have missed changes).
   */
  function stream(onMessage, accountId) {
    var q = [];
    if (accountId) q.push('accountId=' + encodeURIComponent(accountId));
    if (needsToken()) q.push('token=' + encodeURIComponent(token()));
    var source = new EventSource('/_sandbox/stream' + (q.length ? '?' + q.join('&') : ''));
    var broken = false;
    EVENT_NAMES.forEach(function (name) {
      source.addEventListener(name, function (e) {
        var data = null;
        try { data = JSON.parse(e.data); } catch (err) { data = null; }
        onMessage({ kind: name, data: data });
      });
    });
    source.addEventListener('error', function () { broken = true; });
    source.addEventListener('open', function () {
      document.body.dataset.live = 'true';
      if (broken) { broken = false; onMessage({ kind: 'reconnected', data: null }); }
    });
    return source;
  }

  document.addEventListener('DOMContentLoaded', function () {
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

  window.sandbox = { api: api, stream: stream, ready: ready, errorText: errorText, needsToken: needsToken };
})();
