// GET /_sandbox/health's answer, in a module of its own (no schema library): the CLI answers it before the control
// API's routes are loaded (route-groups.ts), so a harness waiting for the sandbox does not wait for them.
import type { Deps } from '../deps';
import { fullNote, heapLimit, oldestRecordMs, recordsHeld } from '../services/capacity';

export function healthAnswer(deps: Deps, hooks: { version: string; startedAt: number }) {
  return {
    status: 'ok' as const,
    version: hooks.version,
    now: deps.clock.iso(),
    frozen: deps.clock.frozen,
    uptimeSeconds: Math.round((Date.now() - hooks.startedAt) / 1000),
    accounts: Object.keys(deps.store.state.accounts).length,
    persistent: deps.store.persistent,
    pendingJobs: deps.scheduler.pendingCount(),
    rssBytes: process.memoryUsage().rss,
    heapLimitBytes: heapLimit(),
    ...recordsOf(deps),
    /** What retention keeps and last did (services/retention.ts). */
    retention: deps.retention.report(),
  };
}

/** Records held and their weight against the budget, and when the oldest was made (sandbox.md 6.1, 11); `full`: creates answer 507 STORAGE_FULL. */
function recordsOf(deps: Deps) {
  const { held, limit, bytes, maxBytes, full } = recordsHeld(deps);
  const oldest = oldestRecordMs(deps);
  return { records: held, oldestRecordAt: oldest === null ? null : new Date(oldest).toISOString(), maxRecords: limit, bytesHeld: bytes, maxBytes, storageFull: full, storageNote: full ? fullNote(deps) : null };
}
