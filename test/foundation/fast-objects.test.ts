// The objects the sandbox reads per request keep fast properties. On Node 20 an object literal with a getter is made in
// dictionary mode, where every read of its properties from optimised code is a generic look-up (80 to 130
// instructions): the request log's recording made six such reads a request. These keep a count or a flag as a plain
// property (lib/objects.ts, Writable), or their getters on a class (the store). Each is checked in a second sandbox of
// the process too: a test kit makes many.
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHeap } from '../../src/lib/heap';
import { startHarness, type Harness } from '../helpers/harness';

setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

describe('objects read per request have fast properties', () => {
  let first: Harness;
  let h: Harness;
  beforeAll(async () => {
    first = await startHarness();
    h = await startHarness();
  });
  afterAll(async () => {
    await first.sb.close();
    await h.sb.close();
  });

  test('the check tells a dictionary-mode object', () => {
    const dictionary: Record<string, number> = {};
    for (let i = 0; i < 200; i++) dictionary[`k${i}`] = i;
    delete dictionary.k0;
    expect(hasFastProperties(dictionary)).toBe(false);
  });

  test.each([
    ['the store', (h: Harness) => h.sb.deps.store],
    ['the sandbox clock', (h: Harness) => h.sb.deps.clock],
    ['the bus', (h: Harness) => h.sb.deps.bus],
    ['the request log', (h: Harness) => h.sb.deps.requestLog],
    ['a heap', () => createHeap<number>((n) => n, [3, 1, 2])],
  ])('%s', (_, objectOf) => {
    expect(hasFastProperties(objectOf(first))).toBe(true);
    expect(hasFastProperties(objectOf(h))).toBe(true);
  });
});
