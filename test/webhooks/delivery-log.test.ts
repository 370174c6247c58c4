// The delivery log's limit (sandbox.md 4.8: the last 10,000 per account, never a pending one), checked on trimLog with
// a small limit: oldest finished first, pending ones kept however old, and a log read afresh when the epoch moves.
import { expect, test } from 'vitest';
import { trimLog } from '../../src/webhooks/dispatcher';
import type { Delivery } from '../../src/domain/types';

const delivery = (id: string, state: Delivery['state']) => ({ id, state }) as Delivery;

function add(log: Record<string, Delivery>, id: string, state: Delivery['state'], limit: number, epoch = 0) {
  log[id] = delivery(id, state);
  trimLog(log, id, limit, epoch);
}

test('past the limit the oldest finished deliveries go first, pending ones stay however old', () => {
  const log: Record<string, Delivery> = {};
  add(log, 'a', 'pending', 3);
  add(log, 'b', 'succeeded', 3);
  add(log, 'c', 'failed', 3);
  expect(Object.keys(log)).toEqual(['a', 'b', 'c']);
  add(log, 'd', 'succeeded', 3);
  expect(Object.keys(log)).toEqual(['a', 'c', 'd']);
  add(log, 'e', 'pending', 3);
  expect(Object.keys(log)).toEqual(['a', 'd', 'e']);
  log.a!.state = 'succeeded';
  add(log, 'f', 'succeeded', 3);
  expect(Object.keys(log)).toEqual(['d', 'e', 'f']);
});

test('a log of only pending deliveries grows past the limit; once they finish, the next addition trims it', () => {
  const log: Record<string, Delivery> = {};
  for (const id of ['a', 'b', 'c', 'd']) add(log, id, 'pending', 2);
  expect(Object.keys(log)).toEqual(['a', 'b', 'c', 'd']);
  for (const d of Object.values(log)) d.state = 'failed';
  add(log, 'e', 'pending', 2);
  expect(Object.keys(log)).toEqual(['d', 'e']);
});

test('when the epoch moves (a change undone, a reset) the log is read again, not trusted from memory', () => {
  const log: Record<string, Delivery> = {};
  for (const id of ['a', 'b', 'c']) add(log, id, 'succeeded', 3);
  delete log.c; // undone: gone without trimLog knowing
  log.x = delivery('x', 'succeeded');
  add(log, 'y', 'succeeded', 3, 1);
  expect(Object.keys(log)).toEqual(['b', 'x', 'y']);
  for (let i = 0; i < 3000; i++) add(log, `n${i}`, 'succeeded', 3, 1); // the order's array is compacted on the way
  expect(Object.keys(log)).toEqual(['n2997', 'n2998', 'n2999']);
});
