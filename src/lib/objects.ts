/**
 * `{ [key]: value }` when value is defined, else `{}`: for optional fields that must be absent, not null. Typed as an
 * optional property, so that a spread of it keeps the field in the view's type (a union with `{}` dropped it).
 */
export const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));
