// The default fixtures (fixtures/default.json) as FixturesSchema parses them, put here by the build
// (scripts/build.mjs), so that a start with the default fixtures does not load the schema library to check a file
// the build checked: `text` is the file the build read, `parsed` the schema's output as JSON. Undefined when running
// from source, and any other fixtures (or an edited default file) are checked at start as always.
export const DEFAULT_FIXTURES_CHECKED: { text: string; parsed: string } | undefined = undefined;
