// The only place that opens a socket (for createSandbox().listen and the CLI).
import { createAdaptorServer, serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { createServer as createHttpsServer, type ServerOptions as HttpsOptions } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';

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

export interface Listening {
  url: string;
  close(): Promise<void>;
}

const TLS_HANDSHAKE = 0x16; // first byte of a TLS record carrying a ClientHello

/** The answer to a plain-HTTP request that reached the HTTPS listener: the service's envelope, then close. */
function httpsRequired(socket: Socket, port: number) {
  const message = `This port speaks HTTPS only: send the request to https://localhost:${port} (the same path), trusting the sandbox's CA (pix-sandbox ca prints its path).`;
  const body = JSON.stringify({ statusCode: 400, error: 'BadRequest', message, timestamp: new Date().toISOString(), traceId: '', details: { code: 'HTTPS_REQUIRED' } });
  socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/**
 * HTTPS on one listener that also answers plain HTTP with a clear 400 rather than a dead handshake: the first byte of
 * each connection says which it is (a TLS record starts with 0x16), and the socket, its byte put back, goes to the
 * HTTPS server.
 */
function serveTls(app: Hono<any>, port: number, host: string, tls: HttpsOptions, ready: (info: AddressInfo) => void): Server {
  const https = createAdaptorServer({ fetch: app.fetch, createServer: createHttpsServer, serverOptions: tls });
  const sockets = new Set<Socket>();
  const front = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('error', () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === TLS_HANDSHAKE) https.emit('connection', socket);
      else httpsRequired(socket, (front.address() as AddressInfo).port);
    });
  });
  front.listen(port, host, () => ready(front.address() as AddressInfo));
  const close = front.close.bind(front);
  return Object.assign(front, {
    close(done?: (err?: Error) => void) {
      for (const s of sockets) s.destroy();
      https.close();
      return close(done);
    },
  });
}

/** Listens on `host:port`; with `tls` (options for https.createServer, see src/tls serverTlsOptions) it speaks HTTPS. */
export function listen(app: Hono<any>, port: number, host: string, tls?: HttpsOptions): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const ready = (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `${tls ? 'https' : 'http'}://${shownHost}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    };
    const server = tls ? serveTls(app, port, host, tls, ready) : (serve({ fetch: app.fetch, port, hostname: host }, ready) as unknown as Server);
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err);
      const taken = new Error(`port ${port} on ${host} is already in use (another pix-sandbox?). Stop that process, pick another port with --port N (PORT=N), or use --port 0 for any free port.`);
      reject(Object.assign(taken, { code: err.code }));
    });
  });
}
