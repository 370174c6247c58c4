// The only place that opens a socket (for createSandbox().listen and the CLI).
import type { Hono } from 'hono';
import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { ServerOptions as HttpsOptions } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { ProxyHandlers } from './proxy/lazy';
import { DEFAULT_IDLE_MS, connectionEnds, holdUntilHandedOver } from './lib/half-open';
import { normalTarget } from './lib/paths';

/**
 * The addresses a phone on the same network can open when the server listens on every interface (0.0.0.0 or ::):
 * each non-internal IPv4 address of the machine (IPv6 link-local addresses need a zone a phone cannot type).
 */
export function lanUrls(host: string, port: number, scheme: 'http' | 'https' = 'http', interfaces = networkInterfaces()): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [];
  const out: string[] = [];
  for (const list of Object.values(interfaces)) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(`${scheme}://${a.address}:${port}`);
  return out;
}

/**
 * The banner's addresses for a listener on `url` (sandbox.md 13, containers). Outside a container, or on a given
 * address, they are the listener's own. In the image listening on every interface, 0.0.0.0 and the container's own
 * addresses open nothing from the host: `base` is localhost (the port published as is), `lines` name what reaches it
 * from the host and from the containers on its network, and `warning` (with no admin token) says who can read the
 * secrets there.
 */
export function reachOf(url: string, o: { host: string; loopback: boolean; container: boolean; adminToken: boolean; hostname: string; interfaces?: ReturnType<typeof networkInterfaces> }): { base: string; lines: string[]; warning?: string } {
  const { protocol, port } = new URL(url);
  const scheme = protocol === 'https:' ? 'https' : 'http';
  const everywhere = o.host === '0.0.0.0' || o.host === '::';
  if (!o.container || !everywhere) {
    const warning = o.loopback || o.adminToken ? undefined : `listening on ${o.host} with no admin token: anyone on the network can read every secret and reset the sandbox; start it with SANDBOX_ADMIN_TOKEN=<a secret>`;
    return { base: url, lines: [], ...(warning ? { warning } : {}) };
  }
  const base = `${scheme}://localhost:${port}`;
  const own = [`${scheme}://${o.hostname}:${port}`, ...lanUrls(o.host, Number(port), scheme, o.interfaces)];
  const lines = [`  from host   ${base} when the port is published as is (-p 127.0.0.1:${port}:${port}); the addresses below assume it`, `  containers  on its network: ${own.join(', ')} (or its compose service name)`];
  const warning = o.adminToken ? undefined : `no admin token: whoever reaches this container's port (through a published port, or from a container on its network) can read every secret and reset the sandbox; publish it on 127.0.0.1 only, or set SANDBOX_ADMIN_TOKEN=<a secret>`;
  return { base, lines, ...(warning ? { warning } : {}) };
}

export interface Listening {
  url: string;
  close(): Promise<void>;
}

const TLS_HANDSHAKE = 0x16; // first byte of a TLS record carrying a ClientHello


/** The answer to a plain-HTTP request that reached the HTTPS listener: the service's envelope, then close. */
function httpsRequired(port: number) {
  const message = `This port speaks HTTPS only: send the request to https://localhost:${port} (the same path), trusting the sandbox's CA (pix-sandbox ca prints its path).`;
  return JSON.stringify({ statusCode: 400, error: 'BadRequest', message, timestamp: new Date().toISOString(), traceId: '', details: { code: 'HTTPS_REQUIRED' } });
}

/**
 * Every request's target with its path normalised (lib/paths.ts, sandbox.md 11), first thing on each listener: the
 * proxy chooses a face, and the route, doors, request log and faults read the path, on the one normal path. The
 * Node adapter would resolve plain dots itself but not encoded separators, and refuses a backslash with a bare 400.
 */
const normaliseTarget = (req: IncomingMessage) => {
  if (req.url) req.url = normalTarget(req.url);
};

