// The console at / (sandbox.md 5, 5.1): one account at a time (the first unless ?account=), a presenter's forms at
// the top (new charge, stories), its transactions of every type and state with the control actions their state allows
// (fee rows folded into the payment they belong to), deliveries with each attempt, the clock, wallets, new
// withdrawal, fault switches, balance blocks and events. Rendered here for the first paint and again, section by
// section, for the live updates of /assets/console.js (GET /_sandbox/console answers the same markup). Every button
// is a form whose data-action is the /_sandbox route curl would call; the script sends it and says the outcome once.
// Times are rendered as UTC in <time datetime> and shown in the browser's time zone by /assets/sandbox.js.
import { createContext, useContext, type Child } from 'hono/jsx';
import type { AttendeeScope } from './attendee';
import { ConfirmBox, RoomPanel } from './room';
import { Action, Field } from './controls';
import type { Deps } from '../deps';
import { toBrl } from '../domain/money';
import { brl } from './format';
import { totalOf } from '../domain/ledger';
import { liveBlockOf, refundLeft } from '../domain/claims';
import { PRINCIPAL } from '../domain/subaccounts';
import type { Account, BalanceBlock, Delivery, DeliveryAttempt, Transaction } from '../domain/types';
import { expiredCharge, listAccountDeliveries, listAccountEvents, listAccountTransactions, referenceOf } from '../services/lists';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../domain/types';
import type { ListPage } from '../domain/pagination';
import { partsOf } from '../webhooks/dispatcher';
import { MAGIC_VALUES } from '../domain/magic';
import { STORIES } from '../services/stories';
import { linkStatusAt } from '../domain/payment-links';
import { staticQrStatus } from '../services/static-qr';
import type { ConsoleQuery } from '../wire/console-query';
import type { SandboxEvent } from '../domain/events';
import { nowOf } from '../services/clocks';
import { requestView, type RequestView } from '../wire/request-view';
import { oldestRecordMs, recordsHeld } from '../services/capacity';
import { retentionSummary } from '../services/retention';
import { openSolicRecOf } from '../services/recs';
import { receiverAccountsOf } from '../domain/api-pix-rec';

export const CONSOLE_SECTIONS = ['clock', 'wallets', 'transactions', 'blocks', 'events', 'deliveries', 'switches', 'requests'] as const;
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];

const LIST_LIMIT = 20;
const SHORT_LIMIT = 10;
/** Pauses between the steps of a story played from the console, so a room can follow. */
export const STORY_STEP_MS = 900;

const short = (id: string) => id.slice(0, 8);
const walletName = (reference: string | null) => reference ?? 'main';

/** A workshop attendee's console (sandbox.md 5.2): their tenant only, no whole-sandbox control; undefined for the presenter. */
const ScopeContext = createContext<AttendeeScope | undefined>(undefined);

/** An instant: UTC text for the first paint, shown in the browser's zone with its offset by the page script; ISO on hover. */
export function When({ ms, id, relative, format }: { ms: number; id?: string; relative?: boolean; format?: 'time' | 'date' | 'hm' }) {
  const iso = new Date(ms).toISOString();
  return (
    <time id={id} datetime={iso} title={iso} data-local={relative ? 'relative' : (format ?? 'local')}>
      {iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}
    </time>
  );
}

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

function Badge({ state, label }: { state: string; label?: string }) {
  return <span class={`badge s-${state}`}>{label ?? state.replace('_', ' ')}</span>;
}

/** A transaction's state as a person reads it: a charge that expired is `cancelled (expired)`. */
const stateOf = (tx: Transaction) => tx.withdrawal?.status ?? tx.status;
const stateLabel = (tx: Transaction) => (expiredCharge(tx) ? 'cancelled (expired)' : stateOf(tx).replace('_', ' '));

/** A form that the console script sends as JSON to `action` (a /_sandbox route); its outcome shows in its output, once. */
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

/** A short id that shows 8 characters and copies the whole one. */
function ShortId({ id, what }: { id: string; what: string }) {
  return (
    <span class="short-id">
      <code title={id}>{short(id)}</code>
      <button type="button" class="copy ghost" data-copy={id} aria-label={`Copy ${what} id ${id}`}>
        Copy
      </button>
    </span>
  );
}

/**
 * The control actions of sandbox.md 4.3 that a transaction's state allows: the first one a button, the rest in a menu.
 * Refund is offered while something of the payment is left to refund and no balance block holds it (what
 * requestRefund would refuse is not offered).
 */
