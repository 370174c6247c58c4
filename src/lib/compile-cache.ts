// Node's on-disk cache of compiled code (module.enableCompileCache, Node 22.1+): in NODE_COMPILE_CACHE when that is
// set, else in Node's default, node-compile-cache under the OS temp directory. A directory that cannot be written
// (or a Node without the cache) leaves the start as it was: the call reports, it never throws here.
import * as nodeModule from 'node:module';

type WithCache = { enableCompileCache?: (dir?: string) => { status: number; message?: string; directory?: string } };

/** Turns the cache on where Node has one; returns what Node said (undefined without the cache), and never throws. */
export function enableCompileCache(mod: WithCache = nodeModule as WithCache): { status: number; message?: string } | undefined {
  try {
    return mod.enableCompileCache?.();
  } catch (err) {
    return { status: -1, message: (err as Error).message };
  }
}