/** Whether a request line's target is in absolute form (http://host/path): a request for the proxy. */
const absoluteForm = (req: IncomingMessage) => req.url !== undefined && req.url[0] !== '/' && req.url !== '*';

/**
 * HTTPS on one listener that also answers plain HTTP with a clear 400 rather than a dead handshake: the first byte of
 * each connection says which it is (a TLS record starts with 0x16), and the socket, its byte put back, goes to the
 * HTTPS server.
 */
function serveTls({ createAdaptorServer, createHttpsServer }: TlsParts, app: Hono<any>, port: number, host: string, tls: HttpsOptions, idleMs: number, ready: (info: AddressInfo) => void, proxy?: ProxyHandlers): Server {
  const https = connectionEnds(createAdaptorServer({ fetch: app.fetch, createServer: createHttpsServer, serverOptions: { ...tls, handshakeTimeout: idleMs } }) as HttpServer, idleMs, {
    handedOver: true,
  });
  // Plain HTTP on this port: the proxy (CONNECT, http:// targets) as on a plain listener, else the 400 saying HTTPS.
  https.prependListener('request', normaliseTarget);
  const plain = connectionEnds(
    createHttpServer((req, res) => {
      normaliseTarget(req);
      if (proxy && absoluteForm(req)) return proxy.request(req, res);
      res.writeHead(400, { 'content-type': 'application/json', connection: 'close' }).end(httpsRequired((front.address() as AddressInfo).port));
    }),
    idleMs,
    { handedOver: true },
  );
  if (proxy) {
    plain.on('connect', proxy.connect);
    https.on('connect', proxy.connect);
  }
  const sockets = new Set<Socket>();
  // Half-open allowed, as node:http's own listener does, so the server it hands a socket to sees the client's end.
  const front = createNetServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('error', () => socket.destroy());
    const handOver = holdUntilHandedOver(socket, idleMs); // ended or quiet before its first byte: nobody to hand it to
    socket.once('data', (chunk: Buffer) => {
      handOver();
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === TLS_HANDSHAKE) https.emit('connection', socket);
      else {
        plain.emit('connection', socket);
        socket.resume(); // node:http reads the socket's handle itself: the byte put back comes as a 'data' event
      }
    });
  });
  front.listen(port, host, () => ready(front.address() as AddressInfo));
  const close = front.close.bind(front);
  return Object.assign(front, {
    close(done?: (err?: Error) => void) {
      for (const s of sockets) s.destroy();
      https.close();
      plain.close();
      return close(done);
    },
  });
}

/**
 * An answer given on the bare node:http request while @hono/node-server is not loaded yet: true when it answered,
 * false to let the request wait for the app (app.ts answers GET /_sandbox/health so, src/control/early-health.ts).
 */
/** What HTTPS needs beyond plain HTTP, imported when a listener speaks it. */
interface TlsParts {
  createAdaptorServer: typeof import('@hono/node-server').createAdaptorServer;
  createHttpsServer: typeof import('node:https').createServer;
}

export type EarlyAnswer = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Plain HTTP, listening before the Node adapter is loaded: @hono/node-server brings node:http2 (and with it node:tls)
 * and Node's fetch classes (undici), about a third of a start, which a harness polling GET /_sandbox/health does not
 * need. Until the adapter is in, `early` answers what it can and every other request waits for the adapter, then goes
 * to it as if it had come later; the promise resolves once the adapter serves (what the banner waits for). The adapter
 * is loaded at the first request `early` does not answer, once an early answer is out, or a moment after listening.
 */
const EARLY_WINDOW_MS = 20;

