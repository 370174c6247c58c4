/** `{ [key]: value }` when value is defined, else `{}`: for optional fields that must be absent, not null. */
export const opt = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));
