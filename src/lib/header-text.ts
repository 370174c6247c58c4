// A client's text in a header (sandbox.md 11: "a header never carries an unencoded client string"). A header value is
// bytes, and Node refuses (a 500) any character past U+00FF; so what a client wrote goes into a header as JSON would
// write it with every character outside printable ASCII escaped: `\uXXXX` per UTF-16 unit (an astral character as its
// surrogate pair, a lone surrogate as itself), `"` and `\` too, so that a quoted name ends at its own quote. The same
// text goes wherever the header's text goes (the request log's warnings), so the two always read alike.

/** Printable ASCII but `"` and `\`: what a quoted name keeps as it is. */
const UNQUOTED = /[^\x20\x21\x23-\x5b\x5d-\x7e]/g;
/** Printable ASCII: what a header value keeps as it is. */
const UNPRINTABLE = /[^\x20-\x7e]/g;
const HAS_UNPRINTABLE = /[^\x20-\x7e]/;
/**
 * The longest part of a client's string a header repeats (in UTF-16 units) by default: clients read an answer's head
 * into a bounded buffer (16 KB for Node's), and ten warnings of escaped names must fit.
 */
export const HEADER_NAME_MAX = 64;

const escapeUnit = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A client's string in double quotes as a header can carry it: `"expiresInn"`, `"\ud83d\ude42"`, `"a\u0022b"`. One
 * longer than `max` is cut there, and says so: `"aaaa..."... (5000 characters)`.
 */
export function quotedForHeader(text: string, max = HEADER_NAME_MAX): string {
  const cut = text.length > max;
  const shown = `"${(cut ? text.slice(0, max) : text).replace(UNQUOTED, escapeUnit)}"`;
  return cut ? `${shown}... (${text.length} characters)` : shown;
}

/** Any text as a header value: printable ASCII as it is, every other character `\uXXXX`. */
export const headerValue = (text: string): string => (HAS_UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE, escapeUnit) : text);
