// The console at / (sandbox.md 5): one account at a time (the first unless ?account=), its clock, wallets,
// transactions of every type and state with the control actions their state allows, balance blocks, events and
// webhook deliveries with each attempt. Rendered here for the first paint and again, section by section, for the
// live updates of /assets/console.js (GET /_sandbox/console answers the same markup). Every button is a form whose
// data-action is the /_sandbox route curl would call; the script sends it and shows a refusal next to the button.
import type { Child } from 'hono/jsx';
import type { Deps } from '../deps';
import { toBrl } from '../domain/money';
import { brl } from './format';
import { totalOf } from '../domain/ledger';
import { PRINCIPAL } from '../domain/subaccounts';
import type { Account, BalanceBlock, Delivery, DeliveryAttempt, Transaction } from '../domain/types';
import { listAccountDeliveries, listAccountEvents, listAccountTransactions, referenceOf } from '../services/lists';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../domain/types';
import type { ListPage } from '../domain/pagination';
import { partsOf } from '../webhooks/dispatcher';
import type { SandboxEvent } from '../webhooks/events';
import { linkStatusAt } from '../domain/payment-links';
import { staticQrStatus } from '../services/static-qr';

export const CONSOLE_SECTIONS = ['clock', 'wallets', 'transactions', 'blocks', 'events', 'deliveries'] as const;
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];

export interface ConsoleQuery {
  account?: string;
  type?: Transaction['type'];
  status?: Transaction['status'];
  wallet?: string;
  page: number;
  epage: number;
  dpage: number;
}

const LIST_LIMIT = 20;
const SHORT_LIMIT = 10;

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
const short = (id: string) => id.slice(0, 8);
const walletName = (reference: string | null) => reference ?? 'main';

/** The query string of the console with some parameters changed (undefined drops one). */
export function consoleHref(q: ConsoleQuery, change: Partial<Record<keyof ConsoleQuery, string | number | undefined>>): string {
  const merged: Record<string, string | number | undefined> = { ...q, ...change };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) {
    if (v === undefined || v === '' || ((k === 'page' || k === 'epage' || k === 'dpage') && v === 1)) continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `/?${s}` : '/';
}

function Badge({ state }: { state: string }) {
  return <span class={`badge s-${state}`}>{state.replace('_', ' ')}</span>;
}

/** A form that the console script sends as JSON to `action` (a /_sandbox route) and whose refusal shows in its output. */
function Action(props: { action: string; method?: string; label: string; name?: string; kind?: 'secondary' | 'danger'; then?: string; children?: Child }) {
  return (
    <form class="action" data-action={props.action} data-method={props.method ?? 'POST'} data-then={props.then}>
      {props.children}
      <button type="submit" class={props.kind} aria-label={props.name}>
        {props.label}
      </button>
      <output class="error" role="status"></output>
    </form>
  );
}

function Field(props: { id: string; label: string; children: Child }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
    </div>
  );
}

function Pager(props: { list: ListPage<unknown>; href: (page: number) => string; label: string }) {
  const pages = Math.max(1, Math.ceil(props.list.total / props.list.limit));
  if (pages <= 1) return <p class="muted pager">{props.list.total} in all</p>;
  const { page } = props.list;
  return (
    <nav class="pager" aria-label={`${props.label} pages`}>
      {page > 1 ? <a href={props.href(page - 1)}>Newer</a> : null}
      <span>
        Page {page} of {pages} ({props.list.total} in all)
      </span>
      {page < pages ? <a href={props.href(page + 1)}>Older</a> : null}
    </nav>
  );
}

