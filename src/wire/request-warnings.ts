// A request's warnings: each one a `Sandbox-Warning` header of its answer, all of them kept for its request-log
// entry. Apart from validate.ts, which loads the schema library: app.ts, in the start's core, reads them.
import type { Context } from 'hono';
import { headerValue } from '../lib/header-text';
import { collectWarnings } from '../lib/warnings';

/** The warnings of each request that had some, for its entry in the request log. */
const requestWarnings = new WeakMap<Context, string[]>();
export const warningsOf = (c: Context): string[] | undefined => requestWarnings.get(c);

/** Runs a check of the request `c`'s input; each warning it records becomes a `Sandbox-Warning` header of the answer. */
export const checkedWithWarnings = <T>(c: Context, check: () => T): T =>
  collectWarnings(check, (warnings) => {
    // Each warning quotes what the client wrote as a header can carry it (lib/header-text.ts); headerValue is what keeps
    // a warning that forgot to from ever making the answer a 500.
    for (const w of warnings) c.header('Sandbox-Warning', headerValue(w), { append: true });
    const kept = requestWarnings.get(c);
    if (kept) kept.push(...warnings);
    else requestWarnings.set(c, [...warnings]);
  });
