// Requests that came through the proxy, with the service name they were sent to (src/proxy/index.ts marks them, the
// doors of wire/middleware/doors.ts read the mark): a service name is a Host the faces answer only through the proxy.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

const marks = new WeakMap<IncomingMessage, string>();

/** Marks `req` as sent through the proxy to `name` (lower-case, no port). */
export function markProxied(req: IncomingMessage, name: string): void {
  marks.set(req, name);
}

/** The service name a request was sent to through the proxy, or undefined (a request to the sandbox's own port). */
export function proxiedName(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? marks.get(incoming) : undefined;
}