/** The control actions of sandbox.md 4.3 that a transaction's state allows. */
function TransactionActions({ tx }: { tx: Transaction }) {
  const url = (action: string) => `/_sandbox/transactions/${tx.id}/${action}`;
  const name = (what: string) => `${what} ${tx.type} ${short(tx.id)}`;
  const simple = (action: string, label: string, kind?: 'secondary' | 'danger') => <Action action={url(action)} label={label} name={name(label)} kind={kind} />;
  const out: Child[] = [];
  if (tx.charge && tx.status === 'pending') {
    out.push(simple('pay', 'Pay'));
    out.push(
      <details id={`payas-${tx.id}`}>
        <summary>Pay as…</summary>
        <Action action={url('pay')} label="Pay as this payer" name={name('Pay as this payer')}>
          <Field id={`pn-${tx.id}`} label="Payer name">
            <input id={`pn-${tx.id}`} name="payerName" maxlength={255} autocomplete="off" />
          </Field>
          <Field id={`pd-${tx.id}`} label="Payer document">
            <input id={`pd-${tx.id}`} name="payerDocument" inputmode="numeric" minlength={11} maxlength={14} autocomplete="off" />
          </Field>
        </Action>
      </details>,
    );
    out.push(simple('expire', 'Expire', 'secondary'), simple('fail', 'Fail', 'danger'), simple('cancel', 'Cancel', 'danger'));
  }
  if (tx.withdrawal) {
    const s = tx.withdrawal.status;
    if (s === 'pending') out.push(simple('process', 'Process', 'secondary'));
    if (s === 'pending' || s === 'processing') out.push(simple('complete', 'Complete'), simple('fail', 'Fail', 'danger'));
    if (s === 'completed') out.push(simple('reverse', 'Reverse', 'danger'));
  }
  if (tx.refund && tx.status === 'pending') out.push(simple('complete', 'Complete'), simple('fail', 'Fail', 'danger'));
  if (tx.type === 'payment' && tx.status === 'completed') {
    out.push(
      <details id={`block-${tx.id}`}>
        <summary>Block…</summary>
        <Action action={url('block')} label="Open block" name={name('Open block on')}>
          <Field id={`ba-${tx.id}`} label="Amount (R$)">
            <input id={`ba-${tx.id}`} name="amount" data-type="number" inputmode="decimal" placeholder={String(toBrl(tx.amount))} size={8} />
          </Field>
          <Field id={`bt-${tx.id}`} label="Type">
            <select id={`bt-${tx.id}`} name="blockType">
              <option value="med">MED</option>
              <option value="judicial">judicial</option>
              <option value="administrative">administrative</option>
            </select>
          </Field>
        </Action>
      </details>,
    );
  }
  return out.length ? <div class="actions">{out}</div> : <span class="muted">none</span>;
}

/** What else a transaction carries that a person wants to see, in a line. */
function detailOf(tx: Transaction): string {
  const parts: string[] = [];
  if (tx.description) parts.push(tx.description);
  if (tx.withdrawal) parts.push(`withdrawal ${tx.withdrawal.status}, key ${tx.withdrawal.pixKey}${tx.withdrawal.failureReason ? `: ${tx.withdrawal.failureReason}` : ''}`);
  if (tx.charge?.endReason) parts.push(tx.charge.endReason);
  if (tx.charge && tx.status === 'pending') parts.push(`expires ${when(tx.charge.expiresAt)}`);
  if (tx.counterpartName) parts.push(`payer ${tx.counterpartName}`);
  if (tx.refund?.failureReason) parts.push(tx.refund.failureReason);
  return parts.join(' · ');
}

