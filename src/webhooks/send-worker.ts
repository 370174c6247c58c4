// The thread of webhooks/send-thread.ts: sends the delivery attempts it is given with ./transport.ts postWithHttp (one
// per channel, that is per sandbox: its own keep-alive connections) and answers each with its head, then its text, or
// its error. Answers go back in one message per turn of this thread's event loop.
import { parentPort } from 'node:worker_threads';
import type { CrossedError, FromThread, ToThread } from './send-thread';
import { postWithHttp, Stop } from './transport';

const channels = new Map<number, ReturnType<typeof postWithHttp>>();
const stops = new Map<number, Stop>();

let outbox: FromThread[] = [];
/** Heads in the outbox, by attempt: a text that comes before they go rides with its head (most answers are whole in one read). */
const unsent = new Map<number, { id: number; status: number; location: string | null; text?: string }>();
let flushing = false;
function reply(message: FromThread): void {
  const head = 'text' in message ? unsent.get(message.id) : undefined;
  if (head) head.text = (message as { text: string }).text;
  else outbox.push(message);
  if ('status' in message) unsent.set(message.id, message);
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    const batch = outbox;
    outbox = [];
    unsent.clear();
    parentPort!.postMessage(batch);
  });
}

function crossed(err: unknown): CrossedError {
  if (!(err instanceof Error)) return { message: String(err) };
  const { code, cause } = err as Error & { code?: unknown; cause?: { code?: unknown; message?: unknown } };
  return {
    message: err.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(cause && typeof cause === 'object' ? { cause: { ...(typeof cause.code === 'string' ? { code: cause.code } : {}), ...(typeof cause.message === 'string' ? { message: cause.message } : {}) } } : {}),
  };
}

function send({ id, channel, sockets, url, headers, body }: Extract<ToThread, { op: 'send' }>): void {
  let http = channels.get(channel);
  if (!http) channels.set(channel, (http = postWithHttp(sockets)));
  const stop = new Stop();
  stops.set(id, stop);
  http.post(url, headers, body, stop).then(
    (answer) => {
      reply({ id, status: answer.status, location: answer.location });
      return answer.text().then((text) => reply({ id, text }));
    },
    (err: unknown) => reply({ id, error: crossed(err) }),
  ).finally(() => stops.delete(id));
}

parentPort!.on('message', (batch: ToThread[]) => {
  for (const m of batch) {
    if (m.op === 'send') send(m);
    else if (m.op === 'stop') stops.get(m.id)?.stop(new Error('the attempt was cut short'));
    else {
      channels.get(m.channel)?.close();
      channels.delete(m.channel);
    }
  }
});
