// GET /_sandbox/health on the bare node:http request, while the Node adapter is still loading (src/server.ts
// serveHttp): the answer the app's route gives (app.ts), with the headers its middleware sets, so a harness polling
// health learns the sandbox is up without waiting for what only other routes need. Anything else (another path or
// method, a Host the doors refuse or that is not a plain host[:port], an admin token) is not answered here: it waits
// for the app, which answers it as always.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { setAnswerHeaders } from '../wire/middleware/doors';
import type { EarlyAnswer } from '../server';

const PATH = '/_sandbox/health';
/** A host[:port] that the adapter takes as it is (its own check is stricter about ports, never looser about names). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::\d{1,5})?$/;

/** `answer` is the health body (it runs the same catch-up of due jobs the middleware runs); `hostAllowed` the Host door. */
export function earlyHealth(answer: () => unknown, hostAllowed: (authority: string) => boolean): EarlyAnswer {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    if (url !== PATH && !url.startsWith(`${PATH}?`)) return false;
    const host = req.headers.host;
    if (host === undefined || !PLAIN_HOST.test(host) || !hostAllowed(host)) return false;
    const body = JSON.stringify(answer());
    // The app's answer as node-server writes it: the middleware's headers on Node's response, then the route's type
    // (Node adds Date, Connection and Content-Length after them).
    setAnswerHeaders((name, value) => res.setHeader(name, value), randomUUID());
    res.setHeader('Content-Type', 'application/json');
    res.statusCode = 200;
    res.end(body);
    return true;
  };
}
