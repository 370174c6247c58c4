// The CLI turns on Node's compile cache (Node 22.1+) before it imports its own code; whatever Node says, the start
// goes on: no cache on Node 20, a directory that cannot be written, a call that throws.
import * as nodeModule from 'node:module';
import { expect, test } from 'vitest';
import { enableCompileCache } from '../../src/lib/compile-cache';

test.each([
  ['a Node without the cache (20)', {}, undefined],
  ['a directory that cannot be written', { enableCompileCache: () => ({ status: 0, message: 'EACCES: permission denied' }) }, { status: 0, message: 'EACCES: permission denied' }],
  ['a call that throws', { enableCompileCache: () => { throw new Error('boom'); } }, { status: -1, message: 'boom' }],
  ['the cache turned on', { enableCompileCache: () => ({ status: 1, directory: '/tmp/node-compile-cache' }) }, { status: 1, directory: '/tmp/node-compile-cache' }],
])('with %s, enableCompileCache reports and does not throw', (_, mod, expected) => {
  expect(enableCompileCache(mod as never)).toEqual(expected);
});

test("this Node's own module answers without throwing (undefined where it has no cache)", () => {
  const has = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  const result = enableCompileCache();
  expect(has ? typeof result?.status : result).toBe(has ? 'number' : undefined);
});
