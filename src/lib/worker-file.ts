// The worker threads' files (qr-worker.js, fold-worker.js, send-worker.js) are built beside the bundle that starts
// them (scripts/build.mjs). Running from the TypeScript sources there are none, and that work runs in process instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The path of the worker file `file` (a URL beside the module that starts it) when it was built, else null. */
export function builtWorker(file: URL): string | null {
  if (file.protocol !== 'file:') return null;
  const path = fileURLToPath(file);
  return path.endsWith('.js') && existsSync(path) ? path : null;
}
