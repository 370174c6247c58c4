// The change bus: what the live stream (GET /_sandbox/stream) and the console follow. Invariants:
// - publishing never throws into the code that publishes and costs nothing when nobody listens;
// - messages are handed to listeners after the publishing code has returned (a later turn of the event loop), so a
//   listener sees the change applied, and a slow or failing listener cannot slow or break a service verb;
// - a message may be given as a function: it is built at delivery, from the state as it is then;
// - listeners get messages in batches: at once when the bus has been quiet, else at most one batch per interval, so a
//   burst of changes (a load test with streams open) costs one write per stream per interval rather than one per
//   change, and a message still goes out within the interval of its change. The interval is `intervalMs`, or
//   MS_PER_LISTENER per listener when that is longer (100 streams: 100 ms): a batch costs a socket write per stream,
//   so a busy bus makes at most about 1,000 of them a second however many streams are open (100 streams at 25 ms
//   added 15 % to the server's CPU per create, at 100 ms 3 %);
// - news of a change waits for the change to hold: `hold` (the store's afterCommit) keeps a message published inside a
//   unit of work until the unit is committed, and drops it when the unit is undone, so a stream never shows a change
//   that an error answer took back.

import type { Writable } from './objects';

export type BusMessage =
  /** A recorded event: `envelope` is the exact envelope its deliveries send. */
  | { kind: 'event'; accountId: string; event: string; envelope: Record<string, unknown> }
  | { kind: 'transaction'; accountId: string; id: string; type: string; status: string }
  | { kind: 'delivery'; accountId: string; deliveryId: string; state: string; attempts: number }
  | { kind: 'clock'; now: string; frozen: boolean; /** A tenant's own clock moved; absent: the sandbox clock. */ accountId?: string }
  /** A step of a story (sandbox.md 5.1) is done: `step` of `of`. */
  | { kind: 'story'; accountId: string; story: string; step: number; of: number; title: string; did: string; at: string }
  /** A request was logged (services/request-log.ts); without accountId when no account could be named for it. */
  | { kind: 'request'; accountId?: string; id: string; face: string; method: string; path: string; status: number; durationMs: number; at: string }
  /** The workshop room changed (sandbox.md 5.2): someone joined, reached a step (`step`), or joining opened, closed or ended. */
  | { kind: 'workshop'; accountId?: string; change: 'joined' | 'step' | 'open' | 'closed' | 'ended'; step?: string }
  | { kind: 'reset' };

/** Gets each batch of messages in the order they were published. */
export type BusListener = (messages: readonly BusMessage[]) => void;

export interface Bus {
  publish(message: BusMessage | (() => BusMessage | undefined)): void;
  /** Returns the function that stops listening. */
  subscribe(listener: BusListener): () => void;
  readonly listeners: number;
}

export const DEFAULT_BATCH_INTERVAL_MS = 25;
/** A busy bus's interval per listener, when that is longer than its `intervalMs` (see the invariants). */
export const MS_PER_LISTENER = 1;

export function createBus(onError: (err: unknown) => void = () => {}, intervalMs = DEFAULT_BATCH_INTERVAL_MS, hold: (send: () => void) => boolean = () => false): Bus {
  const listeners = new Set<BusListener>();
  let queue: Array<BusMessage | (() => BusMessage | undefined)> = [];
  let scheduled = false;
  let lastDelivery = -Infinity;

  const deliver = () => {
    scheduled = false;
    lastDelivery = performance.now();
    const batch: BusMessage[] = [];
    for (const item of queue) {
      try {
        const message = typeof item === 'function' ? item() : item;
        if (message) batch.push(message);
      } catch (err) {
        onError(err);
      }
    }
    queue = [];
    if (batch.length === 0) return;
    for (const listener of listeners) {
      try {
        listener(batch);
      } catch (err) {
        onError(err);
      }
    }
  };

  const enqueue = (message: BusMessage | (() => BusMessage | undefined)) => {
    queue.push(message);
    if (scheduled) return;
    scheduled = true;
    const wait = lastDelivery + Math.max(intervalMs, listeners.size * MS_PER_LISTENER) - performance.now();
    if (wait <= 0) setImmediate(deliver);
    else setTimeout(deliver, wait);
  };

  const bus: Writable<Bus> = {
    publish(message) {
      if (listeners.size === 0) return;
      if (hold(() => enqueue(message))) return;
      enqueue(message);
    },
    subscribe(listener) {
      listeners.add(listener);
      bus.listeners = listeners.size;
      return () => {
        listeners.delete(listener);
        bus.listeners = listeners.size;
      };
    },
    listeners: 0,
  };
  return bus;
}

/**
 * Tells the bus that these transactions were created or moved (`event: transaction`), with their status as it is
 * now (call it once the change is applied), so a charge created and paid within one batch is reported pending, then
 * completed. Structural, so lib/ stays free of domain imports.
 */
export function publishTransactions(bus: Bus, accountId: string, ...txs: Array<{ id: string; type: string; status: string }>): void {
  if (bus.listeners === 0) return;
  for (const tx of txs) bus.publish({ kind: 'transaction', accountId, id: tx.id, type: tx.type, status: tx.status });
}
