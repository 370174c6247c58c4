// One process per data file (sandbox.md 6): `<file>.lock` names the holder (pid, host, start time). It is created with
// O_EXCL, so of two processes starting at once exactly one gets it. A lock whose process is gone (same host, and
// `process.kill(pid, 0)` says no such process) is taken over; a lock held by a live process, or by another host (whose
// processes cannot be checked from here), refuses the start and names the holder.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, but not ours to signal
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? parsed : null;
  } catch {
    return null; // unreadable or half written (a crash while taking it): nobody can be holding it
  }
}

export interface FileLock {
  readonly path: string;
  release(): void;
}

/** Takes `<dataFile>.lock` or throws an Error naming the process that holds it. */
export function acquireLock(dataFile: string, log: (line: string) => void): FileLock {
  const path = `${dataFile}.lock`;
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`Cannot create the lock file ${path}: ${(err as Error).message}`);
      const holder = readHolder(path);
      if (holder && (holder.host !== me.host || alive(holder.pid))) {
        throw new Error(
          `The data file ${dataFile} is in use by process ${holder.pid} on ${holder.host} (started ${holder.startedAt}); lock file ${path}. ` +
            'Stop that sandbox, or give this one another --data file. If that process is gone (another host), delete the lock file.',
        );
      }
      log(`pix-sandbox: taking over the lock ${path}: ${holder ? `process ${holder.pid} (started ${holder.startedAt}) is gone` : 'its content is unreadable'}`);
      try {
        unlinkSync(path);
      } catch {
        /* someone else took it over first: try again */
      }
      continue;
    }
    writeSync(fd, JSON.stringify(me));
    closeSync(fd);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.removeListener('exit', release);
      const holder = readHolder(path);
      if (holder && holder.pid === me.pid && holder.startedAt === me.startedAt) {
        try {
          unlinkSync(path);
        } catch {
          /* already gone */
        }
      }
    };
    process.on('exit', release);
    return { path, release };
  }
  throw new Error(`Cannot take the lock file ${path}: another process keeps taking it.`);
}
