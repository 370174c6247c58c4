// GET /_sandbox/stream (sandbox.md 4.9): Server-Sent Events of every change the bus carries. Each connection is one
// bus listener, removed the moment the client goes away (whatever it was in the middle of), so connections that come
// and go leave nothing behind. A batch of messages is made into bytes once for every stream of all accounts (and once
// per account for filtered streams); what each stream then costs is one write of those bytes. On a Node server that
// write goes straight to the connection's socket once the response's head is out, as the HTTP/1.1 chunk the response
// would have made of it, framed once for every stream (not through a web stream, whose TransformStream and reader cost
// about twice the write, nor through the response's write, which framed each stream's copy in four pieces and corked
// the socket until the next tick); in process (app.request) the bytes go into the Response's body stream. A client
// that stops reading is dropped once it is MAX_UNREAD_BYTES behind.
import type { ServerResponse } from 'node:http';
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { BusMessage } from '../lib/bus';
import { controlErrors, controlSecurity } from '../wire/schemas';
import type { Router } from '../wire/env';
import { extended } from '../lib/objects';

export const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** How far a stream's client may fall behind (bytes written and not yet taken) before it is disconnected. */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

/** The SSE message of a bus message: its `event:` name and its JSON data. */
export function sseOf(message: BusMessage): { event: string; data: string } {
  switch (message.kind) {
    case 'event':
      return { event: message.event, data: JSON.stringify(extended(message.envelope, { accountId: message.accountId })) };
    case 'reset':
      return { event: 'reset', data: '{}' };
    default: {
      const { kind, ...data } = message;
      return { event: kind, data: JSON.stringify(data) };
    }
  }
}

/** The wire text of a message, made once however many streams send it. */
const wireText = new WeakMap<BusMessage, string>();
function textOf(message: BusMessage): string {
  let text = wireText.get(message);
  if (text === undefined) {
    const { event, data } = sseOf(message);
    text = `event: ${event}\ndata: ${data}\n\n`; // JSON.stringify leaves no newline in data
    wireText.set(message, text);
  }
  return text;
}

const encoder = new TextEncoder();
/** The bytes of a batch for the streams of every account, encoded once for all of them. */
const batchBytes = new WeakMap<readonly BusMessage[], Uint8Array>();
/** The bytes of a batch for the streams of one account, encoded once per account. */
const accountBytes = new WeakMap<readonly BusMessage[], Map<string, Uint8Array>>();

/**
 * Whether a stream filtered to `accountId` carries a message: one of that account (a logged request included), or one
 * about the whole sandbox (its clock, a reset, the workshop room opening, closing or ending). A message that names no
 * account where it could (a logged request nobody could be named for) reaches only unfiltered streams.
 */
function carries(message: BusMessage, accountId: string): boolean {
  switch (message.kind) {
    case 'reset':
      return true;
    case 'clock':
    case 'workshop':
      return message.accountId === undefined || message.accountId === accountId;
    default:
      return message.accountId === accountId;
  }
}

/** The wire bytes of a batch for a stream (of one account, or of all). */
function bytesOf(messages: readonly BusMessage[], accountId: string | undefined): Uint8Array {
  const known = accountId === undefined ? batchBytes.get(messages) : accountBytes.get(messages)?.get(accountId);
  if (known) return known;
  let text = '';
  for (const message of messages) {
    if (accountId !== undefined && !carries(message, accountId)) continue;
    text += textOf(message);
  }
  const bytes = encoder.encode(text);
  if (accountId === undefined) batchBytes.set(messages, bytes);
  else {
    let byAccount = accountBytes.get(messages);
    if (!byAccount) accountBytes.set(messages, (byAccount = new Map()));
    byAccount.set(accountId, bytes);
  }
  return bytes;
}

/** The bytes as one HTTP/1.1 chunk (size line, bytes, CRLF), made once however many chunked responses send them. */
const chunks = new WeakMap<Uint8Array, Buffer>();
function chunkOf(bytes: Uint8Array): Buffer {
  let chunk = chunks.get(bytes);
  if (!chunk) {
    const size = `${bytes.byteLength.toString(16)}\r\n`;
    chunk = Buffer.allocUnsafe(size.length + bytes.byteLength + 2);
    chunk.write(size, 0, 'latin1');
    chunk.set(bytes, size.length);
    chunk.write('\r\n', size.length + bytes.byteLength, 'latin1');
    chunks.set(bytes, chunk);
  }
  return chunk;
}

const CONNECTED = encoder.encode(': connected\n\n');
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** The Node response under a request served by @hono/node-server (undefined in process). */
const nodeResponseOf = (env: unknown): ServerResponse | undefined => (env as { outgoing?: ServerResponse } | undefined)?.outgoing;

