// The request's headers as one record, without a WHATWG Headers object. zod-openapi validates a route's declared
// headers (Idempotency-Key, X-Sub-Account) through hono's c.req.header() with no name, which copies every header out
// of the request's Headers; under @hono/node-server that object does not exist until then and is built from the raw
// headers for this one read (a few points of a POST /v2/pix's CPU). Node has already parsed the headers into a plain
// object with lower-case names (IncomingMessage.headers): the record is a copy of that. Named look-ups
// (c.req.header('authorization')) stay hono's own, which node-server answers from the same parsed object.
import type { IncomingMessage } from 'node:http';
import type { HonoRequest } from 'hono';

export function headerRecordFromNode(req: HonoRequest, incoming: IncomingMessage | undefined): void {
  if (!incoming?.headers) return; // in process (app.request): a real Request, nothing to save
  const named = req.header.bind(req);
  const header = (name?: string) => {
    if (name !== undefined) return named(name);
    const record: Record<string, string> = {};
    for (const [key, value] of Object.entries(incoming.headers)) if (value !== undefined) record[key] = Array.isArray(value) ? value.join(', ') : value;
    return record;
  };
  req.header = header as HonoRequest['header'];
}