function ClockSection({ deps }: { deps: Deps }) {
  const advance = (seconds: number, label: string) => (
    <Action action="/_sandbox/clock/advance" label={label} name={`Advance the clock ${label.replace('+', 'by ')}`} kind="secondary">
      <input type="hidden" name="seconds" value={String(seconds)} data-type="number" />
    </Action>
  );
  return (
    <section class="card" id="clock" data-section="clock" aria-labelledby="clock-h">
      <h2 id="clock-h">Sandbox clock</h2>
      <p>
        <time class="clock-now" id="clock-now" datetime={deps.clock.iso()}>
          {when(deps.clock.nowMs())}
        </time>{' '}
        <span id="clock-mode">{deps.clock.frozen ? <Badge state="frozen" /> : <span class="badge s-completed">running</span>}</span>
      </p>
      <div class="actions">
        {advance(60, '+1 minute')}
        {advance(3600, '+1 hour')}
        {advance(86400, '+1 day')}
        <Action action="/_sandbox/clock/advance" label="Advance" name="Advance the clock by these seconds" kind="secondary">
          <Field id="advance-seconds" label="Seconds">
            <input id="advance-seconds" name="seconds" data-type="number" inputmode="numeric" size={7} required />
          </Field>
        </Action>
      </div>
      <div class="actions">
        {deps.clock.frozen ? (
          <Action action="/_sandbox/clock" method="PUT" label="Run" name="Let the clock run from here" kind="secondary">
            <input type="hidden" name="frozen" value="false" data-type="boolean" />
          </Action>
        ) : (
          <Action action="/_sandbox/clock" method="PUT" label="Freeze" name="Freeze the clock" kind="secondary">
            <input type="hidden" name="frozen" value="true" data-type="boolean" />
          </Action>
        )}
        <Action action="/_sandbox/clock" method="PUT" label="Back to real time" kind="secondary">
          <input type="hidden" name="now" value="" data-type="null" />
        </Action>
        <Action action="/_sandbox/reset" label="Reset sandbox" name="Reset sandbox to its fixtures" kind="danger" />
      </div>
    </section>
  );
}

