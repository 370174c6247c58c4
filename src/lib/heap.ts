// A binary min-heap of items ordered by a number, ties in the order they were pushed: push and pop in O(log n), where
// a sorted array pays a move of every later item for each insert (the scheduler's queue holds a retry job for every
// delivery attempt of the last minutes).

export interface Heap<T> {
  readonly size: number;
  peek(): T | undefined;
  pop(): T | undefined;
  push(item: T): void;
}

export function createHeap<T>(keyOf: (item: T) => number, items: readonly T[] = []): Heap<T> {
  const keys: number[] = [];
  const seqs: number[] = [];
  const values: T[] = [];
  let seq = 0;
  const less = (i: number, j: number) => keys[i]! < keys[j]! || (keys[i] === keys[j] && seqs[i]! < seqs[j]!);
  const swap = (i: number, j: number) => {
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    [seqs[i], seqs[j]] = [seqs[j]!, seqs[i]!];
    [values[i], values[j]] = [values[j]!, values[i]!];
  };
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(i, parent)) return;
      swap(i, parent);
      i = parent;
    }
  };
  const down = (i: number) => {
    const n = values.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < n && less(l, least)) least = l;
      if (r < n && less(r, least)) least = r;
      if (least === i) return;
      swap(i, least);
      i = least;
    }
  };
  const heap: Heap<T> = {
    get size() {
      return values.length;
    },
    peek: () => values[0],
    pop() {
      const n = values.length;
      if (n === 0) return undefined;
      const top = values[0];
      swap(0, n - 1);
      keys.pop();
      seqs.pop();
      values.pop();
      if (n > 1) down(0);
      return top;
    },
    push(item) {
      keys.push(keyOf(item));
      seqs.push(seq++);
      values.push(item);
      up(values.length - 1);
    },
  };
  for (const item of items) heap.push(item);
  return heap;
}
