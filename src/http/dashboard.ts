// The dashboard at /: every account with its wallets' balances and its latest events, server-rendered (no assets,
// works offline), refreshing itself every 5 s. Shows no secrets.
import type { Hono } from 'hono';
import type { Deps } from '../deps';
import { toBrl } from '../domain/money';
import { totalOf } from '../domain/ledger';
import type { Env } from './env';

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const brl = (cents: number) => toBrl(cents).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

export function registerDashboard(app: Hono<Env>, deps: Deps, version: string) {
  app.get('/', (c) => {
    const accounts = Object.values(deps.store.state.accounts);
    const sections = accounts.map((a) => {
      const wallets = [{ label: 'main', w: a.wallets[a.id]!, status: a.status }, ...a.subAccounts.map((s) => ({ label: s.reference, w: a.wallets[s.id]!, status: s.status }))];
      const rows = wallets
        .map(({ label, w, status }) => `<tr><td>${esc(label)}</td><td>${esc(status)}</td><td>${brl(w.balances.available)}</td><td>${brl(w.balances.held)}</td><td>${brl(totalOf(w))}</td></tr>`)
        .join('');
      const events = a.events
        .slice(-15)
        .reverse()
        .map((e) => `<li><code>${esc(new Date(e.createdAt).toISOString())}</code> ${esc(e.event)} ${e.subAccount ? `(${esc(e.subAccount)})` : ''} <code>${esc(e.eventId)}</code></li>`)
        .join('');
      return `<section><h2>${esc(a.name)} <small>${esc(a.id)} · ${esc(a.environment)}</small></h2>
<table><tr><th>wallet</th><th>status</th><th>available</th><th>held</th><th>total</th></tr>${rows}</table>
<h3>Latest events</h3>${events ? `<ul>${events}</ul>` : '<p>None yet.</p>'}</section>`;
    });
    return c.html(`<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>pix-sandbox</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}td,th{padding:.2rem .8rem;border-bottom:1px solid #ddd;text-align:left}small{color:#777;font-weight:normal}</style></head>
<body><h1>pix-sandbox <small>${esc(version)}</small></h1>
<p>Sandbox clock: <code>${esc(deps.clock.iso())}</code>${deps.clock.frozen ? ' (frozen)' : ''} · <a href="/docs">API docs</a> · <a href="/openapi.json">OpenAPI</a> · <a href="/_sandbox/health">health</a></p>
${sections.join('\n') || '<p>No accounts. POST /_sandbox/reset loads the fixtures.</p>'}
</body></html>`);
  });
}