export function registerStream(app: Router, deps: Deps, keepAliveMs = DEFAULT_KEEP_ALIVE_MS) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/stream',
      tags: ['Control API'],
      operationId: 'streamSandboxChanges',
      security: controlSecurity,
      summary: 'Live changes as Server-Sent Events: every recorded event (named by its kind), transaction, delivery attempt, clock move, logged request and reset',
      description:
        'Messages: `event: <event kind>` (the webhook envelope plus accountId), `event: transaction` {accountId, id, type, status}, `event: delivery` {accountId, deliveryId, state, attempts}, `event: clock` {now, frozen, accountId when a tenant clock moved}, `event: request` {accountId (absent when no account could be named: then only unfiltered streams carry it), id, face, method, path, status, durationMs, at}: a request the request log kept (GET /_sandbox/requests/{id} has all of it; a control request belongs to the attendee who sent it, else to the account whose record its path names), `event: workshop` {change: joined|step|open|closed|ended, accountId and step for an attendee}: the workshop room changed, `event: reset` {}. A comment line every 15 s keeps proxies open. With SANDBOX_ADMIN_TOKEN set, `?token=` is accepted in place of the header (EventSource cannot send headers); a workshop attendee console token gives the changes of their tenant only. Follow it from a shell with `curl -N $B/_sandbox/stream`.',
      request: {
        query: z.object({
          accountId: z.string().optional().openapi({ description: 'Only changes of this account (moves of the sandbox clock and resets are sent to every stream; a tenant clock\'s moves to its account\'s)' }),
          token: z.string().optional().openapi({ description: "The admin token (or a workshop attendee's console token: their tenant's changes only), for clients that cannot send X-Sandbox-Token" }),
        }),
      },
      responses: {
        200: { description: 'An endless text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
        ...controlErrors,
      },
    }),
    (c) => {
      const principal = c.get('principal');
      // An attendee's stream is their tenant's, asked for or not (control/principal.ts refused any other).
      const accountId = principal?.kind === 'attendee' ? principal.accountId : c.req.valid('query').accountId;
      if (accountId !== undefined) deps.store.account(accountId); // an unknown account is a 404, not a silent stream
      const outgoing = nodeResponseOf(c.env);
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let stopped = false;
      let unsubscribe = () => {};
      let timer: ReturnType<typeof setInterval> | undefined;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        clearInterval(timer);
        unsubscribe();
        try {
          controller.close();
        } catch {
          /* cancelled already */
        }
      };
      const body = new ReadableStream<Uint8Array>({ start: (ctl) => void (controller = ctl), cancel: stop }, new ByteLengthQueuingStrategy({ highWaterMark: 0 }));
      /** Bytes waiting for the response's head to be written (Node server only). */
      let waiting: Uint8Array[] | null = outgoing ? [] : null;
      /**
       * The connection, once the response has written its head and a first piece of its body itself and holds the
       * connection (no pipelined answer before it); whether the response frames its body in chunks (HTTP/1.1) or not.
       */
      let socket: ServerResponse['socket'] = null;
      let chunked = false;
      const write = (bytes: Uint8Array) => {
        if (stopped) return;
        if (!outgoing) {
          if ((controller.desiredSize ?? 0) < -MAX_UNREAD_BYTES) return stop();
          return controller.enqueue(bytes);
        }
        if (outgoing.destroyed || outgoing.writableEnded) return stop();
        if (waiting) return void waiting.push(bytes);
        if (outgoing.writableLength > MAX_UNREAD_BYTES) {
          outgoing.destroy();
          return stop();
        }
        if (socket) return void socket.write(chunked ? chunkOf(bytes) : bytes);
        outgoing.write(bytes); // the head and the first bytes go through the response
        const held = outgoing.socket as (ServerResponse['socket'] & { _httpMessage?: unknown }) | null;
        if (held && held._httpMessage === outgoing) {
          socket = held;
          chunked = (outgoing as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
        }
      };
      if (outgoing) {
        outgoing.once('close', stop);
        // The adapter writes the head once this Response has come back through the middleware (a few microtasks).
        const whenHeadIsOut = () => {
          if (stopped || outgoing.destroyed || outgoing.writableEnded) return stop();
          if (!outgoing.headersSent) return void setImmediate(whenHeadIsOut);
          const queued = waiting!;
          waiting = null;
          for (const bytes of queued) write(bytes);
        };
        setImmediate(whenHeadIsOut);
      }
      // One write per batch: the text of its messages (for this stream's account) back to back.
      unsubscribe = deps.bus.subscribe((messages) => {
        const bytes = bytesOf(messages, accountId);
        if (bytes.byteLength > 0) write(bytes);
      });
      timer = setInterval(() => write(KEEP_ALIVE), keepAliveMs);
      write(CONNECTED);
      return c.newResponse(body, 200, { 'Transfer-Encoding': 'chunked', 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    },
  );
}