function TransactionActions({ tx, account }: { tx: Transaction; account: Account }) {
  const url = (action: string) => `/_sandbox/transactions/${tx.id}/${action}`;
  const name = (what: string) => `${what} ${tx.type} ${short(tx.id)}`;
  const simple = (action: string, label: string, kind?: 'secondary' | 'danger') => <Action action={url(action)} label={label} name={name(label)} kind={kind} />;
  const primary: Child[] = [];
  const more: Child[] = [];
  if (tx.charge && tx.status === 'pending') {
    primary.push(simple('pay', 'Pay'));
    more.push(
      <a class="button secondary menu-link" href={`/pix/qr/${tx.id}`} target="_blank" rel="noopener">
        Open checkout ↗
      </a>,
      <Action action={url('pay')} label="Pay as this payer" name={name('Pay as this payer')} class="stacked">
        <Field id={`pn-${tx.id}`} label="Payer name">
          <input id={`pn-${tx.id}`} name="payerName" maxlength={255} autocomplete="off" />
        </Field>
        <Field id={`pd-${tx.id}`} label="Payer document">
          <input id={`pd-${tx.id}`} name="payerDocument" inputmode="numeric" minlength={11} maxlength={14} autocomplete="off" />
        </Field>
      </Action>,
      simple('expire', 'Expire', 'secondary'),
      simple('fail', 'Fail', 'danger'),
      simple('cancel', 'Cancel', 'danger'),
    );
  }
  if (tx.withdrawal) {
    const s = tx.withdrawal.status;
    if (s === 'pending') primary.push(simple('process', 'Process', 'secondary'));
    if (s === 'pending' || s === 'processing') (primary.length ? more : primary).push(simple('complete', 'Complete')), more.push(simple('fail', 'Fail', 'danger'));
    if (s === 'completed') more.push(simple('reverse', 'Reverse', 'danger'));
  }
  if (tx.refund && tx.status === 'pending') primary.push(simple('complete', 'Complete')), more.push(simple('fail', 'Fail', 'danger'));
  if (tx.type === 'payment' && tx.status === 'completed') {
    if (refundLeft(account, tx) > 0 && !liveBlockOf(account, tx.id))
      primary.push(
        <Action action={url('refund')} label="Refund" name={name('Refund')} kind="secondary">
          <input type="hidden" name="reason" value="Refunded from the console" />
        </Action>,
      );
    more.push(
      <Action action={url('block')} label="Open block" name={name('Open block on')} class="stacked">
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
      </Action>,
    );
  }
  if (!primary.length && !more.length) return <span class="muted">none</span>;
  return (
    <div class="actions">
      {primary}
      {more.length ? (
        <details class="menu" id={`menu-${tx.id}`}>
          <summary aria-label={`More actions on ${tx.type} ${short(tx.id)}`}>More…</summary>
          <div class="menu-body">{more}</div>
        </details>
      ) : null}
    </div>
  );
}

/** Who is on the other side of a transaction, named as its type makes them: a payment's payer, a refund's or withdrawal's recipient. */
function counterpartLabel(tx: Transaction): string | undefined {
  const name = tx.withdrawal?.holderName ?? tx.counterpartName;
  if (!name) return undefined;
  if (tx.type === 'payment' || tx.type === 'chargeback') return `payer ${name}`;
  if (tx.type === 'refund' || tx.type === 'withdrawal') return `recipient ${name}`;
  return `counterpart ${name}`;
}

/** What else a transaction carries that a person wants to see, in a line. */
function detailOf(tx: Transaction): string {
  const parts: string[] = [];
  if (tx.description) parts.push(tx.description);
  if (tx.withdrawal) parts.push(`key ${tx.withdrawal.pixKey}`);
  if (tx.charge?.endReason && tx.charge.endReason !== 'expired') parts.push(tx.charge.endReason);
  const who = counterpartLabel(tx);
  if (who) parts.push(who);
  return parts.join(' · ');
}

/** Why a withdrawal or a refund failed: shown apart from the other details, so projector mode (which hides them) keeps it. */
const failureOf = (tx: Transaction): string | undefined => tx.withdrawal?.failureReason ?? tx.refund?.failureReason;

/**
 * The clock of the account shown: its own (its routes move it, nobody else's) or the sandbox clock, which every
 * tenant without one runs on.
 */
