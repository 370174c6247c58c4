// The thread a store's background folds run in (./fold-worker.ts, built beside the bundle as dist/fold-worker.js; from
// source there is none and the store folds in process). One thread per store, kept between folds that follow each
// other closely: it keeps the state it last wrote (disk.ts foldFiles), so the next fold replays only the journal lines
// since then instead of reading and parsing the whole snapshot again (about half of a fold's CPU at 100k charges). A
// thread idle for KEEP_MS goes, and its copy of the state with it; so does one whose fold failed.
import type { Worker } from 'node:worker_threads';
import { builtin } from '../lib/builtin';
import { builtWorker } from '../lib/worker-file';

const FOLD_WORKER = new URL('./fold-worker.js', import.meta.url);
/** node:worker_threads, loaded at the first fold (a start loads none of it). */
const threads = builtin<typeof import('node:worker_threads')>('node:worker_threads');
let built: boolean | undefined;

/** How long a fold's thread (and the copy of the state it keeps) outlives its last fold. */
export const KEEP_MS = 3000;

export interface FoldThread {
  /** Folds FILE's snapshot and journal up to `seq` into FILE.tmp; null when the build has no fold thread. */
  fold(file: string, seq: number): Promise<{ bytes: number }> | null;
  /** Ends the thread now (the store closes). */
  close(): void;
}

export function foldThread(): FoldThread {
  let worker: Worker | null = null;
  let idle: NodeJS.Timeout | null = null;
  const stop = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    const w = worker;
    worker = null;
    void w?.terminate();
  };
  return {
    fold(file, seq) {
      built ??= builtWorker(FOLD_WORKER) !== null;
      if (!built) return null;
      if (idle) clearTimeout(idle);
      idle = null;
      if (!worker) {
        const w = new (threads().Worker)(FOLD_WORKER);
        // Whatever becomes of an idle thread (a fold under way has its own listeners below): it is not reused.
        w.on('error', () => {});
        w.once('exit', () => {
          if (worker === w) worker = null;
        });
        worker = w;
      }
      const w = worker;
      w.ref(); // a fold under way holds the process, an idle thread does not
      return new Promise((resolve, reject) => {
        const settle = (fn: () => void) => {
          w.off('message', onMessage);
          w.off('error', onError);
          w.off('exit', onExit);
          fn();
        };
        const onMessage = (m: { bytes: number } | { error: string }) =>
          settle(() => {
            if ('error' in m) {
              stop();
              reject(new Error(m.error));
              return;
            }
            w.unref();
            idle = setTimeout(stop, KEEP_MS);
            idle.unref();
            resolve(m);
          });
        const onError = (err: Error) =>
          settle(() => {
            stop();
            reject(err);
          });
        const onExit = (code: number) =>
          settle(() => {
            if (worker === w) worker = null;
            reject(new Error(`the fold's thread stopped with exit code ${code}`));
          });
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', onExit);
        w.postMessage({ file, seq });
      });
    },
    close: stop,
  };
}
