// lib/heap.ts: items come out by key, ties in the order they were pushed, whatever the order of pushes and pops.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createHeap } from '../../src/lib/heap';

test('pops items by key, ties in push order, through any mix of pushes and pops', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(-1)), { maxLength: 300 }), fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 20 }), (ops, initial) => {
      let n = 0;
      const made = initial.map((key) => ({ key, n: n++ }));
      const heap = createHeap<{ key: number; n: number }>((item) => item.key, made);
      const model = [...made];
      for (const op of ops) {
        if (op >= 0) {
          const item = { key: op, n: n++ };
          heap.push(item);
          model.push(item);
        } else {
          model.sort((a, b) => a.key - b.key || a.n - b.n);
          expect(heap.pop()).toBe(model.shift());
        }
        expect(heap.size).toBe(model.length);
        model.sort((a, b) => a.key - b.key || a.n - b.n);
        expect(heap.peek()).toBe(model[0]);
      }
    }),
    { numRuns: 300 },
  );
});
