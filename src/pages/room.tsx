// The presenter's Room panel (sandbox.md 5.2), at the top of the console while a workshop runs: where to join (QR and
// short URL), how many attendees reached each step (big, for the projector), each attendee's steps with a read-only
// way into their console, and closing, exporting and ending the room. It is a console section: the console's script
// swaps it in live, as the stream tells of joins and steps. Names are text everywhere (JSX escapes them).
import type { Deps } from '../deps';
import { qrPngDataUrl } from '../pix/qr';
import { joinUrlOf, stepCounts } from '../services/workshop';

export function RoomPanel({ deps }: { deps: Deps }) {
  const room = deps.workshop;
  // Present and hidden while no workshop runs, so a live swap shows a room started, and hides one ended, without a reload.
  if (!room.started) return <section id="room" data-section="room" hidden></section>;
  const counts = stepCounts(room);
  const lan = deps.settings.lanUrls?.[0]?.replace(/\/$/, '');
  const joinUrl = joinUrlOf(room, lan ?? '');
  return (
    <section class="card room" id="room" data-section="room" aria-labelledby="room-h">
      <h2 id="room-h">Workshop room</h2>
      <div class="room-join">
        {lan ? <img class="room-qr" src={qrPngDataUrl(joinUrl)} alt={`QR code to join: ${joinUrl}`} width={180} height={180} /> : null}
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
          {lan ? null : <p class="muted">Laptops and phones on the network join with the sandbox started with --host 0.0.0.0 (the QR shows then).</p>}
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
