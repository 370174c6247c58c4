// What the request log masks (sandbox.md 14, 11): secrets, told by what they are, not by how they were spelt. Bodies
// are masked as parsed JSON (JSON.parse has undone any escape: `"client_\u0073ecret"` is client_secret), a field by
// its name compared in lower case, at any depth, in requests and answers; a query parameter by its decoded name.
// Headers are masked by the middleware as an entry is kept (wire/middleware/request-log.ts); queries and bodies when
// an entry is read.

/** What every secret is replaced by, in headers, queries and bodies. */
export const MASK = '[masked]';
/**
 * A field whose value is a secret, by its lower-case name: client secrets, webhook secrets, every token (access,
 * refresh, an attendee's console and view tokens), passwords, API keys and private keys.
 */
const SECRET_NAME = /(?:secret|token|passw(?:or)?d|(?:private|api|secret)[-_]?key)$/;
/** A list of API keys (`apiKeys: [{ key }]`): its items' `key` is one. A Pix key (`pixKeys: [{ key, type }]`) is not. */
const API_KEY_LIST = /api[-_]?keys$/;
const API_KEY_VALUE = /^mp_(?:test|live)_/;
/**
 * Text that may hold a secret: a quick test before any parse. Every name and value masked has one of these words in
 * it as the client wrote it, unless it wrote a character as an escape: then it has `\u`.
 */
const MAY_HOLD_SECRET = /secret|token|passw|key|private|attendee|\\u/i;
/** A query parameter whose value is a secret, by its decoded name (an attendee's console link carries its token). */
const SECRET_PARAM = /token|secret|key|passw|attendee/i;
/** A query that may have one: a secret's word, or a name with an escape in it (a value's escapes do not count). */
const MAY_HOLD_SECRET_PARAM = /token|secret|key|passw|attendee|(?:^|[?&])[^=&]*%/i;

/** `query` (after its `?`) with the values of its secret parameters masked; itself when there is none. */
function maskedParams(query: string): string {
  if (!MAY_HOLD_SECRET_PARAM.test(query)) return query;
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at < 0) return pair;
      let name = pair.slice(0, at);
      try {
        name = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // A name that does not decode is judged as it was sent.
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, at + 1)}${MASK}` : pair;
    })
    .join('&');
}

/** A request's query as the log keeps it ('' or from its `?`), with its secret parameters masked. */
export const maskedQuery = (query: string): string => (query === '' ? query : `?${maskedParams(query.slice(1))}`);

/** A string value as the log shows it: a PEM private key masked whole, a URL's secret parameters masked. */
function maskedString(value: string): string {
  if (value.includes('PRIVATE KEY')) return MASK;
  const at = value.indexOf('?');
  if (at < 0 || !value.includes('=')) return value;
  const end = value.indexOf('#', at);
  const query = end < 0 ? value.slice(at + 1) : value.slice(at + 1, end);
  const masked = maskedParams(query);
  return masked === query ? value : value.slice(0, at + 1) + masked + (end < 0 ? '' : value.slice(end));
}

/** Masks secrets in a parsed JSON value, in place (it is a copy made for the log). `apiKeys`: items of a list of API keys. */
function maskValue(value: unknown, apiKeys = false): unknown {
  if (typeof value === 'string') return maskedString(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = maskValue(value[i], apiKeys);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const v = record[key];
      const lower = key.toLowerCase();
      // `key`: an API key (mp_test_..., or any in a list of API keys) or a certificate's private key; a Pix key stays.
      const secret = SECRET_NAME.test(lower) || (lower === 'key' && (apiKeys || (typeof v === 'string' && API_KEY_VALUE.test(v))));
      if (secret && v !== null) record[key] = MASK;
      else record[key] = maskValue(v, API_KEY_LIST.test(lower));
    }
  }
  return value;
}

/** JSON text with its secrets masked; undefined when it is not valid JSON. `valid`: known to be JSON. */
export function maskedJson(text: string, valid: boolean): string | undefined {
  try {
    if (MAY_HOLD_SECRET.test(text)) return JSON.stringify(maskValue(JSON.parse(text)));
    if (!valid) JSON.parse(text);
    return text;
  } catch {
    return undefined;
  }
}