function serveHttp(app: Hono<any>, port: number, host: string, idleMs: number, early: EarlyAnswer | undefined, ready: (info: AddressInfo) => void, failed: (err: Error) => void, proxy?: ProxyHandlers): Server {
  let serveRequest: RequestListener | null = null;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  // Loading starts when loadAdapter is first called (not when listening): `loaded` is what the banner waits for.
  let startLoading!: () => void;
  const loaded = new Promise<void>((go) => (startLoading = go))
    .then(() => import('@hono/node-server'))
    .then(({ getRequestListener }) => {
      // The listener serve() would make, with the same options (the global Request and Response are replaced as there).
      serveRequest = getRequestListener(app.fetch, { hostname: host });
      for (const [req, res] of waiting.splice(0)) serveRequest(req, res);
    });
  const loadAdapter = () => {
    startLoading();
    return loaded;
  };
  const server = connectionEnds(
    createHttpServer((req, res) => {
      normaliseTarget(req);
      if (proxy && absoluteForm(req)) return proxy.request(req, res);
      if (serveRequest) return serveRequest(req, res);
      if (early?.(req, res)) {
        setImmediate(loadAdapter);
        return;
      }
      waiting.push([req, res]);
      void loadAdapter();
    }),
    idleMs,
  );
  if (proxy) server.on('connect', proxy.connect);
  server.listen(port, host, () => {
    const info = server.address() as AddressInfo;
    // Early answers go out first: the adapter loads a moment after listening unless a request asks for it sooner
    // (loading it right here would keep the thread busy compiling it when the first poll of a harness comes in).
    setTimeout(loadAdapter, early ? EARLY_WINDOW_MS : 0);
    loaded.then(() => ready(info), failed);
  });
  return server;
}

/**
 * The service port (sandbox.md 13, containers): TLS only, each connection handed to `take` (the proxy, which reads
 * the client's hello and serves the name it asks for). A port below 1024 refused to an unprivileged user says how
 * a container allows it.
 */
export async function listenServiceTls(port: number, host: string, take: (socket: Socket) => void): Promise<Listening> {
  const sockets = new Set<Socket>();
  const server = createNetServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    take(socket);
  });
  const info = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EACCES')
        return reject(new Error(`the service port ${port} is refused to this user (ports below 1024 need a privilege). In a container, allow them: the sysctl net.ipv4.ip_unprivileged_port_start=0 (compose: sysctls), which Docker sets by default and podman does not, or --cap-add NET_BIND_SERVICE; else pick --service-port 8443 (SANDBOX_SERVICE_PORT).`));
      if (err.code === 'EADDRINUSE') return reject(new Error(`the service port ${port} on ${host} is already in use: stop what listens there, or pick another with --service-port N (SANDBOX_SERVICE_PORT).`));
      reject(err);
    });
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
  const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  return {
    url: `https://${shownHost}:${info.port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

/**
 * Listens on `host:port`; with `tls` (options for https.createServer, see src/tls serverTlsOptions) it speaks HTTPS.
 * With `proxy`, the listener also answers CONNECT and http:// targets in absolute form (src/proxy).
 */
export async function listen(app: Hono<any>, port: number, host: string, tls?: HttpsOptions, early?: EarlyAnswer, proxy?: ProxyHandlers, idleMs = DEFAULT_IDLE_MS): Promise<Listening> {
  const tlsParts: TlsParts | undefined = tls && { createAdaptorServer: (await import('@hono/node-server')).createAdaptorServer, createHttpsServer: (await import('node:https')).createServer };
  let server!: Server;
  const info = await new Promise<AddressInfo>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err);
      const taken = new Error(`port ${port} on ${host} is already in use (another pix-sandbox?). Stop that process, pick another port with --port N (PORT=N), or use --port 0 for any free port.`);
      reject(Object.assign(taken, { code: err.code }));
    };
    server = tls && tlsParts ? serveTls(tlsParts, app, port, host, tls, idleMs, resolve, proxy) : serveHttp(app, port, host, idleMs, early, resolve, reject, proxy);
    server.once('error', onError);
  });
  const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  return {
    url: `${tls ? 'https' : 'http'}://${shownHost}:${info.port}`,
    close: () =>
      new Promise<void>((done) => {
        proxy?.close();
        server.close(() => done());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
