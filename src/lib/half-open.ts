// How every connection to the sandbox ends (sandbox.md 11): the listeners of server.ts, the proxy's tunnels and the
// service port share one idle limit. A client that half-closes is answered and closed; one that goes quiet before its
// request is whole is closed after the limit; a request in flight or an answer being sent is never cut.
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';

/** The idle limit when none is set (--idle-timeout): node:http's own headersTimeout, so its defaults stand. */
export const DEFAULT_IDLE_MS = 60_000;

/**
 * node:http's limits, all from the one idle limit N: a request's headers within N of the connection's start (or of
 * the request's first byte), the whole request within 5N, N at most 5 s between the requests of a kept-alive
 * connection. With N = 60 s these are node:http's defaults. The check runs every N/4, so a quiet connection is
 * closed between N and 1.25N (node:http checks every 30 s by default).
 */
export function idleLimits(idleMs: number) {
  return {
    headersTimeout: idleMs,
    requestTimeout: 5 * idleMs,
    keepAliveTimeout: Math.min(5_000, idleMs),
    connectionsCheckingInterval: Math.max(10, Math.round(idleMs / 4)),
  };
}

/**
 * A node:http server as every listener of the sandbox runs it:
 * - A client may half-close its socket once its request is sent (`curl` with some proxies, `nc -N`, a script's
 *   `socket.end(request)`): node:http then drops the request unless the server allows half-open sockets, and a
 *   request answered later than the same tick (the proxy, a route group loaded at its first request) got no answer at
 *   all. With it, node:http answers and then ends the socket (and ends an idle one at once). `httpAllowHalfOpen` is
 *   node:http's own switch, untyped.
 * - The idle limits of `idleLimits`. node:http checks headersTimeout and requestTimeout only on a server that
 *   listened (its 'listening' event starts the check); `handedOver` servers never listen, their sockets come from
 *   another listener by emit('connection'), so the check is started here, as 'listening' would.
 */
export function connectionEnds<S extends HttpServer>(server: S, idleMs: number, { handedOver = false } = {}): S {
  Object.assign(server, { httpAllowHalfOpen: true }, idleLimits(idleMs));
  if (handedOver) server.emit('listening');
  return server;
}

/**
 * A socket the sandbox reads itself before node:http has it (a tunnel before its TLS hello, the HTTPS listener before
 * its first byte, a CONNECT being answered): ended when its client half-closes, destroyed `idleMs` after it opened.
 * The returned `handOver()` stops both, once node:http (whose limits then apply) or a pipe has the socket.
 */
export function holdUntilHandedOver(socket: Socket, idleMs: number): () => void {
  const ended = () => socket.end();
  const timer = setTimeout(() => socket.destroy(), idleMs);
  socket.on('end', ended);
  socket.once('close', () => clearTimeout(timer));
  return () => {
    clearTimeout(timer);
    socket.off('end', ended);
  };
}
