// PIX_SANDBOX_HOME/ready.json: the ready line of the last sandbox started with this home, with its v1 API key, so
// `pix-sandbox env` finds it without being told the URL. Removed when that sandbox stops; a file whose pid is gone
// counts as absent.
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const READY_FILE = 'ready.json';

/** The proxy's URL for a sandbox URL: the same port, spoken to in plain HTTP (it also is under --https). */
export function proxyUrlOf(url: string): string {
  return url.replace(/^https:/, 'http:');
}

export interface ReadyFile {
  url: string;
  proxyUrl?: string;
  pid: number;
  apiKey?: string;
}

export function writeReadyFile(home: string, ready: ReadyFile): void {
  try {
    mkdirSync(home, { recursive: true });
    const tmp = join(home, `${READY_FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, `${JSON.stringify(ready)}\n`, { mode: 0o600 });
    renameSync(tmp, join(home, READY_FILE));
  } catch {
    // A home that cannot be written: `pix-sandbox env` then needs --url.
  }
}

/** Removes the file if it is still this process's. */
export function removeReadyFile(home: string): void {
  if (readReadyFile(home)?.pid === process.pid) {
    try {
      unlinkSync(join(home, READY_FILE));
    } catch {}
  }
}

/** The ready file of a sandbox that is still running, or undefined. */
export function readReadyFile(home: string): ReadyFile | undefined {
  let ready: ReadyFile;
  try {
    ready = JSON.parse(readFileSync(join(home, READY_FILE), 'utf8')) as ReadyFile;
  } catch {
    return undefined;
  }
  if (typeof ready?.url !== 'string' || !Number.isInteger(ready.pid)) return undefined;
  try {
    process.kill(ready.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return undefined;
  }
  return ready;
}
