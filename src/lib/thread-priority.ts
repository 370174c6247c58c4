// A background thread (the fold's) yields the CPU to the thread that answers requests on a busy machine: a nice value
// of 10 (a tenth or so of a core both want). Not for a thread a request waits for (services/qr-worker.ts says why). On
// Linux the nice value is per thread, so this lowers the calling thread's only; elsewhere it would be the whole
// process's, so it is left alone there.
import { setPriority } from 'node:os';

/** Lowers the calling worker thread's priority to nice 10 on Linux; where that is not allowed, it keeps the sandbox's. */
export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(10);
  } catch {
    /* not allowed: the thread runs at the sandbox's priority */
  }
}
