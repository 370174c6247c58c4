// The data file's shape checks (./schema.ts, built on zod) are imported only when there is a data file: openStore
// awaits loadStateChecks() before it reads one, so a start without --data loads no schema library.
type Checks = typeof import('./schema');
let checks: Checks | undefined;

export async function loadStateChecks(): Promise<Checks> {
  return (checks ??= await import('./schema'));
}

/** The checks, once loaded (every caller reads or writes a data file, which openStore loaded them for). */
export function stateChecks(): Checks {
  if (!checks) throw new Error('The data file checks are not loaded: call loadStateChecks() first.');
  return checks;
}

/**
 * What is wrong with the shape of `value` as a sandbox state (what start-up checks a snapshot for), or null. `checked`:
 * the collections whose entries were checked as the data file was read (./as-read.ts).
 */
export function shapeProblem(value: unknown, checked?: (collection: object) => boolean): string | null {
  const { parseState, describeIssues } = stateChecks();
  const result = parseState(value, checked);
  return result.success ? null : describeIssues(result.error);
}
