// A binary min-heap of items ordered by a number, ties in the order they were pushed: push and pop in O(log n), where
// a sorted array pays a move of every later item for each insert (the scheduler's queue holds a retry job for every
// delivery attempt of the last minutes). Sifting moves entries into a hole and writes the moving one once, rather
// than swapping pairs (a destructuring swap of three arrays allocated about 1 KB per delivery in the fan-out).

import type { Writable } from './objects';

export interface Heap<T> {
  readonly size: number;
  peek(): T | undefined;
  /** The first item's key as it was pushed (the item's own may have moved since). */
  peekKey(): number | undefined;
  pop(): T | undefined;
  push(item: T): void;
}

export function createHeap<T>(keyOf: (item: T) => number, items: readonly T[] = []): Heap<T> {
  const keys: number[] = [];
  const seqs: number[] = [];
  const values: T[] = [];
  let seq = 0;
  /** Moves the entry at `from` to `to`. */
  const move = (to: number, from: number) => {
    keys[to] = keys[from]!;
    seqs[to] = seqs[from]!;
    values[to] = values[from]!;
  };
  /** Puts (key, s, value) at `i` or above it, moving larger parents down. */
  const up = (i: number, key: number, s: number, value: T) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent]!;
      if (!(key < pk || (key === pk && s < seqs[parent]!))) break;
      move(i, parent);
      i = parent;
    }
    keys[i] = key;
    seqs[i] = s;
    values[i] = value;
  };
  /** Puts (key, s, value) at `i` or below it, moving smaller children up; `n` entries are in the heap. */
  const down = (i: number, key: number, s: number, value: T, n: number) => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && (keys[r]! < keys[l]! || (keys[r] === keys[l] && seqs[r]! < seqs[l]!)) ? r : l;
      const ck = keys[child]!;
      if (!(ck < key || (ck === key && seqs[child]! < s))) break;
      move(i, child);
      i = child;
    }
    keys[i] = key;
    seqs[i] = s;
    values[i] = value;
  };
  const heap: Writable<Heap<T>> = {
    size: 0,
    peek: () => values[0],
    peekKey: () => keys[0],
    pop() {
      const n = values.length;
      if (n === 0) return undefined;
      const top = values[0];
      const key = keys.pop()!;
      const s = seqs.pop()!;
      const last = values.pop()!;
      if (n > 1) down(0, key, s, last, n - 1);
      heap.size = n - 1;
      return top;
    },
    push(item) {
      const i = values.length;
      keys.push(0);
      seqs.push(0);
      values.push(item);
      up(i, keyOf(item), seq++, item);
      heap.size = i + 1;
    },
  };
  for (const item of items) heap.push(item);
  return heap;
}
