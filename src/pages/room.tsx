// The presenter's Room panel (sandbox.md 5.2): with no workshop, a form to open one (name, capacity, joining open);
// while one runs, its controls first (close joining, export, end: each confirmed in words that say what happens to
// the attendees), where to join (QR, address with the code, how phones reach a loopback sandbox), how many reached
// each step, and a dense grid of attendees (whole names on one line, each one's steps as marks) that fits 60 on a
// 1366x768 projector in the room view (/?view=room). It is a console section: the console's script swaps it in live,
// as the stream tells of joins and steps. Names are text everywhere (JSX escapes them).
import type { Deps } from '../deps';
import { qrPngDataUrl } from '../pix/qr';
import { joinUrlOf, NAME_MAX, stepCounts } from '../services/workshop';
import type { Attendee, WorkshopRoom } from '../domain/workshop';
import { Action, Field } from './controls';

/** Up to this many attendees the QR stays large (people are still joining); past it the grid takes the screen. */
const FEW = 24;

const people = (n: number) => (n === 1 ? '1 attendee' : `${n} attendees`);

export function RoomPanel({ deps, view }: { deps: Deps; view?: 'room' }) {
  const room = deps.workshop;
  // Present while no workshop runs, so a live swap shows a room started, and one ended, without a reload.
  if (!room.started) return <OpenRoom room={room} />;
  const counts = stepCounts(room);
  const lan = deps.settings.lanUrls?.[0]?.replace(/\/$/, '');
  // On loopback the projector still shows the address and QR (this machine's own), and how phones could reach it.
  const joinUrl = joinUrlOf(room, lan ?? deps.settings.ownUrl ?? '');
  const wouldBe = deps.settings.lanUrlIfOpen;
  const n = room.attendees.length;
  return (
    <section class={`card room${n <= FEW ? ' few' : ''}`} id="room" data-section="room" data-view={view} aria-labelledby="room-h">
      <div class="room-top">
        <div class="room-head">
          {/* The room view names the room alone (the title and the controls share one line on a projector). */}
          <h2 id="room-h">
            {room.name ? <span class={view === 'room' ? 'visually-hidden' : undefined}>Workshop room: </span> : 'Workshop room'}
            {room.name}
          </h2>
          <RoomControls room={room} view={view} />
        </div>
        {joinUrl.startsWith('http') ? <img class="room-qr" src={qrPngDataUrl(joinUrl)} alt={`QR code to join: ${joinUrl}`} width={180} height={180} /> : null}
        <div class="room-where">
          <p class="room-url">
            Join at{' '}
            <a id="join-url" href={joinUrl} target="_blank" rel="noopener">
              {joinUrl.replace(/^https?:\/\//, '')}
            </a>
          </p>
          <p id="room-code">
            Room code <strong class="room-code">{room.code}</strong>{' '}
            <span id="room-state">
              <span class={`badge ${room.open ? 's-completed' : 's-failed'}`}>{room.open ? 'joining open' : 'joining closed'}</span> {n} of {room.max} joined
            </span>
          </p>
          {lan ? null : (
            <p class="notice" id="room-loopback">
              Phones cannot open this machine's own address: start with <code>--host 0.0.0.0</code>
              {wouldBe ? (
                <>
                  , then they join at <code>{wouldBe.replace(/^https?:\/\//, '')}/join?code={room.code}</code>
                </>
              ) : null}
              .
            </p>
          )}
        </div>
        <ul class="room-counts" id="room-counts" aria-label="Attendees per step">
          {room.steps.map((s) => (
            <li data-step={s.id}>
              <strong>{counts[s.id] ?? 0}</strong>
              <span class="muted">/{n}</span> {s.label}
              <progress value={counts[s.id] ?? 0} max={Math.max(n, 1)} aria-hidden="true"></progress>
            </li>
          ))}
        </ul>
      </div>
      {n === 0 ? (
        <p class="muted">No one has joined yet.</p>
      ) : view === 'room' ? (
        <AttendeeGrid room={room} />
      ) : (
        // In the console the grid folds away (the console's own sections come next); the room view shows it whole.
        // While the room fills (a few attendees) it starts open; a full room's starts folded.
        <details id="room-attendees" open={n <= FEW}>
          <summary>Attendees ({n})</summary>
          <AttendeeGrid room={room} />
        </details>
      )}
    </section>
  );
}

/** No workshop: a form to open one, saying first what it does. */
function OpenRoom({ room }: { room: WorkshopRoom }) {
  return (
    <section class="room-offer" id="room" data-section="room" aria-label="Workshop room">
      <details class="menu confirm" id="open-room-menu">
        <summary>Open a workshop room…</summary>
        <div class="menu-body">
          <p>
            Attendees join from a join address and QR shown here, with a room code made now: each gets a tenant of their own with its credentials. The accounts here now stay as they are.
          </p>
          <Action action="/_sandbox/workshop" label="Open the room" class="stacked room-open-form">
            <Field id="room-name" label="Room name" hint={`1 to ${NAME_MAX} characters, shown on the projector`}>
              <input id="room-name" name="name" data-type="text" maxlength={NAME_MAX * 2} autocomplete="off" placeholder="Pix workshop" />
            </Field>
            <Field id="room-max" label="Capacity (attendees)">
              <input id="room-max" name="max" data-type="number" inputmode="numeric" size={6} value={String(room.max)} />
            </Field>
            <label class="check">
              <input type="checkbox" name="open" data-type="checkbox" id="room-open" checked /> Joining open now
            </label>
          </Action>
        </div>
      </details>
    </section>
  );
}

/** Close or reopen joining, export, end, and the way between the console and the room view: first in the panel. */
function RoomControls({ room, view }: { room: WorkshopRoom; view?: 'room' }) {
  const n = room.attendees.length;
  return (
    <div class="actions room-controls">
      {room.open ? (
        <details class="menu confirm" id="close-joining-menu">
          <summary>Close joining…</summary>
          <div class="menu-body">
            <p>No one new can join: the join address and QR say joining is closed. The {people(n)} in the room keep their tenants, credentials and consoles. You can reopen joining later.</p>
            <Action action="/_sandbox/workshop" method="PATCH" label="Yes, close joining" kind="secondary" class="stacked">
              <input type="hidden" name="open" value="false" data-type="boolean" />
            </Action>
          </div>
        </details>
      ) : (
        <Action action="/_sandbox/workshop" method="PATCH" label="Reopen joining" kind="secondary">
          <input type="hidden" name="open" value="true" data-type="boolean" />
        </Action>
      )}
      <button type="button" class="secondary" id="room-csv" data-download="/_sandbox/workshop/room.csv" data-filename="workshop-room.csv">
        Export CSV
      </button>
      <details class="menu confirm" id="end-workshop-menu">
        <summary>End workshop…</summary>
        <div class="menu-body">
          <p id="end-workshop-what">
            End the workshop: the {people(n)}' tenants are deleted with their charges, webhooks and console links, so their tokens and credentials stop working; their open pages say the workshop ended and keep what they show to read. The join address and QR open nothing after. This cannot be undone.
          </p>
          <Action action="/_sandbox/workshop" method="DELETE" label="End the workshop" kind="danger" name="End the workshop and delete the attendees' tenants" class="stacked">
            <ConfirmBox id="end-confirm" text={`Yes: the ${people(n)} lose their tenants`} refusal="Tick the box above to end the workshop: nothing was ended." />
          </Action>
        </div>
      </details>
      {view === 'room' ? (
        <a class="button secondary" href="/" id="console-view-link">
          Console
        </a>
      ) : (
        <a class="button secondary" href="/?view=room" id="room-view-link">
          Room view
        </a>
      )}
    </div>
  );
}

/**
 * The confirmation an irreversible action asks for: a box to tick. Not sent (data-send="no"); /assets/console.js
 * refuses the form with `refusal` on the page, sending nothing, while it is not ticked.
 */
export function ConfirmBox({ id, text, refusal }: { id: string; text: string; refusal: string }) {
  return (
    <label class="check">
      <input type="checkbox" id={id} data-send="no" data-confirm={refusal} /> {text}
    </label>
  );
}

/** One cell per attendee: the whole name on one line (a read-only way into their console) and a mark per step. */
function AttendeeGrid({ room }: { room: WorkshopRoom }) {
  return (
    <ul class="room-grid" id="room-grid" aria-label="Attendees and the steps each reached">
      {room.attendees.map((a) => (
        <AttendeeCell room={room} a={a} />
      ))}
    </ul>
  );
}

function AttendeeCell({ room, a }: { room: WorkshopRoom; a: Attendee }) {
  const done = room.steps.filter((s) => a.steps[s.id]);
  const left = room.steps.filter((s) => !a.steps[s.id]);
  return (
    <li data-attendee={a.accountId} data-steps={done.map((s) => s.id).join(' ')}>
      <a class="room-name" href={`/?attendee=${a.viewToken}`} target="_blank" rel="noopener" title={`${a.name}: open their console read-only`}>
        {a.name}
      </a>
      <span class="room-marks" aria-hidden="true">
        {room.steps.map((s) => (
          <span class={a.steps[s.id] ? 'mark done' : 'mark'} data-step={s.id} title={s.label}></span>
        ))}
      </span>
      <span class="visually-hidden">
        {done.length === 0 ? 'no step yet' : `done: ${done.map((s) => s.label).join(', ')}`}
        {left.length === 0 ? '; every step done' : `; not yet: ${left.map((s) => s.label).join(', ')}`}
      </span>
    </li>
  );
}
