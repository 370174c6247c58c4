// The thread a background fold runs in (./store.ts): reading the snapshot and its journal, checking them and writing
// the new snapshot take a second or more at 100k stored charges, and none of it may hold up the event loop that answers
// requests (sandbox.md 10: no fold pauses it more than 10 ms). One message per fold: { file, seq } in,
// { bytes } or { error } out; the store keeps the thread between folds that follow closely (./fold-thread.ts). Built
// as its own entry, dist/fold-worker.js; from source (tests) the store folds in process instead.
import { parentPort } from 'node:worker_threads';
import type { KeptFold } from './disk';
import { lowerThreadPriority } from '../lib/thread-priority';

// On a busy machine the fold yields the CPU to the thread that answers requests (lib/thread-priority.ts).
lowerThreadPriority();

// What the fold runs is loaded once the priority is lowered: loading it is part of the work that yields (a static
// import would be loaded before this module's first line, at the sandbox's priority).
const { foldFiles } = await import('./disk');

// The state of the last fold, kept for the next one while the store keeps this thread (./fold-thread.ts).
const kept: { current: KeptFold | null } = { current: null };

parentPort?.on('message', (job: { file: string; seq: number }) => {
  foldFiles(job.file, job.seq, kept).then(
    (done) => parentPort!.postMessage(done),
    (err: unknown) => parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
});
