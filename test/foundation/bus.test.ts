// The change bus's batching (lib/bus.ts): a quiet bus hands a message over on the next turn; a busy one at most one
// batch per interval, the interval growing with the number of listeners past 25 (each batch is a socket write per
// stream). Timed on vitest's fake clock: the bus reads performance.now() and waits with setTimeout/setImmediate.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createBus, type BusMessage } from '../../src/lib/bus';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const clock = (now: string): BusMessage => ({ kind: 'clock', now, frozen: false });

/** A bus with `listeners` listeners; the first records when (fake ms) each batch came and what it held. */
function busWith(listeners: number) {
  const bus = createBus();
  const batches: Array<{ at: number; nows: string[] }> = [];
  bus.subscribe((messages) => batches.push({ at: performance.now(), nows: messages.map((m) => (m.kind === 'clock' ? m.now : '?')) }));
  for (let i = 1; i < listeners; i++) bus.subscribe(() => {});
  return { bus, batches };
}

test.each([
  { listeners: 1, interval: 25 },
  { listeners: 25, interval: 25 },
  { listeners: 40, interval: 40 },
  { listeners: 100, interval: 100 },
])('$listeners listeners: the first message at once, then one batch per $interval ms while changes keep coming', async ({ listeners, interval }) => {
  const { bus, batches } = busWith(listeners);
  const start = performance.now();
  bus.publish(clock('a'));
  await vi.advanceTimersByTimeAsync(0);
  expect(batches).toEqual([{ at: start, nows: ['a'] }]);

  // A change every ms: they wait for the interval since the last batch, then go together.
  for (let ms = 1; ms < interval; ms++) {
    await vi.advanceTimersByTimeAsync(1);
    bus.publish(clock(`b${ms}`));
  }
  expect(batches).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(batches).toHaveLength(2);
  expect(batches[1]!.at - start).toBe(interval);
  expect(batches[1]!.nows).toEqual(Array.from({ length: interval - 1 }, (_, i) => `b${i + 1}`));

  // Quiet for longer than the interval: the next message goes at once again.
  await vi.advanceTimersByTimeAsync(interval + 1);
  const quietAt = performance.now();
  bus.publish(clock('c'));
  await vi.advanceTimersByTimeAsync(0);
  expect(batches[2]).toEqual({ at: quietAt, nows: ['c'] });
});

test('a listener that leaves shortens the interval again', async () => {
  const bus = createBus();
  const seen: number[] = [];
  bus.subscribe(() => seen.push(performance.now()));
  const others = Array.from({ length: 99 }, () => bus.subscribe(() => {}));
  const start = performance.now();
  bus.publish(clock('a'));
  await vi.advanceTimersByTimeAsync(0);
  for (const leave of others) leave();
  await vi.advanceTimersByTimeAsync(1);
  bus.publish(clock('b'));
  await vi.advanceTimersByTimeAsync(100);
  expect(seen).toEqual([start, start + 25]);
});
