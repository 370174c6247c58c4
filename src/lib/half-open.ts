// What the sandbox's node:http servers share about a client's half-close (server.ts listeners, the proxy's tunnels).
import type { Server as HttpServer } from 'node:http';

/**
 * A client may half-close its socket once its request is sent (`curl` with some proxies, `nc -N`, a script's
 * `socket.end(request)`): node:http then drops the request unless the server allows half-open sockets, and a request
 * answered later than the same tick (the proxy, a route group loaded at its first request) got no answer at all.
 * With it, node:http answers and then ends the socket. `httpAllowHalfOpen` is node:http's own switch, untyped.
 */
export function answerHalfClosed<S extends HttpServer>(server: S): S {
  return Object.assign(server, { httpAllowHalfOpen: true });
}
