// A webhook receiver for test suites: node:http on 127.0.0.1, port 0. It keeps each delivery's exact bytes, parsed
// body and headers, checks X-Service-Signature over those bytes, and answers 2xx (or what it is told).
// `next(event)` hands out deliveries in arrival order, each once; it waits for one that has not come yet.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../webhooks/signature';
import type { EventKind } from '../domain/events';

/** The envelope every webhook body has (service document 6). */
export interface WebhookPayload {
  event: EventKind;
  eventId: string;
  timestamp: string;
  subAccount: string | null;
  data: Record<string, unknown>;
}

export interface ReceivedWebhook {
  /** X-Service-Event. */
  event: EventKind;
  /** X-Service-Webhook-ID: the delivery id, the same across its retries. */
  deliveryId: string;
  /** The body, parsed (undefined if it was not JSON). */
  body: WebhookPayload;
  /** The body exactly as received (UTF-8), the bytes the signature covers. */
  rawBody: string;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** X-Service-Signature matches rawBody with the receiver's secret. */
  signatureValid: boolean;
  method: string;
  path: string;
  receivedAt: Date;
}

export interface ReceiverOptions {
  /** The endpoint's signing secret (give the same one to the webhook endpoint). Default: a random whsec_... */
  secret?: string;
  /** Status of the answers (default 200); change later with respondWith(). */
  status?: number;
  /** Path part of `url` (default /webhooks); every path is received. */
  path?: string;
}

export interface Receiver {
  /** Where to point a webhook endpoint: http://127.0.0.1:<port>/webhooks */
  readonly url: string;
  readonly secret: string;
  /** Every delivery received so far, in arrival order. */
  readonly received: readonly ReceivedWebhook[];
  /**
   * The next delivery of `event` (any event when omitted) not yet handed out by next(), waiting up to `timeoutMs`
   * (default 10000) for it to arrive; rejects after that, naming what did arrive.
   */
  next(event?: EventKind, opts?: { timeoutMs?: number }): Promise<ReceivedWebhook>;
  /** Answer later deliveries with this status (e.g. 500 to make the sandbox retry). */
  respondWith(status: number): void;
  /** Stops listening and drops open connections; safe to call twice. */
  close(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Starts a receiver on 127.0.0.1, port 0. */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const secret = options.secret ?? `whsec_${randomBytes(18).toString('hex')}`;
  let status = options.status ?? 200;
  const received: ReceivedWebhook[] = [];
  const handedOut = new Set<ReceivedWebhook>();
  let waiters: Array<() => void> = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const headers = headersOf(req);
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      received.push({
        event: (headers['x-service-event'] ?? '') as EventKind,
        deliveryId: headers['x-service-webhook-id'] ?? '',
        body: body as WebhookPayload,
        rawBody,
        headers,
        signatureValid: verifyWebhookSignature(rawBody, headers['x-service-signature'], secret),
        method: req.method ?? '',
        path: req.url ?? '',
        receivedAt: new Date(),
      });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 200 && status < 300 ? 'ok' : `test receiver answers ${status}`);
      const ready = waiters;
      waiters = [];
      for (const w of ready) w();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${options.path ?? '/webhooks'}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    secret,
    received,
    next(event, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? 10_000;
      const take = () => {
        const found = received.find((r) => !handedOut.has(r) && (event === undefined || r.event === event));
        if (found) handedOut.add(found);
        return found;
      };
      return new Promise<ReceivedWebhook>((resolve, reject) => {
        const check = () => {
          const found = take();
          if (!found) return void waiters.push(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== check);
          const got = received.map((r) => r.event).join(', ') || 'nothing';
          reject(new Error(`No ${event ?? 'webhook'} delivery arrived at ${url} within ${timeoutMs} ms (received so far: ${got}). Is an endpoint of the account pointed at this receiver?`));
        }, timeoutMs);
        check();
      });
    },
    respondWith(s) {
      status = s;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
