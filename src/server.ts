// The only place that opens a socket (for createSandbox().listen and the CLI).
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * The addresses a phone on the same network can open when the server listens on every interface (0.0.0.0 or ::):
 * each non-internal IPv4 address of the machine (IPv6 link-local addresses need a zone a phone cannot type).
 */
export function lanUrls(host: string, port: number, interfaces = networkInterfaces()): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [];
  const out: string[] = [];
  for (const list of Object.values(interfaces)) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(`http://${a.address}:${port}`);
  return out;
}

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export function listen(app: Hono<any>, port: number, host: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${shownHost}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err);
      const taken = new Error(`port ${port} on ${host} is already in use (another pix-sandbox?). Stop that process, pick another port with --port N (PORT=N), or use --port 0 for any free port.`);
      reject(Object.assign(taken, { code: err.code }));
    });
  });
}
