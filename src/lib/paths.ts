// A request target's path as the sandbox serves it (sandbox.md 11): every spelling of a separator is one ('/', '\',
// %2f, %5c, any case; runs of them are one), every spelling of a dot is one (%2e, any case, any mix), and dot segments
// are resolved as RFC 3986 5.2.4 says, never above the root. The query is left as it came. The result is a fixed point
// (normalising it again changes nothing), so a face chosen on it cannot be left by any later reading of the path.

/** Anything that may need normalising: a backslash, an escape, a doubled slash or a segment starting with a dot. */
const SUSPECT = /[\\%]|\/\/|\/\./;
const DOT = /%2e/gi;
const SEPARATOR = /%2f|%5c|\\/gi;

/** The path alone (starting with '/'), normalised. */
export function normalPath(path: string): string {
  if (!SUSPECT.test(path)) return path;
  const out: string[] = [];
  const segments = path.replace(DOT, '.').replace(SEPARATOR, '/').split('/');
  // A path ending in a separator or a dot segment keeps its trailing slash (/v1/pix/. is /v1/pix/).
  let trailing = false;
  for (const segment of segments) {
    trailing = segment === '' || segment === '.' || segment === '..';
    if (segment === '..') out.pop();
    else if (!trailing) out.push(segment);
  }
  if (!out.length) return '/';
  return `/${out.join('/')}${trailing ? '/' : ''}`;
}

/** Whether `target` is in origin form (/path?query): one character read, on every request's target. */
const isOriginForm = (target: string) => target.charCodeAt(0) === 47;

/**
 * A request target with its path normalised: origin form (/path?query) or absolute form (http://host/path?query);
 * anything else (`*`, an authority) is returned as it is.
 */
export function normalTarget(target: string): string {
  let start = 0;
  if (!isOriginForm(target)) {
    const scheme = target.indexOf('://');
    if (scheme < 0) return target;
    start = target.indexOf('/', scheme + 3);
    if (start < 0) return target;
  }
  let end = target.indexOf('?', start);
  if (end < 0) end = target.length;
  const path = target.slice(start, end);
  const normal = normalPath(path);
  return normal === path ? target : `${target.slice(0, start)}${normal}${target.slice(end)}`;
}
