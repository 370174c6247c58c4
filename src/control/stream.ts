// GET /_sandbox/stream (sandbox.md 4.9): Server-Sent Events of every change the bus carries. Each connection is one
// bus listener, removed the moment the client goes away (whatever it was in the middle of), so connections that come
// and go leave nothing behind; writes to one client are chained, so messages keep their order.
import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { Deps } from '../deps';
import type { BusMessage } from '../lib/bus';
import { controlErrors, controlSecurity } from '../http/schemas';
import type { Router } from '../http/env';

export const DEFAULT_KEEP_ALIVE_MS = 15_000;

/** The SSE message of a bus message: its `event:` name and its JSON data. */
export function sseOf(message: BusMessage): { event: string; data: string } {
  switch (message.kind) {
    case 'event':
      return { event: message.event, data: JSON.stringify({ ...message.envelope, accountId: message.accountId }) };
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

/** The wire bytes of a batch for a stream (of one account, or of all). */
function bytesOf(messages: readonly BusMessage[], accountId: string | undefined): Uint8Array {
  const shared = accountId === undefined ? batchBytes.get(messages) : undefined;
  if (shared) return shared;
  let text = '';
  for (const message of messages) {
    if (accountId !== undefined && 'accountId' in message && message.accountId !== accountId) continue;
    text += textOf(message);
  }
  const bytes = encoder.encode(text);
  if (accountId === undefined) batchBytes.set(messages, bytes);
  return bytes;
}

export function registerStream(app: Router, deps: Deps, keepAliveMs = DEFAULT_KEEP_ALIVE_MS) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/stream',
      tags: ['Control API'],
      operationId: 'streamSandboxChanges',
      security: controlSecurity,
      summary: 'Live changes as Server-Sent Events: every recorded event (named by its kind), transaction, delivery attempt, clock move and reset',
      description:
        'Messages: `event: <event kind>` (the webhook envelope plus accountId), `event: transaction` {accountId, id, type, status}, `event: delivery` {accountId, deliveryId, state, attempts}, `event: clock` {now, frozen}, `event: reset` {}. A comment line every 15 s keeps proxies open. With SANDBOX_ADMIN_TOKEN set, `?token=` is accepted in place of the header (EventSource cannot send headers). Follow it from a shell with `curl -N $B/_sandbox/stream`.',
      request: {
        query: z.object({
          accountId: z.string().optional().openapi({ description: 'Only changes of this account (clock moves and resets are sent to every stream)' }),
          token: z.string().optional().openapi({ description: 'The admin token, for clients that cannot send X-Sandbox-Token' }),
        }),
      },
      responses: {
        200: { description: 'An endless text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
        ...controlErrors,
      },
    }),
    (c) => {
      const { accountId } = c.req.valid('query');
      if (accountId !== undefined) deps.store.account(accountId); // an unknown account is a 404, not a silent stream
      return streamSSE(c, async (stream) => {
        let unsubscribe = () => {};
        let timer: ReturnType<typeof setInterval> | undefined;
        let stop!: () => void;
        const stopped = new Promise<void>((resolve) => {
          stop = () => {
            clearInterval(timer);
            unsubscribe();
            resolve();
          };
        });
        stream.onAbort(stop);
        let chain: Promise<unknown> = Promise.resolve();
        const send = (write: () => Promise<unknown>) => {
          if (stream.closed || stream.aborted) return stop();
          chain = chain.then(write).catch(stop); // a client gone mid-write: stop listening
        };
        // One write per batch: the text of its messages (for this stream's account) back to back.
        unsubscribe = deps.bus.subscribe((messages) => {
          const bytes = bytesOf(messages, accountId);
          if (bytes.byteLength > 0) send(() => stream.write(bytes));
        });
        timer = setInterval(() => send(() => stream.write(': keep-alive\n\n')), keepAliveMs);
        send(() => stream.write(': connected\n\n'));
        await stopped;
      });
    },
  );
}
