// The page an attendee's way in opens once their tenant is gone (pages/attendee.ts PageGone): what happened, in words,
// and what is left (joining again while the room takes joins). Every attendee page answers it in place of its own, and
// the live notice of an open page (assets/sandbox.js) takes its words from it, so a reload and a live page say the same.
import type { Context } from 'hono';
import type { Deps } from '../deps';
import { Layout } from './layout';
import type { PageGone } from './attendee';

const WHAT: Record<PageGone['gone'], { title: string; text: string }> = {
  ended: { title: 'The workshop has ended', text: 'The workshop has ended: the presenter ended it, and your tenant, its credentials and its records were deleted with it.' },
  reset: { title: 'The sandbox was reset', text: 'The sandbox was reset: your tenant, its credentials and its records were deleted.' },
  unknown: { title: 'This attendee link is not valid here', text: 'This attendee link is not valid here: the workshop it was made for has ended, or it was mistyped. Nothing was changed.' },
};

/** What is left to do: join again while the room takes joins, else what the reason leaves. */
function left(why: PageGone['gone'], joining: boolean) {
  if (joining)
    return (
      <p>
        <a href="/join">Join the workshop again</a> (with the room's code on the presenter's screen) for a new tenant.
      </p>
    );
  return <p>{why === 'ended' ? 'Thank you for taking part.' : 'Joining is closed now: ask the presenter to reopen it.'}</p>;
}

/** The answer for a page opened with `gone`: 410 for a tenant the room saw go, 401 for a link nobody held; nothing changes. */
export function gonePage(c: Context, deps: Deps, gone: PageGone) {
  const what = WHAT[gone.gone];
  const page = (
    <Layout title={what.title} follows={false}>
      <h1>{what.title}</h1>
      <div class="card notice" id="attendee-gone" role="alert" data-gone={gone.gone}>
        <p>{what.text}</p>
        {left(gone.gone, deps.workshop.open)}
      </div>
      {gone.by === 'browser' ? (
        <form method="post" action="/join/forget" class="card stack" id="forget-browser">
          <p>Running this sandbox from this browser? It joined as an attendee; forget that to open the presenter's console here.</p>
          <button type="submit" class="secondary">
            Forget that this browser joined
          </button>
        </form>
      ) : null}
    </Layout>
  );
  return c.html(`<!doctype html>${String(page)}`, gone.gone === 'unknown' ? 401 : 410);
}