function ClockSection({ deps, account }: { deps: Deps; account: Account }) {
  const scoped = useContext(ScopeContext) !== undefined;
  const own = deps.clocks.owns(account.id);
  const clock = deps.clocks.of(account);
  const route = own ? `/_sandbox/accounts/${account.id}/clock` : '/_sandbox/clock';
  const advance = (seconds: number, label: string) => (
    <Action action={`${route}/advance`} label={label} name={`Advance the clock ${label.replace('+', 'by ')}`} kind="secondary">
      <input type="hidden" name="seconds" value={String(seconds)} data-type="number" />
    </Action>
  );
  return (
    <section class="card" id="clock" data-section="clock" data-clock-account={own ? account.id : ''} aria-labelledby="clock-h">
      <h2 id="clock-h">{own ? `Clock of ${account.name}` : 'Sandbox clock'}</h2>
      <p class="clock-line">
        <span class="clock-now">
          <When ms={clock.nowMs()} id="clock-now" />
        </span>{' '}
        <span id="clock-mode">{clock.frozen ? <Badge state="frozen" /> : <span class="badge s-completed">running</span>}</span>
      </p>
      <RecordsLine deps={deps} />
      <div class="actions">
        {advance(60, '+1 minute')}
        {advance(3600, '+1 hour')}
        {advance(86400, '+1 day')}
        <Action action={`${route}/advance`} label="Advance" name="Advance the clock by these seconds" kind="secondary">
          <Field id="advance-seconds" label="Seconds">
            <input id="advance-seconds" name="seconds" data-type="number" inputmode="numeric" size={7} required />
          </Field>
        </Action>
      </div>
      <div class="actions">
        {clock.frozen ? (
          <Action action={route} method="PUT" label="Run" name="Let the clock run from here" kind="secondary">
            <input type="hidden" name="frozen" value="false" data-type="boolean" />
          </Action>
        ) : (
          <Action action={route} method="PUT" label="Freeze" name="Freeze the clock" kind="secondary">
            <input type="hidden" name="frozen" value="true" data-type="boolean" />
          </Action>
        )}
        <Action action={route} method="PUT" label="Back to real time" kind="secondary">
          <input type="hidden" name="now" value="" data-type="null" />
        </Action>
        {own || scoped ? null : (
          <Action action={`/_sandbox/accounts/${account.id}/clock`} method="PUT" label="A clock of its own" name="Give this account a clock of its own" kind="secondary">
            <input type="hidden" name="frozen" value={String(clock.frozen)} data-type="boolean" />
          </Action>
        )}
        {scoped ? null : (
        <details class="menu confirm" id="reset-menu">
          <summary>Reset sandbox…</summary>
          <div class="menu-body">
            <p>Every account, transaction, event and delivery goes back to the fixtures. This cannot be undone.</p>
            {deps.workshop.started ? (
              <p id="reset-room">
                The workshop room stays {deps.workshop.open ? 'open' : 'closed'} with its code, but {deps.workshop.attendees.length === 1 ? 'its attendee loses their tenant and leaves' : `its ${deps.workshop.attendees.length} attendees lose their tenants and leave`} the room: their pages say so
                {deps.workshop.open ? ', and they can join again with the code' : '; they can join again once joining is reopened'}.
              </p>
            ) : null}
            <Action action="/_sandbox/reset" label="Yes, reset everything" kind="danger" class="stacked">
              {deps.workshop.started && deps.workshop.attendees.length > 0 ? (
                <ConfirmBox
                  id="reset-room-confirm"
                  text={`Yes: the ${deps.workshop.attendees.length === 1 ? 'attendee loses their tenant' : `${deps.workshop.attendees.length} attendees lose their tenants`}`}
                  refusal="Tick the box above to reset with a workshop running: nothing was reset."
                />
              ) : null}
              <label class="check">
                <input type="checkbox" name="clock" value="true" data-type="checkbox" id="reset-clock" /> Reset the clock too
              </label>
            </Action>
          </div>
        </details>
        )}
      </div>
    </section>
  );
}

/** The sandbox's records held against --max-records, the oldest one's time and what retention deletes, as GET /_sandbox/health reports them. */
function RecordsLine({ deps }: { deps: Deps }) {
  const { held, limit, full } = recordsHeld(deps);
  const oldest = oldestRecordMs(deps);
  const retention = retentionSummary(deps.retention.report());
  return (
    <p class="muted" id="records-line">
      Sandbox holds {held.toLocaleString('en-US')} records of {limit.toLocaleString('en-US')}
      {full ? ' (full: creates answer 507)' : ''}
      {oldest === null ? null : (
        <>
          {'; oldest '}
          <When ms={oldest} format="date" /> <When ms={oldest} format="time" />
        </>
      )}
      {retention && `; retention ${retention}`}
    </p>
  );
}

