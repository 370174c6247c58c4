// How a route sets a header of its answer on either path (a real port or app.request()). Apart from env.ts, which
// loads the schema library: app.ts, in the start's core, uses this before any route group is loaded.
import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';

/**
 * Sets a header of the request `c`'s answer before its Response is built. On a real port it goes on Node's response,
 * which merges it into whatever head the Response brings; in process (app.request) it is staged on the context as
 * c.header() stages it. Either way, a Response built after it with c.body() or c.json() also carries whatever else the
 * context staged (Sandbox-Warning): a route answers through the context, never with a bare `new Response`.
 */
export function answerHeaderOf(c: Context): (name: string, value: string) => void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  return outgoing ? (name, value) => void outgoing.setHeader(name, value) : (name, value) => c.header(name, value);
}
