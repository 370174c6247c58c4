// The change bus: what the live stream (GET /_sandbox/stream) and the console follow. Invariants:
// - publishing never throws into the code that publishes and costs nothing when nobody listens;
// - messages are handed to listeners after the publishing code has returned (next turn of the event loop), so a
//   listener sees the change applied, and a slow or failing listener cannot slow or break a service verb;
// - a message may be given as a function: it is built at delivery, from the state as it is then.

export type BusMessage =
  /** A recorded event: `envelope` is the exact envelope its deliveries send. */
  | { kind: 'event'; accountId: string; event: string; envelope: Record<string, unknown> }
  | { kind: 'transaction'; accountId: string; id: string; type: string; status: string }
  | { kind: 'delivery'; accountId: string; deliveryId: string; state: string; attempts: number }
  | { kind: 'clock'; now: string; frozen: boolean }
  | { kind: 'reset' };

export type BusListener = (message: BusMessage) => void;

export interface Bus {
  publish(message: BusMessage | (() => BusMessage | undefined)): void;
  /** Returns the function that stops listening. */
  subscribe(listener: BusListener): () => void;
  readonly listeners: number;
}

export function createBus(onError: (err: unknown) => void = () => {}): Bus {
  const listeners = new Set<BusListener>();
  let queue: Array<BusMessage | (() => BusMessage | undefined)> = [];
  let scheduled = false;

  const deliver = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    for (const item of batch) {
      let message: BusMessage | undefined;
      try {
        message = typeof item === 'function' ? item() : item;
      } catch (err) {
        onError(err);
      }
      if (!message) continue;
      for (const listener of listeners) {
        try {
          listener(message);
        } catch (err) {
          onError(err);
        }
      }
    }
  };

  return {
    publish(message) {
      if (listeners.size === 0) return;
      queue.push(message);
      if (!scheduled) {
        scheduled = true;
        setImmediate(deliver);
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    get listeners() {
      return listeners.size;
    },
  };
}

/**
 * Tells the bus that these transactions were created or moved (`event: transaction`). Their status is read when the
 * message goes out, so it is the status after the change. Structural, so lib/ stays free of domain imports.
 */
export function publishTransactions(bus: Bus, accountId: string, ...txs: Array<{ id: string; type: string; status: string }>): void {
  if (bus.listeners === 0) return;
  for (const tx of txs) bus.publish(() => ({ kind: 'transaction', accountId, id: tx.id, type: tx.type, status: tx.status }));
}
