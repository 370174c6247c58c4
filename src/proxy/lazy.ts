// The proxy's handlers as the listener takes them, loading the proxy (node:tls, the certificate code) at its first
// use: a sandbox nobody proxies through pays nothing for it at start.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ProxyHandlers } from './index';

export type { ProxyHandlers };

export function lazyProxy(load: () => Promise<ProxyHandlers>, log: (line: string) => void): ProxyHandlers {
  let loading: Promise<ProxyHandlers> | undefined;
  const get = () => (loading ??= load());
  const failed = (err: unknown, close: () => void) => {
    log(`proxy: could not load: ${(err as Error)?.stack ?? String(err)}`);
    close();
  };
  return {
    connect: (req: IncomingMessage, socket: Duplex, head: Buffer) => void get().then((p) => p.connect(req, socket, head), (err) => failed(err, () => socket.destroy())),
    request: (req: IncomingMessage, res: ServerResponse) => void get().then((p) => p.request(req, res), (err) => failed(err, () => res.destroy())),
    service: (socket: Socket) => void get().then((p) => p.service(socket), (err) => failed(err, () => socket.destroy())),
    close: () => void loading?.then((p) => p.close(), () => {}),
  };
}
