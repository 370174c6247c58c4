// The proxy on the sandbox's own listener (sandbox.md 13): HTTPS_PROXY=http://127.0.0.1:4747 makes an unmodified app
// reach the sandbox at the service's production URLs.
// - CONNECT to a service host (api.pague.dev, api-gateway.pague.dev, each --service-host): the tunnel's TLS is ended
//   here with a leaf of the local CA for that name, and its requests go to the same app as the sandbox's own port,
//   on the face the name maps to (hosts.ts facePath, which normalises the path first: dots cannot leave the face),
//   marked so the doors accept the name (marks.ts). An API Pix name's TLS asks for a client certificate and checks it
//   against the local CA, as the own port does under --mtls; each name's TLS end is made once and resumes sessions.
// - Plain http:// requests in absolute form to a service host: the same, without TLS.
// - Any other name: tunnelled (or forwarded, for plain http) for loopback clients only, refused 403 naming the host
//   for any other client, so the sandbox is never an open relay; and refused 403 to the register hook's CONNECT
//   (HOOK_HEADER), whose process must never reach a real host through the sandbox.
// Every refusal is an answer in the service's error envelope (or, inside a TLS tunnel, an alert and a log line) and
// touches nothing else: the listener keeps serving. Every tunnel ends (lib/half-open.ts): before its hello it is held
// for the idle limit at most and ended when its client half-closes; once served, node:http's limits apply as on the
// sandbox's own port; a tunnel to another host ends once one side has ended and the rest has gone quiet.
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer as createTlsServer, type Server as TlsServer, type TLSSocket } from 'node:tls';
import { isLoopback } from '../wire/middleware/doors';
import { issueServerCertificate, loadOrCreateCa } from '../tls';
import { FACES, HOOK_HEADER, facePath, type Face } from './hosts';
import { readHello } from './hello';
import { markProxied } from './marks';
import { connectionEnds, holdUntilHandedOver } from '../lib/half-open';

export interface ProxyOptions {
  /** Service host name (lower case) -> the face it is served on. */
  serviceHosts: Readonly<Record<string, Face>>;
  /** PIX_SANDBOX_HOME: the local CA that signs the service names' leaves. */
  home: string;
  /** The sandbox's app (what its own port serves). */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  /** The doors' Host check: an absolute-form request for an allowed host on this port is the sandbox's own. */
  hostAllowed: (authority: string) => boolean;
  log: (line: string) => void;
  /** The idle limit of the sandbox's connections (--idle-timeout), which its tunnels keep too. */
  idleMs: number;
}

export interface ProxyHandlers {
  /** The listener's 'connect' event. */
  connect(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** A request whose target is in absolute form (http://host/path). */
  request(req: IncomingMessage, res: ServerResponse): void;
  /**
   * A connection to the service port (--service-port): TLS for whichever service host the client's hello names,
   * served as a tunnel to that name would be.
   */
  service(socket: Socket): void;
  /** Ends every tunnel (the listener's close waits for its sockets, and a kept-alive tunnel would hold it). */
  close(): void;
}

/** A hello bigger than this without its end is not a client of ours. */
const MAX_HELLO = 16 * 1024 + 5;
const CONNECT_TARGET = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+)):(\d{1,5})$/i;
const TLS_ALERT_UNRECOGNIZED_NAME = Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 112]);

const REASONS: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 502: 'Bad Gateway' };
const ERRORS: Record<number, string> = { 400: 'BadRequest', 403: 'Forbidden', 502: 'BadGateway' };

/** The service's error envelope (service-api.md 7) for an answer the proxy gives itself. */
function envelope(status: number, code: string, message: string): string {
  return JSON.stringify({ statusCode: status, error: ERRORS[status], message, timestamp: new Date().toISOString(), traceId: '', details: { code } });
}

