// The presenter's Room panel (sandbox.md 5.2), at the top of the console while a workshop runs: where to join (QR and
// short URL), how many attendees reached each step (big, for the projector), each attendee's steps with a read-only
// way into their console, and closing, exporting and ending the room. It is a console section: the console's script
// swaps it in live, as the stream tells of joins and steps. Names are text everywhere (JSX escapes them).
import type { Deps } from '../deps';
import { qrPngDataUrl } from '../pix/qr';
import { joinUrlOf, stepCounts } from '../services/workshop';
import { lanUrls } from '../server';

export function RoomPanel({ deps }: { deps: Deps }) {
  const room = deps.workshop;
  // Present and hidden while no workshop runs, so a live swap shows a room started, and hides one ended, without a reload.
  // No room yet: the presenter opens one here, told first what it does.
  if (!room.started)
    return (
      <section class="room-offer" id="room" data-section="room" aria-label="Workshop room">
        <details class="menu confirm" id="open-room-menu">
          <summary>Open a workshop room…</summary>
          <div class="menu-body">
            <p>
              Attendees join from a join address and QR shown here, with a room code made now: each gets a tenant of their own with its credentials (up to {room.max}, --workshop-max). The accounts here now stay as they are.
            </p>
            <form class="action stacked" data-action="/_sandbox/workshop" data-method="POST">
              <button type="submit">Yes, open the room</button>
              <output class="outcome" role="status"></output>
            </form>
          </div>
        </details>
      </section>
    );
  const counts = stepCounts(room);
  const lan = deps.settings.lanUrls?.[0]?.replace(/\/$/, '');
  // On loopback the projector still shows the address and QR (this machine's own), and how phones could reach it.
  const joinUrl = joinUrlOf(room, lan ?? deps.settings.ownUrl ?? '');
  const own = deps.settings.ownUrl ? new URL(deps.settings.ownUrl) : undefined;
  const wouldBe = own ? lanUrls('0.0.0.0', Number(own.port), own.protocol === 'https:' ? 'https' : 'http')[0] : undefined;
  return (
    <section class="card room" id="room" data-section="room" aria-labelledby="room-h">
      <h2 id="room-h">Workshop room</h2>
      <div class="room-join">
        {joinUrl.startsWith('http') ? <img class="room-qr" src={qrPngDataUrl(joinUrl)} alt={`QR code to join: ${joinUrl}`} width={180} height={180} /> : null}
        <div>
          <p class="room-url">
            Join at{' '}
            <a id="join-url" href={joinUrl} target="_blank" rel="noopener">
              {joinUrl.replace(/^https?:\/\//, '')}
            </a>
          </p>
          <p id="room-state">
            <span class={`badge ${room.open ? 's-completed' : 's-failed'}`}>{room.open ? 'joining open' : 'joining closed'}</span> {room.attendees.length} of {room.max} joined
          </p>
          <p id="room-code">
            Room code <strong class="room-code">{room.code}</strong>
          </p>
          {lan ? null : (
            <p class="notice" id="room-loopback">
              This sandbox listens on this machine only: phones cannot open this address. Start it with <code>--host 0.0.0.0</code> (<code>pix-sandbox --workshop --host 0.0.0.0</code>)
              {wouldBe ? (
                <>
                  {' '}and phones join at <code>{wouldBe.replace(/^https?:\/\//, '')}/join?code={room.code}</code>
                </>
              ) : null}
              ; the QR then carries that address.
            </p>
          )}
        </div>
      </div>
      <ul class="room-counts" id="room-counts" aria-label="Attendees per step">
        {room.steps.map((s) => (
          <li data-step={s.id}>
            <strong>{counts[s.id] ?? 0}</strong> {s.label}
          </li>
        ))}
      </ul>
      {room.attendees.length === 0 ? (
        <p class="muted">No one has joined yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="room-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                {room.steps.map((s) => (
                  <th scope="col">{s.label}</th>
                ))}
                <th scope="col">Console</th>
              </tr>
            </thead>
            <tbody>
              {room.attendees.map((a) => (
                <tr data-attendee={a.accountId} data-steps={room.steps.filter((s) => a.steps[s.id]).map((s) => s.id).join(' ')}>
                  <th scope="row" class="room-name">
                    {a.name}
                  </th>
                  {room.steps.map((s) => {
                    const at = a.steps[s.id];
                    return <td data-step={s.id}>{at ? <span class="badge s-completed" title={at}>✓ done</span> : <span class="muted">not yet</span>}</td>;
                  })}
                  <td>
                    <a href={`/?attendee=${a.viewToken}`} target="_blank" rel="noopener">
                      Open read-only<span class="visually-hidden"> the console of {a.name}</span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="actions">
        <form class="action" data-action="/_sandbox/workshop" data-method="PATCH">
          <input type="hidden" name="open" value={room.open ? 'false' : 'true'} data-type="boolean" />
          <button type="submit" class="secondary">
            {room.open ? 'Close joining' : 'Reopen joining'}
          </button>
          <output class="outcome" role="status"></output>
        </form>
        <button type="button" class="secondary" id="room-csv" data-download="/_sandbox/workshop/room.csv" data-filename="workshop-room.csv">
          Export CSV
        </button>
        <details class="menu confirm" id="end-workshop-menu">
          <summary>End workshop…</summary>
          <div class="menu-body">
            <p>
              Every attendee's tenant ({room.attendees.length}) is deleted, with its charges, webhooks and console links; their open pages say the workshop ended and keep what they show to read. The join address and QR open nothing after. This cannot be undone.
            </p>
            <form class="action stacked" data-action="/_sandbox/workshop" data-method="DELETE">
              <button type="submit" class="danger" aria-label="End the workshop and delete the attendees' tenants">
                Yes, end the workshop
              </button>
              <output class="outcome" role="status"></output>
            </form>
          </div>
        </details>
      </div>
    </section>
  );
}
