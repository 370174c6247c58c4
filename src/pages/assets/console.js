// The console's live part. Every form with data-action is sent as JSON to that /_sandbox route (the same call curl
// makes); its outcome, a refusal or a success, shows once in the form's <output>. Every message of GET
// /_sandbox/stream marks the page stale; shortly after, the sections are fetched again from GET /_sandbox/console
// (same query as the page) and swapped in, keeping open <details> open, leaving alone a section whose field is being
// typed in (until it loses focus), and highlighting the rows that changed. A story played from the Stories panel
// shows each of its steps as the stream tells of it.
(function () {
  'use strict';
  var root = document.getElementById('console');
  if (!root) return;
  var query = root.dataset.query || '';
  var inFlight = false;
  var again = false;
  var timer = null;
  var playing = null; // the story being played from this page

  function editing(section) {
    var el = document.activeElement;
    return !!el && section.contains(el) && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.type !== 'hidden';
  }

  /** Row keys (transactions, blocks, deliveries) with what they show, to highlight the ones a swap changed. */
  function rowStates(el) {
    var out = {};
    el.querySelectorAll('[data-tx],[data-block],[data-delivery]').forEach(function (r) {
      var key = r.dataset.tx || r.dataset.block || r.dataset.delivery;
      out[key] = (r.dataset.status || '') + '|' + (r.dataset.state || '') + '|' + (r.dataset.updated || '');
    });
    return out;
  }

  function swap(current, next, fresh) {
    current.querySelectorAll('details[open][id]').forEach(function (d) {
      var same = next.querySelector('#' + CSS.escape(d.id));
      if (!same) return;
      same.open = true;
      // What was typed or ticked in an open menu (a refused form's fields) stays as it was.
      d.querySelectorAll('input[id], select[id]').forEach(function (el) {
        var twin = same.querySelector('#' + CSS.escape(el.id));
        if (!twin) return;
        if (el.type === 'checkbox') twin.checked = el.checked;
        else twin.value = el.value;
      });
    });
    // Keep an outcome shown next to its button until the next action.
    current.querySelectorAll('form[data-action] output, output.kept').forEach(function (o) {
      if (!o.textContent) return;
      var place = outputIn(next, o);
      if (place) { place.textContent = o.textContent; place.className = o.className.replace(/ kept$/, '') + (place.closest('form[data-action]') ? '' : ' kept'); }
    });
    var before = rowStates(current);
    window.sandbox.localize(next, fresh); // relative times on the clock the fresh console shows
    current.replaceWith(next);
    next.querySelectorAll('[data-tx],[data-block],[data-delivery]').forEach(function (r) {
      var key = r.dataset.tx || r.dataset.block || r.dataset.delivery;
      var now = (r.dataset.status || '') + '|' + (r.dataset.state || '') + '|' + (r.dataset.updated || '');
      if (before[key] !== now) r.classList.add('changed');
    });
  }

  function apply(html) {
    var tpl = document.createElement('template');
    tpl.innerHTML = html;
    var fresh = tpl.content;
    var sections = fresh.querySelectorAll('[data-section]');
    var accountNow = root.firstElementChild && root.firstElementChild.dataset.account;
    var accountNext = fresh.firstElementChild && fresh.firstElementChild.dataset && fresh.firstElementChild.dataset.account;
    if (!root.querySelector('[data-section]') || accountNow !== accountNext) {
      window.sandbox.localize(fresh);
      root.replaceChildren(fresh); // first load, or the account is gone (reset): the whole console
      return false;
    }
    var deferred = false;
    sections.forEach(function (next) {
      var current = document.getElementById(next.id);
      if (!current) return;
      if (editing(current)) { deferred = true; return; }
      swap(current, next, fresh);
    });
    // Rows that did not change still read "3 min ago" against the clock as it stands now.
    window.sandbox.localize(root);
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
    if (t === 'checkbox') return el.checked;
    if (t === 'nullable') return el.value.trim() === '' ? null : el.value.trim();
    if (t === 'boolean') return el.value === 'true';
    if (t === 'number') {
      var n = Number(String(el.value).replace(',', '.'));
      return el.value === '' || isNaN(n) ? el.value : n;
    }
    return el.value;
  }

  /** Sets body[a][b] for a name "a.b" (a number makes an array: "rules.0.path"). */
  function put(body, name, value) {
    var keys = name.split('.');
    var at = body;
    for (var i = 0; i < keys.length - 1; i++) {
      if (at[keys[i]] === undefined) at[keys[i]] = /^\d+$/.test(keys[i + 1]) ? [] : {};
      at = at[keys[i]];
    }
    at[keys[keys.length - 1]] = value;
  }

  /**
   * Where `o`'s outcome shows in `within` (the fresh markup of a live update, or the page): the same form's output,
   * or, when that action is no longer offered (a payment refunded in full has no Refund), a kept output in the
   * nearest container of it that still is (the transaction's actions cell, its section).
   */
  function outputIn(within, o) {
    var form = o.closest('form[data-action]');
    if (form) {
      var twin = within.querySelector('form[data-action="' + CSS.escape(form.dataset.action) + '"] output');
      if (twin) return twin;
    }
    for (var el = o.parentElement; el; el = el.parentElement) {
      if (!el.id) continue;
      var box = within.querySelector('#' + CSS.escape(el.id));
      if (!box) continue;
      var cell = box.querySelector('td[data-label="Actions"]') || box;
      var kept = cell.querySelector(':scope > output.kept');
      if (!kept) {
        kept = document.createElement('output');
        kept.setAttribute('role', 'status');
        cell.append(kept);
      }
      return kept;
    }
    return null;
  }

  function say(out, text, kind) {
    if (!out) return;
    // A live update may have replaced the form while its request was out: say it where the form is now.
    if (!out.isConnected) out = outputIn(document, out);
    if (!out) return;
    out.className = 'outcome ' + kind + (out.closest('form[data-action]') ? '' : ' kept');
    out.textContent = text;
  }

  function link(href, text, newTab) {
    var a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    if (newTab) { a.target = '_blank'; a.rel = 'noopener'; }
    return a;
  }

  function successText(form, data) {
    var action = form.dataset.action;
    if (/\/reset$/.test(action)) return 'Reset done.';
    if (/\/faults$/.test(action)) return data && data.rules && data.rules.length ? 'In force: ' + data.rules.map(function (r) { return r.method + ' ' + r.path + ' → ' + r.status; }).join(', ') + '.' : 'No API faults.';
    if (/\/withdrawals$/.test(action)) return 'Withdrawal ' + String(data.id).slice(0, 8) + ' created: ' + data.status + '.';
    if (/\/institutions\//.test(action)) return data.name + ' is ' + String(data.status).replace(/_/g, ' ') + '.';
    if (/\/webhooks\//.test(action)) return data.url ? 'Points at ' + data.url + '.' : 'Points nowhere.';
    if (/\/clock/.test(action)) return '';
    if (/\/workshop$/.test(action)) return data && data.ended ? 'The workshop ended: ' + data.deleted + ' tenants deleted.' : data && data.open ? 'Joining is open.' : 'Joining is closed.';
    return 'Done.';
  }

  // Story steps arrive on the stream (each step commits on its own); the POST's answer closes the run.
  function storyStep(m) {
    if (!playing || !m.data || m.data.story !== playing) return;
    var log = document.getElementById('story-log');
    var li = document.createElement('li');
    li.dataset.step = String(m.data.step);
    var strong = document.createElement('strong');
    strong.textContent = m.data.title + ': ';
    li.append(strong, m.data.did);
    log.append(li);
  }

  document.addEventListener('submit', function (e) {
    var form = e.target.closest('form[data-action]');
    if (!form) return;
    e.preventDefault();
    var out = form.querySelector('output');
    // An irreversible action's box not ticked: said on the page, nothing sent (pages/room.tsx ConfirmBox).
    var unticked = form.querySelector('input[data-confirm]:not(:checked)');
    if (unticked) { say(out, unticked.dataset.confirm, 'error'); unticked.focus(); return; }
    var body = {};
    var params = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.dataset.send === 'no') return;
      // Empty optional fields are not sent; a 'text' field is (an empty name is for the route to refuse in words).
      if (el.value === '' && !/^(null|nullable|checkbox|text)$/.test(el.dataset.type || '')) return;
      if (el.dataset.in === 'query') params.push(encodeURIComponent(el.name) + '=' + encodeURIComponent(el.value));
      else put(body, el.name, valueOf(el));
    });
    var url = form.dataset.action + (params.length ? '?' + params.join('&') : '');
    var button = form.querySelector('button[type=submit]');
    var then = form.dataset.then;
    var open = then === 'checkout' && form.elements.open ? form.elements.open.value : 'no';
    // A tab opened after the answer would be blocked as a pop-up: open it now, point it at the checkout after.
    var tab = open === 'tab' ? window.open('about:blank', '_blank') : null;
    if (out) { out.textContent = ''; out.className = 'outcome'; }
    document.querySelectorAll('output.kept').forEach(function (k) { k.remove(); }); // the last action's, kept where its form was
    button.disabled = true;
    if (then === 'story') {
      playing = form.dataset.action.split('/').pop();
      document.getElementById('story-run').hidden = false;
      document.getElementById('story-run-title').textContent = 'Playing: ' + form.querySelector('.story-title strong').textContent;
      document.getElementById('story-log').replaceChildren();
      document.getElementById('stories').dataset.playing = playing;
    }
    var method = form.dataset.method || 'POST';
    window.sandbox.api(method, url, method === 'DELETE' ? undefined : body).then(function (r) {
      button.disabled = false;
      if (!r.ok) {
        if (tab) tab.close();
        say(out, window.sandbox.errorText(r), 'error');
        if (then === 'story') { playing = null; delete document.getElementById('stories').dataset.playing; }
        return;
      }
      if (then === 'checkout' && r.data && r.data.checkoutUrl) {
        if (open === 'here') { window.location.assign(r.data.checkoutUrl); return; }
        if (tab) { tab.opener = null; tab.location.href = r.data.checkoutUrl; }
        out.className = 'outcome ok';
        out.replaceChildren('Charge ' + r.data.id.slice(0, 8) + ' created. ', link(r.data.checkoutUrl, 'Open its checkout', true));
      } else if (then === 'story') {
        var stories = document.getElementById('stories');
        delete stories.dataset.playing;
        stories.dataset.played = playing;
        var log = document.getElementById('story-log');
        // Steps the stream did not bring (it was down): fill them in from the answer.
        r.data.steps.forEach(function (s) {
          if (!log.querySelector('li[data-step="' + s.n + '"]')) storyStep({ data: { story: playing, step: s.n, title: s.title, did: s.did } });
        });
        document.getElementById('story-run-title').textContent = 'Played: ' + r.data.title;
        playing = null;
      } else {
        var text = successText(form, r.data);
        if (text) say(out, text, 'ok');
      }
      soon(); // the stream will say so too; this makes the answer show even if the stream is down
    });
  });

  window.sandbox.ready(function () {
    var loaded = !!root.querySelector('[data-section]');
    if (!loaded) refresh();
    window.sandbox.stream(function (m) {
      if (m.kind === 'story') { storyStep(m); return; }
      if (m.kind === 'clock' && m.data) {
        var now = document.getElementById('clock-now');
        var section = document.getElementById('clock');
        // The clock shown is the account's own (moves naming it) or the sandbox clock (moves naming no account).
        var shown = section ? section.getAttribute('data-clock-account') || undefined : undefined;
        if (now && m.data.accountId === shown) {
          now.setAttribute('datetime', m.data.now);
          now.setAttribute('title', m.data.now);
          now.textContent = window.sandbox.localText(new Date(m.data.now));
        }
      }
      soon();
    }, null);
  });
})();