function WalletsSection({ account }: { account: Account }) {
  const rows = [{ reference: null as string | null, status: account.status, id: account.id }, ...account.subAccounts.map((s) => ({ reference: s.reference, status: s.status, id: s.id }))];
  return (
    <section class="card" id="wallets" data-section="wallets" aria-labelledby="wallets-h">
      <h2 id="wallets-h">Wallets</h2>
      <table class="collapse">
        <thead>
          <tr>
            <th scope="col">Wallet</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">Available</th>
            <th scope="col" class="num">Held</th>
            <th scope="col" class="num">Total</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const w = account.wallets[r.id]!;
            return (
              <tr data-wallet={walletName(r.reference)}>
                <td data-label="Wallet">{walletName(r.reference)}</td>
                <td data-label="Status">
                  <Badge state={r.status} />
                </td>
                <td data-label="Available" class="num">
                  {brl(w.balances.available)}
                </td>
                <td data-label="Held" class="num">
                  {brl(w.balances.held)}
                </td>
                <td data-label="Total" class="num">
                  {brl(totalOf(w))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function ChargeForm({ account }: { account: Account }) {
  const wallets = [PRINCIPAL, ...account.subAccounts.filter((s) => s.status !== 'suspended').map((s) => s.reference)];
  return (
    <section class="card" id="new-charge" aria-labelledby="charge-h">
      <h2 id="charge-h">New charge</h2>
      <Action action={`/_sandbox/accounts/${account.id}/charges`} label="Create and open checkout" then="checkout">
        <Field id="nc-wallet" label="Wallet">
          <select id="nc-wallet" name="subAccount">
            {wallets.map((w) => (
              <option value={w}>{w === PRINCIPAL ? 'main' : w}</option>
            ))}
          </select>
        </Field>
        <Field id="nc-amount" label="Amount (R$)">
          <input id="nc-amount" name="amount" data-type="number" inputmode="decimal" value="25.90" size={8} required />
        </Field>
        <Field id="nc-description" label="Description">
          <input id="nc-description" name="description" value="Console charge" maxlength={255} required />
        </Field>
        <Field id="nc-expires" label="Expires in">
          <select id="nc-expires" name="expiresIn" data-type="number">
            <option value="300">5 minutes</option>
            <option value="3600" selected>
              1 hour
            </option>
            <option value="86400">1 day</option>
          </select>
        </Field>
      </Action>
    </section>
  );
}

/** A filter of the transactions: "any" (empty) or one of `values` (the main wallet is shown as "main"). */
function Filter(props: { name: string; label: string; values: readonly string[]; selected: string | undefined }) {
  const id = `f-${props.name}`;
  return (
    <Field id={id} label={props.label}>
      <select id={id} name={props.name}>
        {['', ...props.values].map((value) => (
          <option value={value} selected={value === (props.selected ?? '')}>
            {value === '' ? 'any' : value === PRINCIPAL ? 'main' : value}
          </option>
        ))}
      </select>
    </Field>
  );
}

function TransactionsSection({ deps, account, q }: { deps: Deps; account: Account; q: ConsoleQuery }) {
  const list = listAccountTransactions(deps, account.id, { type: q.type, status: q.status, subAccount: q.wallet }, { page: q.page, limit: LIST_LIMIT });
  const wallets = [PRINCIPAL, ...account.subAccounts.map((s) => s.reference)];
  return (
    <section class="card" id="transactions" data-section="transactions" aria-labelledby="tx-h">
      <h2 id="tx-h">Transactions</h2>
      <form class="row filters" method="get" action="/">
        <input type="hidden" name="account" value={account.id} />
        <Filter name="type" label="Type" values={TRANSACTION_TYPES} selected={q.type} />
        <Filter name="status" label="Status" values={TRANSACTION_STATUSES} selected={q.status} />
        <Filter name="wallet" label="Wallet" values={wallets} selected={q.wallet} />
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      {list.items.length === 0 ? (
        <p class="muted">No transactions{q.type || q.status || q.wallet ? ' match these filters' : ' yet'}.</p>
      ) : (
        <table class="collapse">
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Wallet</th>
              <th scope="col" class="num">Amount</th>
              <th scope="col">Details</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((tx) => (
              <tr data-tx={tx.id} data-status={tx.withdrawal?.status ?? tx.status} data-type={tx.type}>
                <td data-label="Created">{when(tx.createdAt)}</td>
                <td data-label="Type">{tx.type}</td>
                <td data-label="Status">
                  <Badge state={tx.withdrawal?.status ?? tx.status} />
                </td>
                <td data-label="Wallet">{walletName(referenceOf(account, tx.walletId))}</td>
                <td data-label="Amount" class="num">
                  {brl(tx.amount)}
                </td>
                <td data-label="Details">
                  <div>
                    {detailOf(tx)} <code title="transaction id">{tx.id}</code>
                    {tx.charge && tx.status === 'pending' ? (
                      <>
                        {' '}
                        <a href={`/pix/qr/${tx.id}`}>checkout page</a>
                      </>
                    ) : null}
                  </div>
                </td>
                <td data-label="Actions">
                  <TransactionActions tx={tx} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager list={list} label="Transactions" href={(page) => consoleHref(q, { account: account.id, page })} />
    </section>
  );
}

function BlocksSection({ account }: { account: Account }) {
  const blocks: BalanceBlock[] = Object.values(account.balanceBlocks).reverse();
  return (
    <section class="card" id="blocks" data-section="blocks" aria-labelledby="blocks-h">
      <h2 id="blocks-h">Balance blocks</h2>
      {blocks.length === 0 ? (
        <p class="muted">No blocks. Open one with Block… on a completed payment.</p>
      ) : (
        <ul class="plain">
          {blocks.map((b) => {
            const url = (a: string) => `/_sandbox/balance-blocks/${b.id}/${a}`;
            const open = b.status === 'awaiting_response' || b.status === 'defended';
            return (
              <li data-block={b.id} data-status={b.status}>
                <p>
                  <Badge state={b.status} /> {b.blockType} {brl(b.amount)} on <code>{b.transactionId}</code> ({walletName(referenceOf(account, b.walletId))}) · {b.referenceNumber}
                </p>
                {open ? (
                  <div class="actions">
                    {b.status === 'awaiting_response' ? <Action action={url('defend')} label="Defend" name={`Defend block ${short(b.id)}`} kind="secondary" /> : null}
                    <Action action={url('approve')} label="Approve" name={`Approve block ${short(b.id)}`} kind="danger" />
                    <Action action={url('reject')} label="Reject" name={`Reject block ${short(b.id)}`} kind="secondary" />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Payment links and static QR codes (sandbox.md 12): their counters, their pages, and the control actions on them. */
function LinksSection({ deps, account }: { deps: Deps; account: Account }) {
  const now = deps.clock.nowMs();
  const links = Object.values(account.paymentLinks).reverse().slice(0, 20);
  const qrs = Object.values(account.staticQrs).reverse().slice(0, 20);
  return (
    <section class="card" id="links" data-section="links" aria-labelledby="links-h">
      <h2 id="links-h">Payment links and static QR codes</h2>
      {links.length === 0 && qrs.length === 0 ? <p class="muted">None yet. Create them with POST /v1/charges and POST /v1/pix/qrcode-static.</p> : null}
      <ul class="plain">
        {links.map((l) => {
          const status = linkStatusAt(l, now);
          const url = (a: string) => `/_sandbox/charges/${l.id}/${a}`;
          return (
            <li data-link={l.id} data-status={status}>
              <p>
                <Badge state={status} /> <a href={`/c/${l.slug}`}>{l.name}</a> {brl(l.amount)} · {l.paymentsCount} paid, {brl(l.totalCollected)}
              </p>
              {status === 'active' ? (
                <div class="actions">
                  <Action action={url('pay')} label="Pay" name={`Pay link ${l.slug}`} />
                  <Action action={url('expire')} label="Expire" name={`Expire link ${l.slug}`} kind="secondary" />
                  <Action action={url('disable')} label="Disable" name={`Disable link ${l.slug}`} kind="danger" />
                </div>
              ) : null}
            </li>
          );
        })}
        {qrs.map((qr) => {
          const status = staticQrStatus(qr, now);
          return (
            <li data-static-qr={qr.id} data-status={status}>
              <p>
                <Badge state={status} /> static QR {brl(qr.amount)} {qr.description} · {qr.paymentsCount} paid
              </p>
              {status === 'pending' ? (
                <div class="actions">
                  <Action action={`/_sandbox/transactions/${qr.id}/pay`} label="Pay once more" name={`Pay static QR ${short(qr.id)}`} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function EventsSection({ deps, account, q }: { deps: Deps; account: Account; q: ConsoleQuery }) {
  const list = listAccountEvents(deps, account.id, {}, 'newest', { page: q.epage, limit: SHORT_LIMIT });
  return (
    <section class="card" id="events" data-section="events" aria-labelledby="events-h">
      <h2 id="events-h">Events</h2>
      {list.items.length === 0 ? (
        <p class="muted">No events yet.</p>
      ) : (
        <ul class="plain">
          {list.items.map((e: SandboxEvent) => (
            <li data-event={e.eventId}>
              <details id={`ev-${e.id}`}>
                <summary>
                  <strong>{e.event}</strong> {when(e.createdAt)} {e.subAccount ? `(${e.subAccount})` : ''}
                </summary>
                <pre>{JSON.stringify(JSON.parse(e.body), null, 2)}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
      <Pager list={list} label="Events" href={(epage) => consoleHref(q, { account: account.id, epage })} />
    </section>
  );
}

function Attempt({ a, n, body }: { a: DeliveryAttempt; n: number; body: string | undefined }) {
  return (
    <li>
      <p>
        Attempt {n}: {when(a.at)} · {a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`} · {a.durationMs} ms{a.error ? <span class="error"> · {a.error}</span> : null}
      </p>
      {a.requestHeaders ? (
        <>
          <h4>Request headers</h4>
          <pre>{Object.entries(a.requestHeaders).map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
          <h4>Request body</h4>
          <pre>{body ?? '(the event is no longer kept)'}</pre>
        </>
      ) : null}
      {a.responseBody !== undefined ? (
        <>
          <h4>Response (first 2 KB)</h4>
          <pre>{a.responseBody}</pre>
        </>
      ) : null}
    </li>
  );
}

function DeliveriesSection({ deps, account, q }: { deps: Deps; account: Account; q: ConsoleQuery }) {
  const list = listAccountDeliveries(deps, account.id, {}, 'newest', { page: q.dpage, limit: SHORT_LIMIT });
  return (
    <section class="card" id="deliveries" data-section="deliveries" aria-labelledby="deliveries-h">
      <h2 id="deliveries-h">Webhook deliveries</h2>
      {account.webhooks.every((w) => w.url === null) ? <p class="muted">No endpoint of this account has a URL: events make no deliveries until one does (POST /_sandbox/accounts/{account.id}/webhooks).</p> : null}
      {list.items.length === 0 ? (
        <p class="muted">No deliveries yet.</p>
      ) : (
        <ul class="plain">
          {list.items.map((d: Delivery) => (
            <li data-delivery={d.id} data-state={d.state} data-replay-of={d.replayOf}>
              <details id={`dl-${d.id}`}>
                <summary>
                  <Badge state={d.state} /> <strong>{d.event}</strong> to {d.url ?? '(no URL)'} · {d.attempts.length} attempt{d.attempts.length === 1 ? '' : 's'}
                  {d.nextAttemptAt !== null && d.state === 'pending' ? ` · next ${when(d.nextAttemptAt)}` : ''}
                  {d.replayOf ? ' · replay' : ''}
                </summary>
                <p class="muted">
                  Delivery <code>{d.id}</code> of event <code>{d.eventId}</code>
                </p>
                <ol>
                  {d.attempts.map((a, i) => (
                    <Attempt a={a} n={i + 1} body={partsOf(account, d).event?.body} />
                  ))}
                </ol>
              </details>
              <Action action={`/_sandbox/deliveries/${d.id}/replay`} label="Replay" name={`Replay delivery ${short(d.id)}`} kind="secondary" />
            </li>
          ))}
        </ul>
      )}
      <Pager list={list} label="Deliveries" href={(dpage) => consoleHref(q, { account: account.id, dpage })} />
    </section>
  );
}

/** The account's sections, in page order. */
export function ConsoleSections({ deps, account, q }: { deps: Deps; account: Account; q: ConsoleQuery }) {
  return (
    <div class="grid console">
      <div class="col-main">
        <TransactionsSection deps={deps} account={account} q={q} />
        <DeliveriesSection deps={deps} account={account} q={q} />
      </div>
      <div class="col-side">
        <ClockSection deps={deps} />
        <WalletsSection account={account} />
        <ChargeForm account={account} />
        <BlocksSection account={account} />
        <LinksSection deps={deps} account={account} />
        <EventsSection deps={deps} account={account} q={q} />
      </div>
    </div>
  );
}

/** The account picker and the account's sections: the content of #console. */
export function ConsoleBody({ deps, q }: { deps: Deps; q: ConsoleQuery }) {
  const accounts = Object.values(deps.store.state.accounts);
  if (accounts.length === 0) return <p class="card">No accounts. Reset the sandbox (POST /_sandbox/reset) to load the fixtures, or create one with POST /_sandbox/accounts.</p>;
  const account = (q.account !== undefined ? deps.store.findAccount(q.account) : undefined) ?? accounts[0]!;
  return (
    <div data-account={account.id}>
      <div class="card account-bar">
        <form class="row" method="get" action="/">
          <Field id="pick-account" label="Account">
            <select id="pick-account" name="account">
              {accounts.map((a) => (
                <option value={a.id} selected={a.id === account.id}>
                  {a.name} ({a.environment})
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" class="secondary">
            Open
          </button>
        </form>
        <p class="muted">
          {q.account !== undefined && q.account !== account.id ? `No account ${q.account}; showing the first. ` : ''}
          <code>{account.id}</code> · <Badge state={account.status} /> · <span class="live-on live">live</span>
          <span class="live-off live">connecting…</span>
        </p>
      </div>
      <ConsoleSections deps={deps} account={account} q={q} />
    </div>
  );
}