/** An answer on a bare socket (a CONNECT not taken), then close. */
function answerSocket(socket: Duplex, status: number, code: string, message: string) {
  const body = envelope(status, code, message);
  socket.end(`HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

function answer(res: ServerResponse, status: number, code: string, message: string) {
  const body = envelope(status, code, message);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
}

const notRelay = (host: string) =>
  `This sandbox proxies the service's hosts only; '${host}' is passed through for clients on this machine alone, and this client is not one (the sandbox is not an open relay). Call ${host} without the proxy: add it to NO_PROXY.`;

const notServed = (host: string, served: string[]) =>
  `This sandbox does not serve '${host}' (it serves ${served.join(', ')}), and a process under the register hook never reaches a real host through it. Start the sandbox with --service-host ${host}=FACE (FACE one of ${FACES.join(', ')}), or take '${host}' out of the process's SANDBOX_SERVICE_HOSTS (eval "$(npx pix-sandbox env)" sets it to the names the sandbox serves).`;

export function createProxy(options: ProxyOptions): ProxyHandlers {
  const { serviceHosts, log, idleMs } = options;
  let listener: Promise<RequestListener> | undefined;
  const serveApp = (req: IncomingMessage, res: ServerResponse) => {
    listener ??= import('@hono/node-server').then(({ getRequestListener }) => getRequestListener((request, env) => options.fetch(request, env)));
    listener.then((l) => l(req, res), (err) => answer(res, 502, 'PROXY_FAILED', `The sandbox could not serve this request: ${(err as Error).message}`));
  };
  /** Serves a request sent to the service name `name` on its face, as if it had come to the sandbox's own port. */
  const serveFace = (req: IncomingMessage, res: ServerResponse, name: string, path: string) => {
    markProxied(req, name);
    req.url = facePath(serviceHosts[name]!, path);
    serveApp(req, res);
  };

  // Tunnels to a service name: their sockets (TLS or plain) and the name they were opened for.
  const tunnels = new WeakMap<object, string>();
  const inner = connectionEnds(
    createHttpServer((req, res) => {
      const name = tunnels.get(req.socket)!;
      const target = req.url ?? '/';
      serveFace(req, res, name, target.startsWith('/') ? target : pathOf(target));
    }),
    idleMs,
    { handedOver: true },
  );
  // A bad request, a broken TLS session, or a tunnel quiet past the limit (no TLS finished, no request): closed.
  inner.on('clientError', (_err, socket: Duplex) => socket.destroy());

  // The TLS end of each service name, made at its first tunnel and kept: its leaf, and the ticket keys and session cache
  // that let a client resume instead of a full handshake. An API Pix name asks for a client certificate (never
  // requires one) and checks it against the local CA, as the sandbox's own port does under --mtls, so the face's guard
  // reads the same `authorized` and peer certificate from the socket and answers the same 401s.
  let ca: ReturnType<typeof loadOrCreateCa> | undefined;
  const servers = new Map<string, Promise<TlsServer>>();
  const serverFor = (name: string) => {
    let server = servers.get(name);
    if (!server) {
      ca ??= loadOrCreateCa(options.home);
      server = ca.then(async (c) => {
        const pair = await issueServerCertificate(c, [name]);
        const asks = serviceHosts[name] === 'api-pix';
        const tls = createTlsServer({ ...pair, ...(asks ? { ca: c.cert, requestCert: true } : {}), rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], handshakeTimeout: idleMs });
        tls.on('secureConnection', (secured: TLSSocket) => {
          tunnels.set(secured, name);
          inner.emit('connection', secured);
        });
        // A broken or abandoned handshake: closed (the client has its alert).
        tls.on('tlsClientError', (_err, socket: Duplex) => socket.destroy());
        return tls;
      });
      server.catch(() => servers.delete(name));
      servers.set(name, server);
    }
    return server;
  };

  /**
   * The tunnel to a service name, once 200 is sent: its first bytes say TLS (the usual) or plain HTTP. With `name`
   * null (the service port), the name is the one the TLS hello asks for, and it must be a service host. `held` is
   * the socket's hold (holdUntilHandedOver), released once node:http has it.
   */
  const openTunnel = (socket: Socket, head: Buffer, opened: string | null, target: string, held: () => void) => {
    let name = opened ?? '';
    let buffered = head;
    const onData = (chunk: Buffer) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      look();
    };
    /** Plain HTTP in the tunnel: the socket to node:http as it is. */
    const handOver = () => {
      held();
      socket.off('data', onData);
      socket.pause();
      if (buffered.length) socket.unshift(buffered);
      tunnels.set(socket, name);
      inner.emit('connection', socket);
      // Its handle is read by node:http itself: what was put back comes as a 'data' event once resumed.
      socket.resume();
    };
    const refuse = (why: string) => {
      socket.off('data', onData);
      log(`proxy: closed the tunnel to ${target}: ${why}`);
      socket.end(TLS_ALERT_UNRECOGNIZED_NAME);
    };
    const look = () => {
      const hello = readHello(buffered);
      if (hello.kind === 'more') {
        if (buffered.length > MAX_HELLO) refuse('its first bytes are no TLS hello that ends.');
        return;
      }
      if (hello.kind === 'not-tls') {
        if (opened) return handOver();
        socket.off('data', onData);
        return answerSocket(socket, 400, 'HTTPS_REQUIRED', `This port serves the service's hosts over TLS only: call https://${Object.keys(serviceHosts)[0]}/... (the name resolved to this address), trusting the sandbox's CA.`);
      }
      if (hello.serverName === null)
        return refuse(`the client's TLS hello names no server (SNI). The sandbox signs a certificate for the name a client asks for: use a client that sends SNI (every current one does), or call the sandbox's own port.`);
      if (!opened) {
        if (!serviceHosts[hello.serverName])
          return refuse(`the client's TLS hello asks for '${hello.serverName}', which this port does not serve: it serves ${Object.keys(serviceHosts).join(', ')} (--service-host NAME=FACE adds one).`);
        name = hello.serverName;
      }
      if (hello.serverName !== name)
        return refuse(`the client's TLS hello asks for '${hello.serverName}' inside a tunnel opened to ${name}: the two must be the same name.`);
      // The client's part is done: the wait for our certificate is not its idle time.
      held();
      socket.off('data', onData);
      socket.pause();
      serverFor(name).then(
        (server) => {
          // What was read of the hello goes back, for the TLS end to read first.
          if (buffered.length) socket.unshift(buffered);
          server.emit('connection', socket);
        },
        (err) => refuse(`no certificate could be made for ${name}: ${(err as Error).message}`),
      );
    };
    socket.on('data', onData);
    if (head.length) look();
  };

  /**
   * A tunnel to another host, for a loopback client: bytes piped both ways, nothing read. Once either side has ended
   * (its end passed on to the other), the tunnel ends when both have, or when nothing has passed for the idle limit:
   * an answer to a half-closed request still comes through, and neither side can hold it open alone.
   */
  const pipeTo = (socket: Socket, head: Buffer, host: string, port: number, target: string, held: () => void) => {
    const upstream = netConnect(port, host);
    let open = false;
    const quiet = () => {
      socket.destroy();
      upstream.destroy();
    };
    const ended = () => {
      socket.setTimeout(idleMs, quiet);
      upstream.setTimeout(idleMs, quiet);
    };
    upstream.once('connect', () => {
      open = true;
      held();
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      socket.once('end', ended);
      upstream.once('end', ended);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (open) return socket.destroy();
      answerSocket(socket, 502, 'UPSTREAM_UNREACHABLE', `The sandbox could not open a tunnel to ${target} (${err.code ?? err.message}).`);
    });
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
  };

  const open = new Set<Socket>();
  return {
    connect(req, duplex, head) {
      const socket = duplex as Socket;
      open.add(socket);
      socket.once('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
      const held = holdUntilHandedOver(socket, idleMs);
      const target = req.url ?? '';
      const m = CONNECT_TARGET.exec(target);
      const port = m ? Number(m[3]) : 0;
      if (!m || port < 1 || port > 65535)
        return answerSocket(socket, 400, 'BAD_CONNECT_TARGET', `CONNECT takes host:port (like api.pague.dev:443), got '${target}'.`);
      const host = (m[1] ?? m[2]!).toLowerCase().replace(/\.$/, '');
      if (serviceHosts[host]) {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        return openTunnel(socket, head, host, target, held);
      }
      if (req.headers[HOOK_HEADER]) {
        log(`proxy: refused the register hook's CONNECT ${target}: not a service host of this sandbox`);
        return answerSocket(socket, 403, 'NOT_A_SERVICE_HOST', notServed(host, Object.keys(serviceHosts)));
      }
      if (!isLoopback(socket.remoteAddress ?? '')) {
        log(`proxy: refused CONNECT ${target} from ${socket.remoteAddress}: not a service host, and not a client on this machine`);
        return answerSocket(socket, 403, 'PROXY_NOT_RELAY', notRelay(host));
      }
      pipeTo(socket, head, host, port, target, held);
    },

    request(req, res) {
      let url: URL;
      try {
        url = new URL(req.url ?? '');
      } catch {
        return answer(res, 400, 'BAD_REQUEST_TARGET', `The request target '${req.url}' is neither a path nor an absolute http:// URL.`);
      }
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.$/, '');
      const path = `${url.pathname}${url.search}`;
      if (serviceHosts[host]) {
        // The target's authority is the request's (RFC 9112 3.2.2): Host follows it.
        req.headers.host = url.host;
        return serveFace(req, res, host, path);
      }
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      if (port === req.socket.localPort && options.hostAllowed(url.host.toLowerCase())) return serveApp(req, res);
      if (!isLoopback(req.socket.remoteAddress ?? '')) {
        log(`proxy: refused ${req.method} ${req.url} from ${req.socket.remoteAddress}: not a service host, and not a client on this machine`);
        return answer(res, 403, 'PROXY_NOT_RELAY', notRelay(host));
      }
      if (url.protocol !== 'http:') return answer(res, 400, 'BAD_REQUEST_TARGET', `A proxy forwards http:// URLs; for ${url.origin} the client opens a tunnel (CONNECT ${host}:${port}).`);
      forward(req, res, url, host, port);
    },

    service(socket) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
      openTunnel(socket, Buffer.alloc(0), null, `the service port (${socket.localPort})`, holdUntilHandedOver(socket, idleMs));
    },

    close() {
      for (const socket of open) socket.destroy();
      inner.close();
    },
  };
}

/** The path of an absolute-form target (a client that sends one inside a tunnel). */
function pathOf(target: string): string {
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return '/';
  }
}

/** A plain http:// request to another host, for a loopback client: sent on as it came, the answer passed back. */
function forward(req: IncomingMessage, res: ServerResponse, url: URL, host: string, port: number) {
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = httpRequest({ host, port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    if (!res.headersSent) answer(res, 502, 'UPSTREAM_UNREACHABLE', `The sandbox could not reach ${url.host} (${err.code ?? err.message}).`);
    else res.destroy();
  });
  req.pipe(upstream);
}
