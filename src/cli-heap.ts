// A CLI start on a big data file runs with a heap sized to it (docs/data.md, services/capacity.ts heapWanted). Node's
// heap limit is fixed when the process starts, so when the data file (or --max-records, --max-bytes) wants more than
// this process has, the CLI runs itself again as a child with --max-old-space-size: the child is the sandbox, this
// process only forwards signals and its exit. A start that needs no more (the usual one) stays in this process. The
// child ends with this process even if it is killed outright (SIGKILL): it watches the IPC channel between them.
import { statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { builtin } from './lib/builtin';
import { BYTES_PER_RECORD, heapLimit, heapWanted } from './services/capacity';
import type { SandboxOptions } from './config';

const childProcess = builtin<typeof import('node:child_process')>('node:child_process');

/**
 * The heap (MB) this start should run with when it is more than this process has and nobody chose one
 * (`heapChosen`: --max-old-space-size in NODE_OPTIONS or in Node's own flags); undefined to start here.
 */
export function heapToAskFor(options: SandboxOptions, heapChosen: boolean): number | undefined {
  if (heapChosen || process.execArgv.some((a) => a.startsWith('--max-old-space-size'))) return undefined;
  let fileBytes = 0;
  try {
    if (options.dataFile) fileBytes = statSync(options.dataFile).size;
  } catch {
    /* a new file: nothing to hold yet */
  }
  const maxBytes = options.maxBytes ?? (options.maxRecords !== undefined ? options.maxRecords * BYTES_PER_RECORD : undefined);
  const wanted = heapWanted({ fileBytes, ...(maxBytes !== undefined ? { maxBytes } : {}), heapLimit: heapLimit(), totalMemory: totalmem() });
  return wanted === undefined ? undefined : Math.floor(wanted / 1048576);
}

/** Runs this CLI again with a heap of `mb` MB and ends as the child ends (its exit code, or the signal that ended it). */
export function runWithHeap(mb: number): void {
  // Its own process group: a Ctrl-C at a terminal reaches this process, which passes it on once (not twice).
  const child = childProcess().spawn(process.execPath, [...process.execArgv, `--max-old-space-size=${mb}`, ...process.argv.slice(1)], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], detached: true });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const s of signals) process.on(s, forward);
  child.once('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

/** In the child of runWithHeap: stop (as on SIGTERM) once the parent is gone, however it went. */
export function endWithParent(): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
