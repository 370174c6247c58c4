/**
 * `{ [key]: value }` when value is defined, else `{}`: for optional fields that must be absent, not null. Typed as an
 * optional property, so that a spread of it keeps the field in the view's type (a union with `{}` dropped it).
 */
export const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

/**
 * `Object.values(record)`, read by its keys: for the state's big collections (an account's transactions, the jobs),
 * which V8 keeps as dictionaries, where Object.values took 2 to 3 times as long as listing the keys and reading each
 * (100,000 entries on Node 20: 120-190 ms against 48-103 ms).
 */
export function valuesOf<T>(record: Record<string, T>): T[] {
  const out: T[] = [];
  for (const key of Object.keys(record)) out.push(record[key]!);
  return out;
}
