// Limits of a JSON request body, the same on every face (the service's, the standard API Pix, the control API).
// sandbox.md 11: a charge whose metadata nested 5,000 levels was stored, then broke every lookup, list and fold of it.

export const MAX_BODY_BYTES = 512 * 1024;
/** Levels of objects and arrays a JSON body may nest; the body itself is level 1 (`{"metadata":{"a":{}}}` is 3). */
export const MAX_JSON_DEPTH = 32;

/** The path to the first object or array below `limit` levels, or null when the value nests no deeper than that. */
export function pathBeyond(value: unknown, limit: number, depth = 1): (string | number)[] | null {
  if (value === null || typeof value !== 'object') return null;
  if (depth > limit) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v === null || typeof v !== 'object') continue;
      const below = pathBeyond(v, limit, depth + 1);
      if (below) return [i, ...below];
    }
    return null;
  }
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v === null || typeof v !== 'object') continue;
    const below = pathBeyond(v, limit, depth + 1);
    if (below) return [key, ...below];
  }
  return null;
}
