// Node built-in modules a start does not use, loaded at their first use instead of with the code that names them:
// each one a start loads (worker_threads, zlib, v8, fs/promises, timers/promises) is a few hundred microseconds to a
// millisecond or two of its own (and pulls modules of its own) before the first answer. node:module is loaded anyway
// (src/cli.ts turns the compile cache on with it).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `name` (a built-in such as 'node:zlib'), required at the first call of the function returned, then kept. */
export function builtin<T>(name: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(name) as T);
}