function WalletsSection({ account }: { account: Account }) {
  const rows = [{ reference: null as string | null, status: account.status, id: account.id }, ...account.subAccounts.map((s) => ({ reference: s.reference, status: s.status, id: s.id }))];
  return (
    <section class="card" id="wallets" data-section="wallets" aria-labelledby="wallets-h">
      <h2 id="wallets-h">Wallets</h2>
      <div class="table-wrap">
      <table class="collapse">
        <thead>
          <tr>
            <th scope="col">Wallet</th>
            <th scope="col" class="w-status">Status</th>
            <th scope="col" class="num">Available</th>
            <th scope="col" class="num">Held</th>
            <th scope="col" class="num w-total">Total</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const w = account.wallets[r.id]!;
            return (
              <tr data-wallet={walletName(r.reference)}>
                <td data-label="Wallet">{walletName(r.reference)}</td>
                <td data-label="Status" class="w-status">
                  <Badge state={r.status} />
                </td>
                <td data-label="Available" class="num">
                  {brl(w.balances.available)}
                </td>
                <td data-label="Held" class="num">
                  {brl(w.balances.held)}
                </td>
                <td data-label="Total" class="num w-total">
                  {brl(totalOf(w))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      </div>
    </section>
  );
}

const activeWallets = (account: Account) => [PRINCIPAL, ...account.subAccounts.filter((s) => s.status !== 'suspended').map((s) => s.reference)];

function WalletSelect({ id, account, name = 'subAccount' }: { id: string; account: Account; name?: string }) {
  return (
    <select id={id} name={name}>
      {activeWallets(account).map((w) => (
        <option value={w}>{w === PRINCIPAL ? 'main' : w}</option>
      ))}
    </select>
  );
}

const chargeMagic = MAGIC_VALUES.filter((m) => m.where === 'charge.customer.document');
const keyMagic = MAGIC_VALUES.filter((m) => m.where === 'withdrawal.pixKey');

/** The magic values of a field as suggestions of its input (sandbox.md 4.11): the value, and what it makes happen. */
function MagicList({ id, values }: { id: string; values: typeof MAGIC_VALUES }) {
  return (
    <datalist id={id}>
      {values.map((m) => (
        <option value={m.values[0]}>{m.description}</option>
      ))}
    </datalist>
  );
}

function ChargeForm({ account }: { account: Account }) {
  return (
    <section class="card" id="new-charge" aria-labelledby="charge-h">
      <h2 id="charge-h">New charge</h2>
      <Action action={`/_sandbox/accounts/${account.id}/charges`} label="Create charge" then="checkout" class="form-grid">
        <Field id="nc-amount" label="Amount (R$)">
          <input id="nc-amount" name="amount" data-type="number" inputmode="decimal" value="25.90" size={8} required />
        </Field>
        <Field id="nc-description" label="Description">
          <input id="nc-description" name="description" value="Console charge" maxlength={255} required />
        </Field>
        <Field id="nc-wallet" label="Wallet">
          <WalletSelect id="nc-wallet" account={account} />
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
        <Field id="nc-customer-name" label="Customer name">
          <input id="nc-customer-name" name="customer.name" maxlength={255} autocomplete="off" placeholder="Maria Silva" />
        </Field>
        <Field id="nc-customer-document" label="Customer CPF/CNPJ" hint="A magic CPF picks the outcome">
          <input id="nc-customer-document" name="customer.document" inputmode="numeric" maxlength={14} autocomplete="off" list="magic-documents" />
        </Field>
        <MagicList id="magic-documents" values={chargeMagic} />
        <Field id="nc-open" label="Then open its checkout">
          <select id="nc-open" name="open" data-send="no">
            <option value="tab">in a new tab</option>
            <option value="here">here</option>
            <option value="no">no, stay here</option>
          </select>
        </Field>
      </Action>
    </section>
  );
}

function StoriesPanel({ account }: { account: Account }) {
  return (
    <section class="card" id="stories" aria-labelledby="stories-h">
      <h2 id="stories-h">Stories</h2>
      <p class="muted">Each plays step by step on the sandbox clock, on this account, through the same verbs as the API.</p>
      <ul class="plain stories">
        {STORIES.map((s) => (
          <li data-story={s.name}>
            <Action action={`/_sandbox/stories/${s.name}`} label="Play" name={`Play story: ${s.title}`} kind="secondary" then="story" class="story-play">
              <input type="hidden" name="accountId" value={account.id} />
              <input type="hidden" name="stepDelayMs" value={String(STORY_STEP_MS)} data-type="number" />
              <span class="story-title">
                <strong>{s.title}</strong> <span class="muted">({s.steps.length} steps)</span>
              </span>
            </Action>
          </li>
        ))}
      </ul>
      <div id="story-run" hidden>
        <h3 id="story-run-title">Playing</h3>
        <ol id="story-log" aria-live="polite"></ol>
      </div>
    </section>
  );
}

function WithdrawalForm({ account }: { account: Account }) {
  return (
    <section class="card" id="new-withdrawal" aria-labelledby="withdrawal-h">
      <h2 id="withdrawal-h">New withdrawal</h2>
      <Action action={`/_sandbox/accounts/${account.id}/withdrawals`} label="Withdraw" class="form-grid">
        <Field id="nw-wallet" label="From wallet">
          <select id="nw-wallet" name="subAccount" data-in="query">
            {activeWallets(account).map((w) => (
              <option value={w}>{w === PRINCIPAL ? 'main' : w}</option>
            ))}
          </select>
        </Field>
        <Field id="nw-key-type" label="Key type">
          <select id="nw-key-type" name="pixKeyType">
            {['email', 'cpf', 'cnpj', 'phone', 'random'].map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
        </Field>
        <Field id="nw-key" label="PIX key" hint="Magic keys pick the outcome">
          <input id="nw-key" name="pixKey" required autocomplete="off" list="magic-keys" placeholder="fulano@example.com" />
        </Field>
        <MagicList id="magic-keys" values={keyMagic} />
        <Field id="nw-holder" label="Holder name">
          <input id="nw-holder" name="holderName" required value="Fulano de Tal" maxlength={255} />
        </Field>
        <Field id="nw-doc-type" label="Holder document type">
          <select id="nw-doc-type" name="holderDocumentType">
            <option value="cpf">CPF</option>
            <option value="cnpj">CNPJ</option>
          </select>
        </Field>
        <Field id="nw-doc" label="Holder document">
          <input id="nw-doc" name="holderDocument" required inputmode="numeric" value="12345678909" maxlength={14} />
        </Field>
        <Field id="nw-amount" label="Amount (R$, fee included)" hint="Fill this or the net amount">
          <input id="nw-amount" name="amount" data-type="number" inputmode="decimal" size={8} />
        </Field>
        <Field id="nw-net" label="Net amount (R$)" hint="What the recipient receives">
          <input id="nw-net" name="netAmount" data-type="number" inputmode="decimal" size={8} />
        </Field>
      </Action>
    </section>
  );
}

/** The fault switches a story needs (sandbox.md 4.5, 5.1): institutions up or down, a webhook endpoint that fails, API faults. */
function SwitchesSection({ account }: { account: Account }) {
  const scoped = useContext(ScopeContext) !== undefined; // API faults are the whole sandbox's: not an attendee's to switch
  return (
    <section class="card" id="switches" data-section="switches" aria-labelledby="switches-h">
      <h2 id="switches-h">Fault switches</h2>
      <h3>Institutions</h3>
      {account.institutions.length === 0 ? <p class="muted">This account has no institutions.</p> : null}
      <ul class="plain">
        {account.institutions.map((i) => (
          <li data-institution={i.id} data-status={i.status}>
            <Action action={`/_sandbox/accounts/${account.id}/institutions/${i.id}`} method="PATCH" label="Set" name={`Set the status of ${i.name}`} kind="secondary">
              <Field id={`inst-${i.id}`} label={i.name}>
                <select id={`inst-${i.id}`} name="status">
                  {(['up', 'down', 'out_of_capacity'] as const).map((s) => (
                    <option value={s} selected={s === i.status}>
                      {s.replace(/_/g, ' ')}
                    </option>
                  ))}
                </select>
              </Field>
              <Badge state={i.status === 'up' ? 'completed' : 'failed'} label={i.status.replace(/_/g, ' ')} />
            </Action>
          </li>
        ))}
      </ul>
      {account.institutionChoice ? null : <p class="muted">Institution choice is off for this account: charges cannot pin an institution.</p>}
      <h3>Webhook endpoints</h3>
      <ul class="plain">
        {account.webhooks.map((w) => (
          <li data-endpoint={w.id}>
            <Action action={`/_sandbox/webhooks/${w.id}`} method="PATCH" label="Save URL" name={`Save URL of endpoint ${short(w.id)}`} kind="secondary">
              <Field id={`wh-${w.id}`} label={`Endpoint ${short(w.id)}${w.subAccount ? ` (${w.subAccount})` : ''}`}>
                <input id={`wh-${w.id}`} name="url" value={w.url ?? ''} data-type="nullable" placeholder="http://127.0.0.1:3000/webhooks" size={28} />
              </Field>
            </Action>
            <Action action={`/_sandbox/webhooks/${w.id}`} method="PATCH" label="Make it fail" name={`Make it fail: point endpoint ${short(w.id)} at a port nothing listens on`} kind="danger">
              <input type="hidden" name="url" value="http://127.0.0.1:9/unreachable" />
            </Action>
          </li>
        ))}
      </ul>
      {scoped ? null : (
        <>
      <h3>API faults</h3>
      <Action action="/_sandbox/faults" method="PUT" label="Inject" name="Inject an API fault" kind="danger" class="form-grid">
        <Field id="ft-method" label="Method">
          <select id="ft-method" name="rules.0.method">
            {['POST', 'GET', '*'].map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </Field>
        <Field id="ft-path" label="Path">
          <input id="ft-path" name="rules.0.path" value="/v2/pix" required />
        </Field>
        <Field id="ft-status" label="Answer">
          <select id="ft-status" name="rules.0.status" data-type="number">
            <option value="503">503 unavailable</option>
            <option value="500">500 error</option>
            <option value="429">429 rate limited</option>
          </select>
        </Field>
      </Action>
      <Action action="/_sandbox/faults" method="DELETE" label="Clear API faults" kind="secondary" />
        </>
      )}
    </section>
  );
}

/** A filter of the transactions: "any" (empty) or one of `values` (the main wallet is shown as "main"). */
function Filter(props: { name: string; label: string; values: readonly string[]; selected: string | undefined; labels?: Record<string, string> }) {
  const id = `f-${props.name}`;
  return (
    <Field id={id} label={props.label}>
      <select id={id} name={props.name}>
        {['', ...props.values].map((value) => (
          <option value={value} selected={value === (props.selected ?? '')}>
            {value === '' ? 'any' : value === PRINCIPAL ? 'main' : (props.labels?.[value] ?? value)}
          </option>
        ))}
      </select>
    </Field>
  );
}

function TransactionsSection({ deps, account, q }: { deps: Deps; account: Account; q: ConsoleQuery }) {
  const list = listAccountTransactions(deps, account.id, { type: q.type, status: q.status, subAccount: q.wallet }, { page: q.page, limit: LIST_LIMIT });
  const wallets = [PRINCIPAL, ...account.subAccounts.map((s) => s.reference)];
  // Fee rows fold into the payment they belong to when it is on the same page (a fee filter shows them as rows).
  const onPage = new Set(list.items.map((t) => t.id));
  const feesOf = new Map<string, number>();
  for (const t of list.items) if (t.type === 'fee' && t.relatedTransactionId && onPage.has(t.relatedTransactionId) && q.type !== 'fee') feesOf.set(t.relatedTransactionId, (feesOf.get(t.relatedTransactionId) ?? 0) + t.amount);
  const rows = list.items.filter((t) => !(t.type === 'fee' && t.relatedTransactionId && feesOf.has(t.relatedTransactionId)));
  return (
    <section class="card" id="transactions" data-section="transactions" aria-labelledby="tx-h">
      <h2 id="tx-h">Transactions</h2>
      <form class="row filters" method="get" action="/">
        <input type="hidden" name="account" value={account.id} />
        <Filter name="type" label="Type" values={TRANSACTION_TYPES} selected={q.type} />
        <Filter name="status" label="Status" values={[...TRANSACTION_STATUSES, 'expired']} selected={q.status} labels={{ expired: 'cancelled (expired)' }} />
        <Filter name="wallet" label="Wallet" values={wallets} selected={q.wallet} />
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      {rows.length === 0 ? (
        <p class="muted">No transactions{q.type || q.status || q.wallet ? ' match these filters' : ' yet'}.</p>
      ) : (
        <table class="collapse tx-table">
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">Amount</th>
              <th scope="col">Details</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((tx) => {
              const fee = feesOf.get(tx.id);
              return (
                <tr id={`tx-${tx.id}`} data-tx={tx.id} data-status={stateOf(tx)} data-type={tx.type} data-expired={expiredCharge(tx) ? 'true' : undefined} data-updated={String(tx.updatedAt)}>
                  <td data-label="Created" class="when">
                    <span class="full-time">
                      <When ms={tx.createdAt} format="date" /> <When ms={tx.createdAt} format="time" />
                    </span>
                    <span class="rel">
                      <When ms={tx.createdAt} relative /> · <When ms={tx.createdAt} format="hm" />
                    </span>
                  </td>
                  <td data-label="Type">
                    {tx.type.replace('_', ' ')}
                    <span class="wallet-tag">{walletName(referenceOf(account, tx.walletId))}</span>
                  </td>
                  <td data-label="Status">
                    <Badge state={stateOf(tx)} label={stateLabel(tx)} />
                  </td>
                  <td data-label="Amount" class="num">
                    {brl(tx.amount)}
                    {fee !== undefined ? <span class="fee">fee {brl(fee)}</span> : null}
                  </td>
                  <td data-label="Details" class="details">
                    <div>
                      <ShortId id={tx.id} what={tx.type} /> <span class="detail-text">{detailOf(tx)}</span>
                      {failureOf(tx) ? (
                        <>
                          {' '}
                          <span class="why-failed">{failureOf(tx)}</span>
                        </>
                      ) : null}
                      {tx.charge && tx.status === 'pending' ? (
                        <>
                          {' '}
                          <a class="checkout-link" href={`/pix/qr/${tx.id}`} target="_blank" rel="noopener">
                            checkout ↗
                          </a>
                        </>
                      ) : null}
                      {tx.charge && tx.status === 'pending' ? (
                        <span class="muted expires">
                          {' '}
                          · expires <When ms={tx.charge.expiresAt} />
                        </span>
                      ) : null}
                    </div>
                  </td>
                  <td data-label="Actions">
                    <TransactionActions tx={tx} account={account} />
                  </td>
                </tr>
              );
            })}
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
        <p class="muted">No blocks. Open one from the More… menu of a completed payment.</p>
      ) : (
        <ul class="plain">
          {blocks.map((b) => {
            const url = (a: string) => `/_sandbox/balance-blocks/${b.id}/${a}`;
            const open = b.status === 'awaiting_response' || b.status === 'defended';
            return (
              <li data-block={b.id} data-status={b.status}>
                <p>
                  <Badge state={b.status} /> {b.blockType} {brl(b.amount)} on <ShortId id={b.transactionId} what="payment" /> ({walletName(referenceOf(account, b.walletId))}) · {b.referenceNumber}
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
  const now = nowOf(deps, account);
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

/**
 * Pix Automático (sandbox.md 15): the account's recurrences, newest first, each with its charges, and the payer's side
 * played from here: Accept or Reject a recurrence waiting for its payer (its confirmation request, or its QR), Cancel
 * an approved one as the payer, make a scheduled debit fail. Shown for accounts with PIX keys (the API Pix face's).
 */
function RecurrencesSection({ account }: { account: Account }) {
  if (!account.pixKeys?.length) return null;
  const recs = Object.values(account.recs ?? {}).reverse().slice(0, 20);
  return (
    <section class="card" id="recurrences" data-section="recurrences" aria-labelledby="recurrences-h">
      <h2 id="recurrences-h">Recurrences (Pix Automático)</h2>
      <p class="muted" data-receiver-accounts>
        Receiver account (a cobr's recebedor): {receiverAccountsOf(account).map((a) => `agência ${a.agencia}, conta ${a.conta}, ${a.tipoConta}`).join('; ')}
      </p>
      {recs.length === 0 ? <p class="muted">None yet. A receiver creates one with POST /api-pix/v2/rec and sends it with POST /api-pix/v2/solicrec.</p> : null}
      <ul class="plain">
        {recs.map((rec) => {
          const solic = rec.status === 'CRIADA' ? openSolicRecOf(account, rec) : undefined;
          const answer = (a: 'accept' | 'reject') => (solic ? `/_sandbox/api-pix/solicrec/${solic.id}/${a}` : `/_sandbox/api-pix/rec/${rec.id}/${a === 'accept' ? 'authorise' : 'decline'}`);
          const cobrs = (rec.cobrIds ?? []).map((txid) => account.cobrs?.[txid]).filter((c) => c !== undefined);
          const what = rec.vinculo.objeto ?? rec.vinculo.contrato;
          return (
            <li data-rec={rec.id} data-status={rec.status}>
              <p>
                <Badge state={rec.status} /> {what} · {rec.vinculo.devedor.nome} · {rec.valorRec !== undefined ? brl(toBrl(rec.valorRec)) : 'variable'} {rec.calendario.periodicidade.toLowerCase()} from {rec.calendario.dataInicial}
                {rec.calendario.dataFinal ? ` to ${rec.calendario.dataFinal}` : ''} <code>{rec.id}</code>
              </p>
              {cobrs.length ? (
                <ul class="plain charges">
                  {cobrs.map((c) => (
                    <li data-cobr={c.id} data-status={c.status}>
                      <Badge state={c.status} /> due {c.dataDeVencimento} · {brl(toBrl(c.original))} · {c.tentativas.map((t) => `${t.tipo} ${t.status.toLowerCase()}`).join(', ') || 'no attempt yet'}
                      {c.status === 'ATIVA' && c.tentativas.some((t) => t.status === 'AGENDADA') ? (
                        <Action action={`/_sandbox/api-pix/cobr/${c.id}/fail`} label="Fail debit" name={`Fail the debit of ${c.id}`} kind="secondary" />
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
              {rec.status === 'CRIADA' ? (
                <div class="actions">
                  <Action action={answer('accept')} label="Accept" name={`Accept recurrence ${what} as the payer`} />
                  <Action action={answer('reject')} label="Reject" name={`Reject recurrence ${what} as the payer`} kind="danger" />
                </div>
              ) : rec.status === 'APROVADA' ? (
                <div class="actions">
                  <Action action={`/_sandbox/api-pix/rec/${rec.id}/cancel`} label="Cancel as payer" name={`Cancel recurrence ${what} as the payer`} kind="danger" />
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
                  <strong>{e.event}</strong> <When ms={e.createdAt} /> {e.subAccount ? `(${e.subAccount})` : ''}
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
        Attempt {n}: <When ms={a.at} /> · {a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`} · {a.durationMs} ms{a.error ? <span class="error"> · {a.error}</span> : null}
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
      {account.webhooks.every((w) => w.url === null) ? <p class="muted">No endpoint of this account has a URL: events make no deliveries until one does (Fault switches below, or POST /_sandbox/accounts/{account.id}/webhooks).</p> : null}
      {list.items.length === 0 ? (
        <p class="muted">No deliveries yet.</p>
      ) : (
        <ul class="plain">
          {list.items.map((d: Delivery) => (
            <li data-delivery={d.id} data-state={d.state} data-replay-of={d.replayOf}>
              <details id={`dl-${d.id}`}>
                <summary>
                  <Badge state={d.state} /> <strong>{d.event}</strong> to {d.url ?? '(no URL)'} · {d.attempts.length} attempt{d.attempts.length === 1 ? '' : 's'}
                  {d.nextAttemptAt !== null && d.state === 'pending' ? (
                    <>
                      {' '}
                      · next <When ms={d.nextAttemptAt} />
                    </>
                  ) : (
                    ''
                  )}
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

/** A status's colour class: 2xx ok, 4xx warn, 5xx bad. */
const statusClass = (status: number) => (status >= 500 ? 's-failed' : status >= 400 ? 's-pending' : 's-completed');

/** A copy-and-paste curl of an entry; secrets (masked in the log) become shell variables the reader sets. */
export function curlOf(e: RequestView, base = '$B'): string {
  const parts = [`curl -s -X ${e.method} "${base}${e.path}${e.query.replaceAll('[masked]', '$SECRET')}"`];
  for (const [name, value] of Object.entries(e.headers)) {
    if (value !== '[masked]') parts.push(`-H '${name}: ${value.replaceAll("'", "'\\''")}'`);
    else if (name === 'authorization') parts.push(`-H "Authorization: Bearer $TOKEN"`);
    else if (name === 'x-api-key') parts.push(`-H "X-API-Key: $API_KEY"`);
    else if (name === 'x-sandbox-token') parts.push(`-H "X-Sandbox-Token: $SANDBOX_ADMIN_TOKEN"`);
  }
  if (e.request?.body !== undefined) {
    const body = JSON.stringify(e.request.body).replaceAll('"[masked]"', '"$SECRET"');
    parts.push(`-d '${body.replaceAll("'", "'\\''")}'`);
  }
  return parts.join(' \\\n  ');
}

function LoggedBodyBlock({ title, body }: { title: string; body: RequestView['request'] }) {
  return (
    <>
      <h4>{title}</h4>
      {body === null ? <p class="muted">none</p> : body.body !== undefined ? (
        // Focusable: a long body scrolls sideways, and a keyboard must reach it.
        <pre tabindex={0} aria-label={title}>
          {JSON.stringify(body.body, null, 2)}
        </pre>
      ) : <p class="muted">{body.contentType}, {body.size === null ? 'size unknown' : `${body.size} bytes`}: not kept ({body.omitted})</p>}
    </>
  );
}

/** The account's request log (sandbox.md 14): newest first, or failures first; each entry opens to both bodies. */
function RequestsSection({ deps, account, q }: { deps: Deps; account: Account; q: ConsoleQuery }) {
  const failuresFirst = q.rorder === 'failures';
  const items = deps.requestLog.list(account.id, {}, { limit: SHORT_LIMIT * 2 }).items.map(requestView);
  if (failuresFirst) items.sort((a, b) => Number(b.status >= 400) - Number(a.status >= 400));
  const txIds = new Set(Object.keys(account.transactions));
  return (
    <section class="card" id="requests" data-section="requests" aria-labelledby="requests-h">
      <h2 id="requests-h">Requests</h2>
      <p class="muted">
        What apps sent with this account's credentials, and what they got (secrets masked; in memory, reset clears it).{' '}
        {failuresFirst ? <a href={consoleHref(q, { account: account.id, rorder: undefined })}>Newest first</a> : <a href={consoleHref(q, { account: account.id, rorder: 'failures' })}>Failures first</a>}
      </p>
      {items.length === 0 ? (
        <p class="muted">No requests yet.</p>
      ) : (
        <ul class="plain">
          {items.map((e) => {
            const made = e.ids.find((id) => txIds.has(id));
            return (
              <li data-request={e.id} data-status={String(e.status)}>
                <details id={`rq-${e.id}`}>
                  <summary>
                    <span class={`badge ${statusClass(e.status)}`}>{e.status}</span> <strong>{e.method}</strong> <code>{e.path}</code> · {e.durationMs} ms · <When ms={Date.parse(e.at)} />
                    {e.replayed ? ' · replayed' : ''}
                    {e.warnings.length > 0 ? (
                      <>
                        {' '}
                        <span class="badge s-pending">{e.warnings.length} warning{e.warnings.length === 1 ? '' : 's'}</span>
                      </>
                    ) : null}
                  </summary>
                  <p class="muted">
                    <code>{e.id}</code> · {e.face} · credential {e.credentialId ?? 'none'}
                    {e.idempotencyKey ? ` · Idempotency-Key ${e.idempotencyKey}` : ''} · trace {e.traceId}
                    {made ? (
                      <>
                        {' '}
                        · <a href={`${consoleHref(q, { account: account.id })}#tx-${made}`}>transaction {short(made)}</a>
                      </>
                    ) : null}
                  </p>
                  {e.warnings.length > 0 ? (
                    <ul>
                      {e.warnings.map((w) => (
                        <li>{w}</li>
                      ))}
                    </ul>
                  ) : null}
                  <LoggedBodyBlock title="Request body" body={e.request} />
                  <LoggedBodyBlock title="Answer body" body={e.answer} />
                  <button type="button" class="copy secondary" data-copy={curlOf(e)} aria-label={`Copy as curl: request ${e.id}`}>
                    Copy as curl
                  </button>
                </details>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The account's sections, in page order: what a presenter reaches for first at the top. */
export function ConsoleSections({ deps, account, q }: { deps: Deps; account: Account; q: ConsoleQuery }) {
  return (
    <div class="grid console">
      <div class="col-main">
        <ChargeForm account={account} />
        <TransactionsSection deps={deps} account={account} q={q} />
        <DeliveriesSection deps={deps} account={account} q={q} />
        <RequestsSection deps={deps} account={account} q={q} />
      </div>
      <div class="col-side">
        <StoriesPanel account={account} />
        <ClockSection deps={deps} account={account} />
        <WalletsSection account={account} />
        <WithdrawalForm account={account} />
        <SwitchesSection account={account} />
        <BlocksSection account={account} />
        <RecurrencesSection account={account} />
        <EventsSection deps={deps} account={account} q={q} />
        <LinksSection deps={deps} account={account} />
      </div>
    </div>
  );
}

/** The account picker and the account's sections: the content of #console. */
export function ConsoleBody({ deps, q, scope }: { deps: Deps; q: ConsoleQuery; scope?: AttendeeScope }) {
  if (scope) return <AttendeeBody deps={deps} q={q} scope={scope} />;
  const accounts = Object.values(deps.store.state.accounts);
  if (accounts.length === 0) return <p class="card">No accounts. Reset the sandbox (POST /_sandbox/reset) to load the fixtures, or create one with POST /_sandbox/accounts.</p>;
  const account = (q.account !== undefined ? deps.store.findAccount(q.account) : undefined) ?? accounts[0]!;
  // The room view (/?view=room): the workshop room alone, for the projector.
  if (q.view === 'room')
    return (
      <div data-account={account.id} class="room-view">
        <RoomPanel deps={deps} view="room" />
      </div>
    );
  return (
    <div data-account={account.id}>
      <div class="account-bar">
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
          <ShortId id={account.id} what="account" /> · <Badge state={account.status} />
        </p>
        {/* In the bar: no room is one line ("Open a workshop room…"); a room wraps to a card of the bar's whole width. */}
        <RoomPanel deps={deps} />
      </div>
      <ConsoleSections deps={deps} account={account} q={q} />
    </div>
  );
}

/** A workshop attendee's console: their tenant's sections, no account picker; a view token's read-only (no actions shown). */
function AttendeeBody({ deps, q, scope }: { deps: Deps; q: ConsoleQuery; scope: AttendeeScope }) {
  const account = deps.store.account(scope.accountId);
  return (
    <div data-account={account.id} data-attendee-console={scope.readOnly ? 'read-only' : 'own'} class={scope.readOnly ? 'read-only' : undefined}>
      <div class="account-bar">
        <p>
          <strong id="attendee-tenant">{scope.readOnly ? `${scope.name}'s console (read-only)` : `Your tenant, ${scope.name}`}</strong>{' '}
          <span class="muted">
            <ShortId id={account.id} what="account" /> · <Badge state={account.status} />
          </span>
        </p>
      </div>
      <ScopeContext.Provider value={scope}>
        <ConsoleSections deps={deps} account={account} q={{ ...q, account: account.id }} />
      </ScopeContext.Provider>
    </div>
  );
}
